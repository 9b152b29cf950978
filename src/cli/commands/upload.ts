// `dam upload FILE… [--record ID] [--classification ID]`: uploads each file (single or segmented by size) and
// makes it a new record, or a new version of --record's master file. A progress bar on a terminal, lines otherwise.
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Command } from '../command';
import { UsageError } from '../command';
import { CONNECTION_USAGE, connect, connectionOptions } from '../connection';
import { writeLine } from '../output';
import { checkUploadFilename, type UploadProgress } from '../../api/uploads';

const MB = 1024 * 1024;
const fmt = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

/** Redraws one line on a terminal at most ten times a second; on anything else prints a line per quarter. */
function progressReporter(stderr: NodeJS.WritableStream, name: string): { update(p: UploadProgress): void; done(): void } {
  const tty = (stderr as NodeJS.WriteStream).isTTY === true;
  const started = performance.now();
  let last = 0;
  let quarter = -1;
  let drawn = false;
  return {
    update({ sent, total }) {
      const fraction = total > 0 ? sent / total : 1;
      if (!tty) {
        const q = Math.floor(fraction * 4);
        if (q > quarter) {
          quarter = q;
          stderr.write(`${name}: ${Math.round(fraction * 100)}% (${fmt(sent)} of ${fmt(total)})\n`);
        }
        return;
      }
      const now = performance.now();
      if (now - last < 100 && sent < total) return;
      last = now;
      const width = 30;
      const filled = Math.round(fraction * width);
      const rate = sent / Math.max(0.001, (now - started) / 1000);
      stderr.write(`\r${name} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.round(fraction * 100)).padStart(3)}% ${fmt(sent)}/${fmt(total)} ${fmt(rate)}/s\x1b[K`);
      drawn = true;
    },
    done() {
      if (tty && drawn) stderr.write('\n');
    },
  };
}

export const uploadCommand: Command = {
  name: ['upload'],
  summary: 'Upload files (segmented above 20 MB) and create a record for each, or add each as a new version of --record',
  usage: `dam upload FILE… [--record ID] [--classification ID]… [--json] ${CONNECTION_USAGE}`,
  options: { ...connectionOptions, record: { type: 'string' }, classification: { type: 'string', multiple: true }, json: { type: 'boolean' } },
  async run({ values, positionals }, io) {
    if (positionals.length === 0) throw new UsageError(`give at least one file\nusage: ${this.usage}`);
    const recordId = typeof values.record === 'string' ? values.record : undefined;
    const classificationIds = ((values.classification as string[] | undefined) ?? []).flatMap((c) => c.split(',')).map((c) => c.trim()).filter(Boolean);
    if (recordId && classificationIds.length) throw new UsageError('--classification applies to new records; it cannot be combined with --record');
    // Everything that can be checked locally is checked before the first byte goes out.
    for (const file of positionals) {
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile()) throw new UsageError(`${file} is not a readable file`);
      try {
        checkUploadFilename(basename(file));
      } catch (err) {
        throw new UsageError((err as Error).message);
      }
    }
    const client = connect(values, io);
    const results: { file: string; recordId: string; versionId: string | null; size: number; segmented: boolean }[] = [];
    for (const file of positionals) {
      const name = basename(file);
      const progress = progressReporter(io.stderr, name);
      let upload;
      try {
        upload = await client.uploads.uploadFile(file, { signal: io.signal, onProgress: (p) => progress.update(p) });
      } finally {
        progress.done();
      }
      let versionId: string | null;
      let target: string;
      if (recordId) {
        const version = await client.files.addVersion(recordId, { token: upload.token, filename: name }, { signal: io.signal });
        target = recordId;
        versionId = version.id === undefined ? null : String(version.id);
      } else {
        const record = await client.files.createRecordFromUpload({ token: upload.token, filename: name, title: name, classificationIds }, { signal: io.signal });
        target = String(record.id);
        const version = await client.files.latestVersion(target, { signal: io.signal });
        versionId = version?.id === undefined ? null : String(version.id);
      }
      results.push({ file, recordId: target, versionId, size: upload.size, segmented: upload.segmented });
      if (values.json !== true) await writeLine(io.stdout, `${file}\trecord ${target}\tversion ${versionId ?? '?'}\t${fmt(upload.size)}${upload.segmented ? ` in ${upload.segments} segments` : ''}`);
    }
    if (values.json === true) await writeLine(io.stdout, JSON.stringify(results, null, 2));
    return 0;
  },
};
