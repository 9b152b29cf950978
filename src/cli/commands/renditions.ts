// `dam renditions RECORD… --preset NAME… [--wait]`: submits a CreateRenditions maintenance job and, with --wait,
// follows it to a final status; the exit code says whether every target succeeded.
import type { Command } from '../command';
import { UsageError } from '../command';
import { CONNECTION_USAGE, connect, connectionOptions } from '../connection';
import { writeLine } from '../output';
import type { MaintenanceJob } from '../../api/files';

function describeJob(job: MaintenanceJob): string {
  const failed = job.failedTargetsCount ? `, ${job.failedTargetsCount} of ${job.targetsCount ?? '?'} target(s) failed` : '';
  return `job ${job.id}: ${job.status}${failed}${job.message ? ` — ${job.message}` : ''}`;
}

export const renditionsCommand: Command = {
  name: ['renditions'],
  summary: 'Create renditions of records with presets of the .renditionPreset setting (a CreateRenditions maintenance job)',
  usage: `dam renditions RECORD… --preset NAME… [--wait] [--json] ${CONNECTION_USAGE}`,
  options: { ...connectionOptions, preset: { type: 'string', multiple: true }, wait: { type: 'boolean' }, json: { type: 'boolean' } },
  async run({ values, positionals }, io) {
    const records = positionals.flatMap((p) => p.split(',')).map((s) => s.trim()).filter(Boolean);
    const presets = ((values.preset as string[] | undefined) ?? []).flatMap((p) => p.split(',')).map((s) => s.trim()).filter(Boolean);
    if (!records.length) throw new UsageError(`give at least one record id\nusage: ${this.usage}`);
    if (!presets.length) throw new UsageError(`give at least one --preset (see the .renditionPreset setting)\nusage: ${this.usage}`);
    const client = connect(values, io);
    let job = await client.files.createRenditions(records, presets, { signal: io.signal });
    if (values.wait === true) {
      job = await client.files.waitForJob(job.id, {
        signal: io.signal,
        onStatus: (j) => {
          if (values.json !== true) io.stderr.write(`${describeJob(j)}\n`);
        },
      });
    }
    if (values.json === true) await writeLine(io.stdout, JSON.stringify(job, null, 2));
    else await writeLine(io.stdout, describeJob(job));
    if (values.wait === true && job.status !== 'Success') {
      for (const e of job.errors ?? []) io.stderr.write(`dam: ${typeof e === 'object' && e ? ((e as { message?: string }).message ?? JSON.stringify(e)) : String(e)}\n`);
      return 1;
    }
    return 0;
  },
};
