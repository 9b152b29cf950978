// `dam strings resolve ID…`: turns static and dynamic string resource ids into their text.
import type { Command } from '../command';
import { UsageError } from '../command';
import { CONNECTION_USAGE, connect, connectionOptions } from '../connection';
import { writeLine } from '../output';
import { StringsApi } from '../../api/strings';

export const stringsResolveCommand: Command = {
  name: ['strings', 'resolve'],
  summary: 'Resolve string resource ids (mo-replacement-strings-N, mo-encoded-titles-N) to text, one "id<TAB>value" per line',
  usage: `dam strings resolve ID… [--json] ${CONNECTION_USAGE}`,
  options: { ...connectionOptions, json: { type: 'boolean' } },
  async run({ values, positionals }, io) {
    const ids = positionals.flatMap((p) => p.split(',')).map((s) => s.trim()).filter(Boolean);
    if (ids.length === 0) throw new UsageError(`give at least one resource id\nusage: ${this.usage}`);
    const client = connect(values, io);
    const found = await new StringsApi(client.http).resolve(ids, { signal: io.signal });
    if (values.json === true) {
      await writeLine(io.stdout, JSON.stringify(ids.filter((id) => found.has(id)).map((id) => ({ id, value: found.get(id) })), null, 2));
    } else {
      for (const id of ids) if (found.has(id)) await writeLine(io.stdout, `${id}\t${found.get(id)}`);
    }
    const unknown = ids.filter((id) => !found.has(id));
    for (const id of unknown) io.stderr.write(`dam: unknown string resource '${id}'\n`);
    return unknown.length ? 1 : 0;
  },
};
