// What the last pull wrote into a tenant folder (a hash per file, in `.dam-pull.json`), so a later pull can tell a file
// changed by hand from one as pulled and refuse to overwrite the first. Pure: the caller hashes (SHA-256) and does I/O.
import { z } from 'zod';
import { SCHEMA_DIR } from './folder';

/** Beside the configuration; a dot-file, so reading the folder back ignores it. */
export const PULL_RECORD_FILE = '.dam-pull.json';

const PullRecord = z.object({
  format: z.literal('dam-tenant-pull'),
  version: z.literal(1),
  /** Path (relative, `/`) → hash of the text the pull wrote. */
  files: z.record(z.string(), z.string()),
});
export type PullRecord = z.infer<typeof PullRecord>;

export type TextHash = (text: string) => string;

/** The record of a pull that wrote `files`, as the file's text. */
export function pullRecordText(files: ReadonlyMap<string, string>, hash: TextHash): string {
  const record: PullRecord = { format: 'dam-tenant-pull', version: 1, files: {} };
  for (const path of [...files.keys()].sort()) record.files[path] = hash(files.get(path)!);
  return `${JSON.stringify(record, null, 2)}\n`;
}

/** The folder's record, or undefined when it has none (a folder pulled before records, or never) or it is unreadable. */
export function readPullRecord(text: string | undefined): PullRecord | undefined {
  if (text === undefined) return undefined;
  try {
    const parsed = PullRecord.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Field files a pull removes when the configuration no longer holds them, so the folder is exactly the tenant. */
export const isPulledFieldFile = (path: string) => /^fields\/[^/]+\.json$/.test(path);

export interface LocalEdit {
  path: string;
  /** `changed`: differs from what the last pull wrote; `added`: no pull wrote it; `unrecorded`: the folder has no record. */
  kind: 'changed' | 'added' | 'unrecorded';
}

/**
 * The files a pull of `next` would overwrite or remove although they are not what the last pull wrote: edits by hand
 * a pull would lose. A file the pull leaves as it is (same text, or one it does not write) is never listed.
 */
export function localEdits(current: ReadonlyMap<string, string>, next: ReadonlyMap<string, string>, recordText: string | undefined, hash: TextHash): LocalEdit[] {
  const record = readPullRecord(recordText);
  const edits: LocalEdit[] = [];
  for (const [path, text] of [...current].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    // The schemas are generated for the editor, never edited by hand: a newer dam rewrites them.
    if (path === PULL_RECORD_FILE || path.startsWith(`${SCHEMA_DIR}/`)) continue;
    const touched = next.has(path) ? next.get(path) !== text : isPulledFieldFile(path);
    if (!touched) continue;
    if (!record) edits.push({ path, kind: 'unrecorded' });
    else if (!(path in record.files)) edits.push({ path, kind: 'added' });
    else if (record.files[path] !== hash(text)) edits.push({ path, kind: 'changed' });
  }
  return edits;
}

/** One line naming the files, for a refusal or a question. */
export function localEditsWords(edits: readonly LocalEdit[], limit = 10): string {
  const name = (e: LocalEdit) => `${e.path}${e.kind === 'added' ? ' (added)' : ''}`;
  return `${edits.slice(0, limit).map(name).join(', ')}${edits.length > limit ? ` and ${edits.length - limit} more` : ''}`;
}
