// `dam lint FILE…`: checks `.dam-query`, `.dam-analytics.json` and `.dam-check.json` files and prints one line per diagnostic.
import { readFile } from 'node:fs/promises';
import type { Command } from '../command';
import { UsageError } from '../command';
import { writeLine } from '../output';
import { LineIndex, QuerySchemaSchema, lintDocument, type Diagnostic, type QuerySchema } from '../../core/search';
import { lintAnalyticsText } from '../../core/analytics';
import { lintCheckText } from '../../api/checkFile';

/** One diagnostic as `--format json` prints it: 1-based lines and columns, like the text form. */
export interface LintRecord {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: Diagnostic['severity'];
  code: string;
  phase: Diagnostic['phase'];
  source: Diagnostic['source'];
  message: string;
}

/**
 * Lints one file's text by its name: analytics JSON for `.dam-analytics.json`, a check result for
 * `.dam-check.json`, search expressions otherwise.
 */
export function lintText(file: string, text: string, schema?: QuerySchema): LintRecord[] {
  const diagnostics = file.endsWith('.dam-analytics.json')
    ? lintAnalyticsText(text)
    : file.endsWith('.dam-check.json')
      ? lintCheckText(text)
      : lintDocument(text, { schema });
  const lines = new LineIndex(text);
  return diagnostics.map((d) => {
    const s = lines.positionAt(d.range.start);
    const e = lines.positionAt(d.range.end);
    return {
      file,
      line: s.line + 1,
      column: s.character + 1,
      endLine: e.line + 1,
      endColumn: e.character + 1,
      severity: d.severity,
      code: d.code,
      phase: d.phase,
      source: d.source,
      message: d.message,
    };
  });
}

async function loadSchema(path: string): Promise<QuerySchema> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, 'utf8'));
  } catch (err) {
    throw new UsageError(`--schema ${path}: ${(err as Error).message}`);
  }
  const parsed = QuerySchemaSchema.safeParse(raw);
  if (!parsed.success) throw new UsageError(`--schema ${path}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

export const lintCommand: Command = {
  name: ['lint'],
  summary: 'check .dam-query, .dam-analytics.json and .dam-check.json files; one line per problem, exit 1 on any error',
  usage: 'dam lint FILE… [--format text|json] [--schema SCHEMA.json]',
  options: {
    format: { type: 'string', default: 'text' },
    schema: { type: 'string' },
  },
  async run({ values, positionals }, io) {
    if (positionals.length === 0) throw new UsageError(`give at least one file\nusage: ${this.usage}`);
    const format = values.format;
    if (format !== 'text' && format !== 'json') throw new UsageError(`--format is text or json\nusage: ${this.usage}`);
    const schema = typeof values.schema === 'string' ? await loadSchema(values.schema) : undefined;
    const records: LintRecord[] = [];
    let unreadable = false;
    for (const file of positionals) {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (err) {
        io.stderr.write(`dam lint: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}\n`);
        unreadable = true;
        continue;
      }
      records.push(...lintText(file, text, schema));
    }
    if (format === 'json') await writeLine(io.stdout, JSON.stringify(records, null, 2));
    else {
      for (const r of records) {
        if (!(await writeLine(io.stdout, `${r.file}:${r.line}:${r.column}: ${r.severity} ${r.code} ${r.message}`))) break;
      }
    }
    return unreadable || records.some((r) => r.severity === 'error') ? 1 : 0;
  },
};
