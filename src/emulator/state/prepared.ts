// Tenants prepared at build time (esbuild.mjs runs prepareMain.ts): for each seed, a data folder already initialised,
// migrated and seeded (a PGlite data directory as a brotli tarball, which a new data folder starts from instead of
// running initdb and the seeders) and the same tenant as a state snapshot (for a reset, and to seed PostgreSQL).
// They are used only by the bundle they were built with: esbuild stamps the bundle with the fingerprint of the
// sources that produce them (seeders, migrations, storage), and prepared.json carries the same fingerprint.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

declare const DAM_PREPARED_FINGERPRINT: string | undefined;

const PREPARED_FOLDER = 'prepared';
export const PREPARED_MANIFEST = 'prepared.json';

export const PreparedManifest = z.object({
  fingerprint: z.string(),
  seeds: z.partialRecord(z.enum(['demo', 'empty']), z.object({ pgdata: z.string(), state: z.string() })),
});

export interface PreparedTenant {
  /** A brotli tarball of a PGlite data directory (entries relative to it). */
  pgdata: string;
  /** A state snapshot folder (snapshotDir.ts). */
  state: string;
}

let cached: PreparedManifest | null | undefined;
export type PreparedManifest = z.infer<typeof PreparedManifest>;

function manifest(): PreparedManifest | null {
  if (cached !== undefined) return cached;
  cached = null;
  const fingerprint = typeof DAM_PREPARED_FINGERPRINT === 'string' ? DAM_PREPARED_FINGERPRINT : undefined;
  const file = join(__dirname, PREPARED_FOLDER, PREPARED_MANIFEST);
  if (!fingerprint || !existsSync(file)) return cached;
  const parsed = PreparedManifest.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (parsed.success && parsed.data.fingerprint === fingerprint) cached = parsed.data;
  return cached;
}

/** The prepared tenant of `seed` that this bundle may use, if any (none from the TypeScript sources). */
export function preparedTenant(seed: 'demo' | 'empty'): PreparedTenant | undefined {
  const entry = manifest()?.seeds[seed];
  if (!entry) return undefined;
  const dir = join(__dirname, PREPARED_FOLDER);
  return { pgdata: join(dir, entry.pgdata), state: join(dir, entry.state) };
}
