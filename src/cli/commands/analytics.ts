// `dam analytics run QUERY.dam-analytics.json`: checks the query as `dam lint` does, runs it, and streams rows as TSV, CSV or NDJSON.
import { readFile } from 'node:fs/promises';
import type { Command } from '../command';
import { UsageError } from '../command';
import { CONNECTION_USAGE, connect, connectionOptions } from '../connection';
import { writeLine } from '../output';
import { AnalyticsApi, UnorderedPagingError } from '../../api/analytics';
import { lintAnalyticsText, MAX_LIMIT, type AnalyticsQuery, type AnalyticsRow } from '../../core/analytics';

/** RFC 4180: quote a cell holding a comma, quote or line break; double its quotes. */
export function csvCell(value: string | null): string {
  if (value === null) return '';
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

function lineCol(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `${before.length}:${before[before.length - 1].length + 1}`;
}

export const analyticsRunCommand: Command = {
  name: ['analytics', 'run'],
  summary: 'Run an analytics query file (.dam-analytics.json); --all pages through every row (needs order); --csv or --json',
  usage: `dam analytics run QUERY.dam-analytics.json [--all] [--page-size N] [--csv | --json] ${CONNECTION_USAGE}`,
  options: {
    ...connectionOptions,
    all: { type: 'boolean' },
    csv: { type: 'boolean' },
    json: { type: 'boolean' },
    'page-size': { type: 'string' },
  },
  async run({ values, positionals }, io) {
    if (positionals.length !== 1) throw new UsageError(`give exactly one query file\nusage: ${this.usage}`);
    if (values.csv === true && values.json === true) throw new UsageError('--csv and --json exclude each other');
    let pageSize: number | undefined;
    if (values['page-size'] !== undefined) {
      pageSize = Number(values['page-size']);
      if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_LIMIT) throw new UsageError(`--page-size must be a whole number from 1 to ${MAX_LIMIT}`);
    }
    const file = positionals[0];
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      throw new UsageError(`cannot read ${file}: ${(err as Error).message}`);
    }
    // The same checks as `dam lint`: a broken query is reported where it is broken, before any request.
    const diagnostics = lintAnalyticsText(text);
    for (const d of diagnostics) io.stderr.write(`${file}:${lineCol(text, d.range.start)}: ${d.severity} ${d.code} ${d.message}\n`);
    if (diagnostics.some((d) => d.severity === 'error')) return 1;
    const query = JSON.parse(text) as AnalyticsQuery;

    const api = new AnalyticsApi(connect(values, io).http);
    const format = values.csv === true ? 'csv' : values.json === true ? 'json' : 'tsv';
    let columns: string[] | undefined;
    const emit = async (row: AnalyticsRow): Promise<boolean> => {
      if (format === 'json') return writeLine(io.stdout, JSON.stringify(row));
      if (!columns) {
        columns = Object.keys(row);
        const header = format === 'csv' ? columns.map(csvCell).join(',') : columns.join('\t');
        if (!(await writeLine(io.stdout, header))) return false;
      }
      const cells = columns.map((c) => row[c] ?? null);
      return writeLine(io.stdout, format === 'csv' ? cells.map(csvCell).join(',') : cells.map((c) => (c ?? '').replace(/[\t\n]/g, ' ')).join('\t'));
    };

    if (values.all !== true) {
      const rows = await api.run(pageSize ? { ...query, limit: pageSize } : query, { signal: io.signal });
      for (const row of rows) if (!(await emit(row))) return 0;
      return 0;
    }
    try {
      // Each page is written as it arrives, so a long answer streams and `| head` stops the paging.
      for await (const page of api.pages(query, { pageSize, signal: io.signal })) {
        for (const row of page) if (!(await emit(row))) return 0;
      }
    } catch (err) {
      if (err instanceof UnorderedPagingError) {
        io.stderr.write(`dam: --all needs "order" in ${file}: without it pages may overlap or skip rows\n`);
        return 1;
      }
      throw err;
    }
    return 0;
  },
};
