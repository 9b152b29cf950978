// Rules: when a file version is created, the emulator calls the URLs configured in the system setting
// `.fileVersionCreatedHooks`, so an integrator's check service can be run end to end against it (fetch the
// content, run the check, write the result back through the check framework). Each hook is `{ url, mode }`:
// mode `json` (default) POSTs `{ event, recordId, fileVersionId, fileVersionUrl, occurredOn }`; mode `page-hook`
// POSTs the spec's page-hook form, `application/x-www-form-urlencoded` with `access-token` (a fresh token acting
// as the user who created the version) plus `recordId` and `fileVersionId`. Calls run after the request's
// transaction committed, in the background, and a failing hook is only logged.
import { z } from 'zod';
import type { EmulatorContext } from '../context';
import type { Queryable } from '../storage/store';

export const HOOKS_SETTING = '.fileVersionCreatedHooks';

export const Hooks = z.array(
  z.union([
    z.url().transform((url) => ({ url, mode: 'json' as const })),
    z.object({ url: z.url(), mode: z.enum(['json', 'page-hook']).default('json') }),
  ]),
);

/** Calls each configured hook for each version the request created (none when the setting is empty). */
export async function fireFileVersionCreated(
  ctx: EmulatorContext,
  origin: string,
  created: { recordId: string; versionIds: string[]; userId: number; clientId: string },
  db: Queryable = ctx.store,
): Promise<void> {
  if (!created.versionIds.length) return;
  const rows = await db.query<{ value: unknown }>('SELECT value FROM settings WHERE name = $1', [HOOKS_SETTING]);
  const parsed = Hooks.safeParse(rows[0]?.value ?? []);
  if (!parsed.success) {
    ctx.log(`rules: the ${HOOKS_SETTING} setting is not a list of { url, mode }; no hook called`);
    return;
  }
  for (const hook of parsed.data) {
    for (const fileVersionId of created.versionIds) {
      ctx.background(async () => {
        const init =
          hook.mode === 'page-hook'
            ? {
                headers: { 'content-type': 'application/x-www-form-urlencoded' },
                body: new URLSearchParams({
                  'access-token': (await ctx.tokens.issue(created.clientId, created.userId, 'api')).access_token,
                  recordId: created.recordId,
                  fileVersionId,
                }).toString(),
              }
            : {
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({
                  event: 'FileVersionCreated',
                  recordId: created.recordId,
                  fileVersionId,
                  fileVersionUrl: `${origin}/api/core/fileversion/${fileVersionId}`,
                  occurredOn: ctx.clock.now().toISOString(),
                }),
              };
        const response = await fetch(hook.url, { method: 'POST', ...init, signal: AbortSignal.timeout(30_000) });
        await response.body?.cancel();
        ctx.log(`rules: ${hook.mode} hook ${new URL(hook.url).host} answered ${response.status} for version ${fileVersionId}`);
      });
    }
  }
}
