// `dam checks publish RESULT.json --file-version ID`: publishes one run of a check (the `.dam-check.json` format
// of src/api/checkFile.ts) as one check result with its findings. Exit 1 when the published outcome (or the
// rollup of its findings) is fail, so a CI step can gate on it.
import { readFile } from 'node:fs/promises';
import type { Command } from '../command';
import { UsageError } from '../command';
import { CONNECTION_USAGE, connect, connectionOptions } from '../connection';
import { writeLine } from '../output';
import { parseCheckFile } from '../../api/checkFile';
import { rollup } from '../../api/checks';

export const checksPublishCommand: Command = {
  name: ['checks', 'publish'],
  summary: 'Publish a .dam-check.json result (check, outcome, description, findings) to a file version; exit 1 on fail',
  usage: `dam checks publish RESULT.json --file-version ID [--json] ${CONNECTION_USAGE}`,
  options: { ...connectionOptions, 'file-version': { type: 'string' }, json: { type: 'boolean' } },
  async run({ values, positionals }, io) {
    if (positionals.length !== 1) throw new UsageError(`give one result file\nusage: ${this.usage}`);
    const versionId = values['file-version'];
    if (typeof versionId !== 'string' || !versionId.trim()) throw new UsageError(`--file-version ID is required\nusage: ${this.usage}`);
    const text = await readFile(positionals[0]!, 'utf8').catch((err: NodeJS.ErrnoException) => {
      throw new UsageError(`cannot read ${positionals[0]}: ${err.code ?? err.message}`);
    });
    let run;
    try {
      run = parseCheckFile(text);
    } catch (err) {
      throw new UsageError(`${positionals[0]}: ${(err as Error).message}`);
    }
    const client = connect(values, io);
    const published = await client.checks.publish(versionId.trim(), run, io.signal);
    const badge = rollup(published.result.outcome, published.findings);
    if (values.json === true) await writeLine(io.stdout, JSON.stringify({ ...published, badge }, null, 2));
    else
      await writeLine(
        io.stdout,
        `published result ${published.result.id} of check '${published.check.name}' to file version ${versionId}: ` +
          `${published.result.outcome ?? 'rollup'}${badge ? ` (${badge.color} ${badge.label})` : ''}, ${published.findings.length} finding(s)`,
      );
    return badge?.color === 'red' ? 1 : 0;
  },
};
