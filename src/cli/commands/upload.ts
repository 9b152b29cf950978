// `dam upload FILE… [--record ID] [--classification ID]`: sends the files through the one upload queue the
// Upload command uses (a few files at once, segmented above 20 MB) and makes each a new record, or a new
// version of --record's master file. One progress line on a terminal, a line per quarter otherwise; failed
// files are sent again (only those) up to --retries times; Ctrl+C deletes open upload sessions and creates
// no record for a file not yet taken.
import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { DamClient } from '../../api/client';
import { ApiError } from '../../api/errors';
import type { Command } from '../command';
import { UsageError } from '../command';
import { CONNECTION_USAGE, connect, connectionOptions } from '../connection';
import { writeLine } from '../output';
import { checkUploadFilename } from '../../api/uploads';
import { formatBytes, UploadQueue, type BatchSnapshot, type ItemStatus, type UploadItem, type UploadTarget } from '../../api/uploadQueue';

const MB = 1024 * 1024;
const fmt = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

/** The whole batch on one line redrawn at most ten times a second on a terminal; a line per quarter on anything else. */
function progressReporter(stderr: NodeJS.WritableStream): { update(s: BatchSnapshot): void; clear(): void; done(): void } {
  const tty = (stderr as NodeJS.WriteStream).isTTY === true;
  let last = 0;
  let quarter = -1;
  let settled = false;
  let drawn = false;
  return {
    update(s) {
      const fraction = s.bytesTotal > 0 ? s.bytesSent / s.bytesTotal : s.done / Math.max(1, s.files);
      const counts = `${s.done}/${s.files} files${s.failed ? `, ${s.failed} failed` : ''}`;
      const allSettled = s.done + s.failed === s.files;
      if (!tty) {
        const q = Math.floor(fraction * 4);
        if (q > quarter || (allSettled && !settled)) {
          quarter = q;
          settled = allSettled;
          stderr.write(`${Math.round(fraction * 100)}% (${formatBytes(s.bytesSent)} of ${formatBytes(s.bytesTotal)}, ${counts})\n`);
        }
        return;
      }
      const now = performance.now();
      if (now - last < 100 && !allSettled) return;
      last = now;
      const width = 30;
      const filled = Math.round(fraction * width);
      stderr.write(`\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.round(fraction * 100)).padStart(3)}% ${counts} ${formatBytes(s.bytesSent)}/${formatBytes(s.bytesTotal)} ${formatBytes(s.bytesPerSecond)}/s\x1b[K`);
      drawn = true;
    },
    /** Makes room for a line on stdout: the progress line is drawn again at the next update. */
    clear() {
      if (tty && drawn) stderr.write('\r\x1b[K');
      drawn = false;
      last = 0;
    },
    done() {
      if (tty && drawn) stderr.write('\n');
      drawn = false;
    },
  };
}

const GUID = /^(?:[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/**
 * A --classification value as an id: an id as given, a name path (`/Brand/Logos`) looked up, before any file is
 * sent (a path sent as an id was a 404 after the bytes had gone out three times). An unknown path is a usage error.
 */
async function classificationId(client: DamClient, value: string, signal: AbortSignal): Promise<string> {
  if (GUID.test(value)) return value;
  const path = value.startsWith('/') ? value : `/${value}`;
  try {
    const found = (await client.get(`/classification?namePath=${encodeURIComponent(path)}`, { signal })) as { id?: unknown };
    if (typeof found.id === 'string') return found.id;
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 404)) throw err;
  }
  throw new UsageError(`--classification '${value}': no classification has the id or name path ${path}; nothing was sent`);
}

