// `dam emulator requests`: the emulator's request journal in a terminal, one line per request (oldest first, as a
// log reads) with its findings indented under it; `--follow` keeps printing new requests as they arrive.
import { InspectorClient } from '../../api/inspector';
import { formatEntryLine, formatFindingLine, isStatusFilter, type EntrySummary, type JournalFilter } from '../../core/inspector';
import type { Command } from '../command';
import { UsageError } from '../command';
import { CLI_USER_AGENT, DEFAULT_EMULATOR_URL, emulatorOrigin } from '../connection';
import { writeLine } from '../output';

const COLORS = { red: '\x1b[31m', green: '\x1b[32m', yellow: '\x1b[33m', dim: '\x1b[2m', reset: '\x1b[0m' };

function paint(text: string, color: keyof typeof COLORS, on: boolean): string {
  return on ? `${COLORS[color]}${text}${COLORS.reset}` : text;
}

function statusColor(status: number): keyof typeof COLORS {
  return status >= 400 || status === 0 ? 'red' : status >= 300 ? 'yellow' : 'green';
}

/** The entry's line and its findings, coloured on a terminal. */
export function entryLines(entry: EntrySummary, color: boolean): string[] {
  const line = formatEntryLine(entry);
  const status = entry.status === 0 ? '---' : String(entry.status);
  const at = line.indexOf(`  ${status} `);
  const head = at < 0 ? line : `${line.slice(0, at + 2)}${paint(status, statusColor(entry.status), color)}${line.slice(at + 2 + status.length)}`;
  return [head, ...entry.findings.map((f) => `    ${paint(formatFindingLine(f), f.severity === 'refuse' ? 'red' : 'yellow', color)}`)];
}

export const emulatorRequestsCommand: Command = {
  name: ['emulator', 'requests'],
  summary: "Print the emulator's request journal with each request's findings; --follow streams new requests.",
  usage:
    'dam emulator requests [--follow] [--status 4xx|404|2xx,5xx] [--route TEXT] [--client TEXT] [--method M] [--findings] [--limit N] [--json] [--url ORIGIN]\n' +
    `  --url (or DAM_URL) names the emulator; default the emulator VS Code started, else ${DEFAULT_EMULATOR_URL}. Oldest first; --json prints one JSON entry per line.`,
  options: {
    url: { type: 'string' },
    follow: { type: 'boolean', short: 'f' },
    status: { type: 'string' },
    route: { type: 'string' },
    client: { type: 'string' },
    method: { type: 'string' },
    findings: { type: 'boolean' },
    limit: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run({ values, positionals }, io) {
    if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'\nusage: ${this.usage}`);
    const origin = emulatorOrigin(values.url, io.env);
    try {
      const u = new URL(origin);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http');
    } catch {
      throw new UsageError(`--url '${origin}' is not an http(s) URL`);
    }
    const status = values.status as string | undefined;
    if (status !== undefined && !isStatusFilter(status)) throw new UsageError(`--status '${status}' is not a status filter such as 4xx, 404 or 2xx,5xx`);
    let limit = values.follow === true ? 20 : 100;
    if (values.limit !== undefined) {
      limit = Number(values.limit);
      if (!Number.isInteger(limit) || limit < 1) throw new UsageError(`--limit must be a positive integer, got '${String(values.limit)}'`);
    }
    const filter: JournalFilter = {
      status,
      route: values.route as string | undefined,
      client: values.client as string | undefined,
      method: values.method as string | undefined,
      withFindings: values.findings === true,
    };
    const json = values.json === true;
    const color = !json && (io.stdout as NodeJS.WriteStream).isTTY === true && io.env.NO_COLOR === undefined;
    const client = new InspectorClient(origin.replace(/\/+$/, ''), { userAgent: CLI_USER_AGENT });
    const print = async (entry: EntrySummary) => {
      if (json) return writeLine(io.stdout, JSON.stringify(entry));
      for (const line of entryLines(entry, color)) if (!(await writeLine(io.stdout, line))) return false;
      return true;
    };

    const page = await client.list(filter, Math.min(limit, 10_000), io.signal);
    for (const entry of [...page.items].reverse()) if (!(await print(entry))) return 0;
    if (values.follow !== true) {
      if (!json && page.items.length === 0) io.stderr.write(`no requests in the journal at ${client.origin}${Object.values(filter).some(Boolean) ? ' match the filter' : ''}\n`);
      return 0;
    }
    // Printing is serialised so lines never interleave; a reader that is gone (| head) stops the follow.
    const stop = new AbortController();
    io.signal.addEventListener('abort', () => stop.abort(), { once: true });
    let queue = Promise.resolve();
    await client.follow(
      filter,
      {
        onEntry: (entry) => {
          queue = queue.then(async () => {
            if (!(await print(entry))) stop.abort();
          });
        },
        onDropped: (count) => io.stderr.write(`(${count} request(s) not shown: the terminal could not keep up)\n`),
        onError: (error, retryMs) => io.stderr.write(`${error.message}; retrying in ${Math.round(retryMs / 100) / 10} s\n`),
        onOpen: (reconnect) => {
          if (reconnect) io.stderr.write(`reconnected to ${client.origin}\n`);
        },
      },
      stop.signal,
      page.lastId,
    );
    await queue;
    return 0;
  },
};
