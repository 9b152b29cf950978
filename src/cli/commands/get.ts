// `dam get <path>`: GET one core path (or a link href) and print the JSON answer.
import type { Command } from '../command';
import { UsageError } from '../command';
import { CONNECTION_USAGE, connect, connectionOptions } from '../connection';
import { parseSelectSpec, type Selection } from '../../api/select';
import { writeLine } from '../output';

export const getCommand: Command = {
  name: ['get'],
  summary: 'GET a path of the content API (e.g. record/<id>, classifications?pageSize=5) and print its JSON',
  usage: `dam get <path|url> [--select 'record=fields,files;field=definition'] [--record-fields A,B] [--languages ID|*] [--plain] [--compact] ${CONNECTION_USAGE}`,
  options: {
    ...connectionOptions,
    select: { type: 'string' },
    'record-fields': { type: 'string' },
    languages: { type: 'string' },
    plain: { type: 'boolean' },
    compact: { type: 'boolean' },
  },
  async run({ values, positionals }, io) {
    if (positionals.length !== 1) throw new UsageError(`give exactly one path\nusage: ${this.usage}`);
    let selection: Selection = {};
    try {
      if (typeof values.select === 'string') selection = parseSelectSpec(values.select);
    } catch (err) {
      throw new UsageError(`--select: ${(err as Error).message}`);
    }
    if (typeof values['record-fields'] === 'string') selection.recordFields = values['record-fields'].split(',').map((s) => s.trim()).filter(Boolean);
    if (typeof values.languages === 'string') selection.languages = values.languages.split(',').map((s) => s.trim());
    const client = connect(values, io);
    const data = await client.get(positionals[0], { select: selection, plain: values.plain === true, signal: io.signal });
    await writeLine(io.stdout, values.compact === true ? JSON.stringify(data) : JSON.stringify(data, null, 2));
    return 0;
  },
};