/** The files a path stands for: the file itself, or every file below a folder (recursively), in name order. */
async function filesUnder(path: string): Promise<string[] | undefined> {
  const info = await stat(path).catch(() => undefined);
  if (info?.isFile()) return [path];
  if (!info?.isDirectory()) return undefined;
  const entries = (await readdir(path, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
  return entries.map((e) => join(e.parentPath, e.name)).sort();
}

function line(s: ItemStatus): string {
  return `${s.item.path}\trecord ${s.recordId}\tversion ${s.versionId ?? '?'}\t${fmt(s.sent)}${s.segmented ? ` in ${s.segments} segments` : ''}`;
}

export const uploadCommand: Command = {
  name: ['upload'],
  summary: 'Upload files (a few at once, segmented above 20 MB) and create a record for each, or add each as a new version of --record',
  usage:
    `dam upload FILE|FOLDER… [--record ID] [--classification ID|/NAME/PATH]… [--concurrency N] [--retries N] [--json] ${CONNECTION_USAGE}\n` +
    '  a FOLDER uploads every file below it (recursively); a file whose name the service refuses is reported and the rest are sent',
  options: {
    ...connectionOptions,
    record: { type: 'string' },
    classification: { type: 'string', multiple: true },
    concurrency: { type: 'string' },
    retries: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run({ values, positionals }, io) {
    if (positionals.length === 0) throw new UsageError(`give at least one file\nusage: ${this.usage}`);
    const recordId = typeof values.record === 'string' ? values.record : undefined;
    const classificationValues = ((values.classification as string[] | undefined) ?? []).flatMap((c) => c.split(',')).map((c) => c.trim()).filter(Boolean);
    if (recordId && classificationValues.length) throw new UsageError('--classification applies to new records; it cannot be combined with --record');
    const count = (name: string, fallback: number, min: number) => {
      const text = values[name];
      if (typeof text !== 'string') return fallback;
      if (!/^\d{1,3}$/.test(text) || Number(text) < min) throw new UsageError(`--${name} must be a whole number of at least ${min}, got '${text}'`);
      return Number(text);
    };
    const concurrency = count('concurrency', 4, 1);
    const retries = count('retries', 2, 0);
    // Everything that can be checked locally is checked before the first byte goes out.
    const items: UploadItem[] = [];
    const refused: { path: string; reason: string }[] = [];
    for (const given of positionals) {
      const files = await filesUnder(given);
      if (!files) throw new UsageError(`${given} is not a readable file or folder`);
      if (files.length !== 1 || files[0] !== given) io.stderr.write(`dam: ${given} is a folder: uploading the ${files.length} file(s) below it (recursively)\n`);
      for (const file of files) {
        try {
          checkUploadFilename(basename(file));
        } catch (err) {
          // The name can never succeed: said, and the rest of the batch still goes.
          refused.push({ path: file, reason: (err as Error).message });
          continue;
        }
        items.push({ path: file, name: basename(file), size: (await stat(file)).size, title: basename(file) });
      }
    }
    for (const r of refused) io.stderr.write(`dam: ${r.path}: not sent: ${r.reason}\n`);
    const client = connect(values, io);
    const classificationIds: string[] = [];
    for (const c of classificationValues) classificationIds.push(await classificationId(client, c, io.signal));
    const target: UploadTarget = recordId ? { kind: 'record', recordId } : { kind: 'records', classificationIds };
    const queue = new UploadQueue(client, target, items, { concurrency, withVersions: true });
    const progress = progressReporter(io.stderr);
    const printed = new Set<ItemStatus>();
    const report = async (snapshot: BatchSnapshot) => {
      progress.update(snapshot);
      if (values.json === true) return;
      // Each file's line as soon as it is done, so a long batch shows what already arrived.
      for (const s of queue.statuses) {
        if (s.state === 'done' && s.versionId !== undefined && !printed.has(s)) {
          printed.add(s);
          progress.clear();
          await writeLine(io.stdout, line(s));
        }
      }
    };
    let result = await queue.run(io.signal, (snapshot) => void report(snapshot));
    for (let attempt = 1; attempt <= retries && result.failed.length && !result.cancelled; attempt++) {
      progress.done();
      io.stderr.write(`dam: sending ${result.failed.length} failed file(s) again (${attempt} of ${retries})\n`);
      result = await queue.run(io.signal, (snapshot) => void report(snapshot));
    }
    progress.done();
    const done = queue.statuses.filter((s) => s.state === 'done');
    if (values.json === true) {
      const rows = queue.statuses.map((s) =>
        s.state === 'done'
          ? { file: s.item.path, recordId: s.recordId!, versionId: s.versionId ?? null, size: s.item.size, segmented: Boolean(s.segmented) }
          : { file: s.item.path, error: s.reason ?? s.state },
      );
      await writeLine(io.stdout, JSON.stringify([...rows, ...refused.map((r) => ({ file: r.path, error: r.reason }))], null, 2));
    } else {
      for (const s of done) if (!printed.has(s)) await writeLine(io.stdout, line(s));
    }
    if (result.cancelled) {
      io.stderr.write(`dam: cancelled; ${done.length} of ${items.length + refused.length} file(s) arrived as ${recordId ? 'versions' : 'records'}, no record was created for the others\n`);
      return 130;
    }
    for (const s of queue.statuses) if (s.state === 'failed') io.stderr.write(`dam: ${s.item.path}: ${s.reason ?? 'failed'}\n`);
    for (const r of refused) io.stderr.write(`dam: ${r.path}: not sent: ${r.reason}\n`);
    return refused.length || queue.statuses.some((s) => s.state !== 'done') ? 1 : 0;
  },
};
