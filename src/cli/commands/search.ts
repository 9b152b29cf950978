// `dam search '<expr>'`: runs an advanced search and prints the hits, every page with --all.
import type { Command } from '../command';
import { UsageError } from '../command';
import { CONNECTION_USAGE, connect, connectionOptions } from '../connection';
import type { SearchQuery } from '../../api/search';
import type { Paged } from '../../api/schemas';
import { writeLine } from '../output';
import { DiagnosticCodes, diagnoseExpression, parseExpression, type Criterion, type Expr } from '../../core/search';

/** The `contains` criteria of an expression (`Title contains a`), for the hint when nothing matches. */
function containsCriteria(e: Expr | null): Criterion[] {
  if (!e) return [];
  if (e.kind === 'criterion') return e.operator?.op === 'contains' && e.property.kind === 'property' && e.value ? [e] : [];
  if (e.kind === 'not') return containsCriteria(e.operand);
  if (e.kind === 'and' || e.kind === 'or') return e.operands.flatMap(containsCriteria);
  return [];
}

function parseParams(values: unknown): Record<string, string> | undefined {
  if (!Array.isArray(values) || values.length === 0) return undefined;
  const out: Record<string, string> = {};
  for (const entry of values as string[]) {
    const eq = entry.indexOf('=');
    if (eq <= 0) throw new UsageError(`--param '${entry}' is not Name=value`);
    out[entry.slice(0, eq).trim()] = entry.slice(eq + 1);
  }
  return out;
}

function parsePageSize(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--page-size '${String(value)}' is not a positive integer`);
  return n;
}

function textLine(item: Record<string, unknown>, classifications: boolean): string {
  const cells = classifications ? [item.id, item.namePath ?? item.name] : [item.id, item.title, item.contentType, item.status];
  return cells.map((c) => (c === undefined || c === null ? '' : String(c))).join('\t');
}

export const searchCommand: Command = {
  name: ['search'],
  summary: 'Search records (or classifications) with a search expression; --all --json streams every hit as NDJSON',
  usage: `dam search '<expression>' [--classifications] [--all] [--json] [--sort EXPR] [--page-size N] [--param Name=value]… [--no-wildcards] [--operator AND|OR] ${CONNECTION_USAGE}`,
  options: {
    ...connectionOptions,
    classifications: { type: 'boolean' },
    all: { type: 'boolean' },
    json: { type: 'boolean' },
    sort: { type: 'string' },
    'page-size': { type: 'string' },
    param: { type: 'string', multiple: true },
    'no-wildcards': { type: 'boolean' },
    operator: { type: 'string' },
  },
  async run({ values, positionals }, io) {
    if (positionals.length !== 1) throw new UsageError(`give exactly one search expression (quote it)\nusage: ${this.usage}`);
    // An empty expression is a slip (an unset shell variable, a lost quote), not a wish to list everything.
    if (positionals[0].trim() === '') throw new UsageError(`give a search expression, e.g. dam search "Title contains 'harbour'" or dam search 'ContentType = Image'\nusage: ${this.usage}`);
    const operator = values.operator === undefined ? undefined : String(values.operator).toUpperCase();
    if (operator !== undefined && operator !== 'AND' && operator !== 'OR') throw new UsageError(`--operator '${String(values.operator)}' is not AND or OR`);
    const client = connect(values, io);
    const query: SearchQuery = {
      expression: positionals[0],
      namedParameters: parseParams(values.param),
      supportWildcards: values['no-wildcards'] === true ? false : undefined,
      defaultLogicalOperator: operator as 'AND' | 'OR' | undefined,
      sort: values.sort as string | undefined,
      pageSize: parsePageSize(values['page-size']),
      plain: true,
      signal: io.signal,
    };
    const classifications = values.classifications === true;
    const pages: AsyncIterable<Paged<Record<string, unknown>>> = classifications ? client.search.classificationPages(query) : client.search.recordPages(query);
    let shown = 0;
    let total: number | null | undefined;
    for await (const page of pages) {
      total ??= page.totalCount;
      for (const item of page.items) {
        // Each hit is written as soon as its page arrives, so `--all` streams and `| head` stops early.
        if (!(await writeLine(io.stdout, values.json === true ? JSON.stringify(item) : textLine(item, classifications)))) return 0;
        shown++;
      }
      if (values.all !== true) break;
    }
    // Said on stderr: stdout carries only hits, so a script reading it gets nothing rather than a sentence.
    if (shown === 0) {
      io.stderr.write(`No ${classifications ? 'classifications' : 'records'} match.\n`);
      // `contains` reads like "has the letters" but matches whole words: say so, with the prefix search to try.
      const contains = containsCriteria(parseExpression(query.expression ?? '').ast.body)[0];
      if (contains && contains.property.kind === 'property' && contains.value && contains.value.kind !== 'list') {
        const name = contains.property.name;
        const value = (query.expression ?? '').slice(contains.value.range.start, contains.value.range.end);
        io.stderr.write(`dam: hint: \`contains\` matches whole words: \`${name} contains ${value}\` finds a ${name} with the word ${value}; for words that start with it write \`${name} = ${value.replace(/\*?$/, '*')}\`\n`);
      }
    }
    else if (values.all !== true && typeof total === 'number' && total > shown) {
      io.stderr.write(`${shown} of ${total} hits shown; --all prints every page\n`);
    }
    // What the service takes without a word but cannot match (`Status = Relesed` finds nothing): said after the hits.
    const { diagnostics } = diagnoseExpression(query.expression ?? '', { target: classifications ? 'classifications' : 'records' });
    for (const d of diagnostics) if (d.severity === 'warning' && d.phase === 'semantic') io.stderr.write(`dam: warning: ${d.message} (${d.code})\n`);
    // Criteria side by side are joined by OR: said once, since `A B` in a shell line reads as both to most people.
    const joined = diagnostics.find((d) => d.code === DiagnosticCodes.ImplicitOperator);
    if (joined) io.stderr.write(`dam: note: ${joined.message} (${joined.code})\n`);
    return 0;
  },
};
