// `dam records get|update|delete`: the record-editing core on the command line. `update` plans first (the dry run
// shows it) and applies through the same runner the extension's bulk command uses; exit 0 when every record
// succeeded, 1 when one failed (named with its reason), 2 for bad usage or a refused plan (nothing written).
import { readFile, writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline/promises';
import type { Command, CommandIO } from '../command';
import { UsageError } from '../command';
import { CONNECTION_USAGE, connect, connectionOptions } from '../connection';
import { writeLine } from '../output';
import { ApiError } from '../../api/errors';
import { runBulk, type BulkProgress, type BulkReport } from '../../api/bulkRunner';
import type { LoadedPlan } from '../../api/records';
import { describeChanges, describePlan, invertChangeSet, isEmptyValue, printDocument, readUpdateReport, updateReportText, type BulkEdits, type RecordDocument } from '../../core/records';

const DEFAULT_CONCURRENCY = 4;

const isTerminal = (stream: unknown) => (stream as { isTTY?: boolean } | undefined)?.isTTY === true;

function concurrencyOf(values: Record<string, unknown>): number {
  if (values.concurrency === undefined) return DEFAULT_CONCURRENCY;
  const n = Number(values.concurrency);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new UsageError('--concurrency takes a whole number from 1 to 64');
  return n;
}

/** One line per value, for people: `Description [en-US]: A quiet harbour`. */
function describeDocument(doc: RecordDocument): string[] {
  const show = (v: unknown) => (typeof v === 'string' ? v : Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(', ') : JSON.stringify(v));
  const lines = [`id:              ${doc.id}`, `title:           ${doc.title}`, `status:          ${doc.status}`, `content type:    ${doc.contentType}`];
  lines.push(`classifications: ${doc.classifications.length ? doc.classifications.join(', ') : '(none)'}`);
  const fieldLines = (fields: Record<string, unknown>) => {
    const out: string[] = [];
    let empty = 0;
    for (const [name, value] of Object.entries(fields)) {
      if (isEmptyValue(value)) {
        empty++;
        continue;
      }
      const byLanguage = typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).every((k) => /^[a-z]{2}(-[A-Za-z]{2,})?$|^neutral$/.test(k));
      if (byLanguage) for (const [lang, v] of Object.entries(value as Record<string, unknown>)) out.push(`  ${name} [${lang}]: ${show(v)}`);
      else out.push(`  ${name}: ${show(value)}`);
    }
    return { out, empty };
  };
  const editable = fieldLines(doc.fields);
  lines.push(`fields:${editable.out.length ? '' : ' (none set)'}`, ...editable.out);
  if (editable.empty) lines.push(`  (${editable.empty} empty field${editable.empty === 1 ? '' : 's'} not shown; --json shows every field)`);
  const ro = doc.readOnly;
  lines.push('read-only:');
  lines.push(`  created:  ${ro.createdOn ?? '?'}${ro.createdBy ? ` by ${ro.createdBy}` : ''}`, `  modified: ${ro.modifiedOn ?? '?'}${ro.modifiedBy ? ` by ${ro.modifiedBy}` : ''}`);
  if (ro.fields) lines.push(...fieldLines(ro.fields).out);
  for (const f of ro.files ?? []) lines.push(`  file: ${f.fileName ?? f.id}${f.versionLabel ? ` (${f.versionLabel})` : ''}${f.isMaster ? ', master' : ''}`);
  return lines;
}

export const recordsGetCommand: Command = {
  name: ['records', 'get'],
  summary: 'Show a record: fields by name, classifications by path, status, files',
  usage: `dam records get ID [--json] ${CONNECTION_USAGE}`,
  options: { ...connectionOptions, json: { type: 'boolean' } },
  async run({ values, positionals }, io) {
    if (positionals.length !== 1) throw new UsageError(`give exactly one record id\nusage: ${this.usage}`);
    const client = connect(values, io);
    const opened = await client.recordEdits.open(positionals[0], io.signal);
    if (values.json === true) await writeLine(io.stdout, printDocument(opened.document).trimEnd());
    else for (const l of describeDocument(opened.document)) await writeLine(io.stdout, l);
    return 0;
  },
};

/** `--set NAME=VALUE` options, repeated names collected (list items). */
function parseSets(raw: unknown): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const item of (raw as string[] | undefined) ?? []) {
    const at = item.indexOf('=');
    if (at <= 0) throw new UsageError(`--set takes NAME=VALUE; got '${item}'`);
    const name = item.slice(0, at).trim();
    const value = item.slice(at + 1);
    const had = out[name];
    out[name] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
  }
  return out;
}

/** Progress on stderr: one redrawn line on a terminal, nothing otherwise (scripts read the report). */
function progressLine(io: CommandIO): { update(p: BulkProgress): void; done(): void } {
  const tty = isTerminal(io.stderr);
  let last = 0;
  let drawn = false;
  return {
    update(p) {
      if (!tty) return;
      const now = performance.now();
      if (now - last < 100 && p.done < p.total) return;
      last = now;
      io.stderr.write(`\r${p.done}/${p.total} records, ${p.changed} changed${p.failed ? `, ${p.failed} failed` : ''}\x1b[K`);
      drawn = true;
    },
    done() {
      if (drawn) io.stderr.write('\n');
    },
  };
}

function planJson(plan: LoadedPlan) {
  return {
    records: plan.items.length + plan.unchanged.length + plan.refused.length + plan.missing.length,
    changing: plan.items.length,
    unchanged: plan.unchanged.length,
    counts: plan.counts,
    items: plan.items.map((i) => ({ recordId: i.recordId, title: i.title, changes: describeChanges(i.changes) })),
    refused: plan.refused,
    missing: plan.missing,
  };
}

async function printReport(io: CommandIO, report: BulkReport, json: boolean, verb = 'changed'): Promise<void> {
  if (json) {
    await writeLine(io.stdout, JSON.stringify(report, null, 2));
  } else {
    const parts = [`${report.changed.length} ${verb}`];
    if (verb !== 'deleted') parts.push(`${report.unchanged.length} unchanged`);
    parts.push(`${report.failed.length} failed`);
    if (report.notRun.length) parts.push(`${report.notRun.length} not run (cancelled)`);
    await writeLine(io.stdout, `${report.total} record${report.total === 1 ? '' : 's'}: ${parts.join(', ')} in ${(report.durationMs / 1000).toFixed(1)} s`);
  }
  for (const f of report.failed) io.stderr.write(`failed ${f.recordId}${f.title ? ` (${f.title})` : ''}: ${f.reason}\n`);
}

export const recordsUpdateCommand: Command = {
  name: ['records', 'update'],
  summary: 'Change fields, status or classifications of records (by id or every hit of --query); --dry-run shows the plan',
  usage:
    'dam records update (ID… | --query EXPR) [--set NAME=VALUE]… [--clear NAME]… [--status S] [--add-classification ID|PATH]… ' +
    `[--remove-classification ID|PATH]… [--language ID] [--dry-run] [--json] [--report FILE] [--concurrency N] ${CONNECTION_USAGE}\n` +
    '  --set NAME=a,b gives a list field (Keywords, an option list…) the items a and b (\\, is a comma inside an item;\n' +
    '    repeating --set NAME=… adds items too); a single-value field takes the text as it is\n' +
    '  --report FILE writes the run as JSON with each record\'s values before the change: `dam records undo FILE` puts them back',
  options: {
    ...connectionOptions,
    query: { type: 'string' },
    set: { type: 'string', multiple: true },
    clear: { type: 'string', multiple: true },
    status: { type: 'string' },
    'add-classification': { type: 'string', multiple: true },
    'remove-classification': { type: 'string', multiple: true },
    language: { type: 'string' },
    'dry-run': { type: 'boolean' },
    json: { type: 'boolean' },
    report: { type: 'string' },
    concurrency: { type: 'string' },
  },
  async run({ values, positionals }, io) {
    if (values.report !== undefined && !String(values.report).trim()) throw new UsageError('--report needs a file name');
    const query = typeof values.query === 'string' ? values.query : undefined;
    if (query !== undefined && positionals.length) throw new UsageError(`give record ids or --query, not both\nusage: ${this.usage}`);
    if (query === undefined && !positionals.length) throw new UsageError(`give record ids or --query EXPR\nusage: ${this.usage}`);
    if (query !== undefined && !query.trim()) throw new UsageError('--query needs a search expression');
    const edits: BulkEdits = {
      set: parseSets(values.set),
      clear: (values.clear as string[] | undefined) ?? [],
      status: values.status as string | undefined,
      addClassifications: (values['add-classification'] as string[] | undefined) ?? [],
      removeClassifications: (values['remove-classification'] as string[] | undefined) ?? [],
      language: values.language as string | undefined,
    };
    const nothing = !Object.keys(edits.set!).length && !edits.clear!.length && edits.status === undefined && !edits.addClassifications!.length && !edits.removeClassifications!.length;
    if (nothing) throw new UsageError(`say what to change (--set, --clear, --status, --add-classification, --remove-classification)\nusage: ${this.usage}`);
    const concurrency = concurrencyOf(values);
    const json = values.json === true;
    const client = connect(values, io);
    const plan = await client.recordEdits.plan(query !== undefined ? { expression: query } : { ids: positionals }, edits, { signal: io.signal, concurrency });

    if (plan.problems.length) {
      if (json) await writeLine(io.stdout, JSON.stringify({ refused: true, problems: plan.problems }, null, 2));
      for (const p of plan.problems) io.stderr.write(`dam: ${p}\n`);
      io.stderr.write('dam: the plan is refused; nothing was written\n');
      return 2;
    }
    if (values['dry-run'] === true) {
      if (json) await writeLine(io.stdout, JSON.stringify({ dryRun: true, ...planJson(plan) }, null, 2));
      else {
        const lines = describePlan(plan);
        if (plan.missing.length) lines[0] = lines[0].replace(/^(\d+)/, (n) => String(Number(n) + plan.missing.length)) + ` ${plan.missing.length} not found.`;
        for (const l of lines) await writeLine(io.stdout, l);
        for (const item of plan.items.slice(0, 20)) await writeLine(io.stdout, `  ${item.recordId} ${item.title}: ${describeChanges(item.changes).join('; ')}`);
        if (plan.items.length > 20) await writeLine(io.stdout, `  … and ${plan.items.length - 20} more`);
        await writeLine(io.stdout, 'Dry run: nothing was written.');
      }
      for (const m of plan.missing) io.stderr.write(`failed ${m.recordId}: ${m.reason}\n`);
      return plan.missing.length || plan.refused.length ? 1 : 0;
    }
    const progress = progressLine(io);
    const { undo, ...report } = await client.recordEdits.run(plan, { concurrency, signal: io.signal, onProgress: (p) => progress.update(p) });
    progress.done();
    if (typeof values.report === 'string') {
      const target = query !== undefined ? { expression: query } : { ids: positionals };
      await writeFile(values.report, updateReportText({ ...target, edits, dryRun: describePlan(plan), report, undo }));
      io.stderr.write(`Report written to ${values.report}; \`dam records undo ${values.report}\` puts back the ${undo.length} changed record${undo.length === 1 ? '' : 's'}.\n`);
    }
    await printReport(io, report, json);
    return report.failed.length || report.notRun.length ? 1 : 0;
  },
};

export const recordsUndoCommand: Command = {
  name: ['records', 'undo'],
  summary: 'Put back the values a bulk update changed (from its --report FILE), skipping records changed since by anyone',
  usage: `dam records undo FILE [--dry-run] [--json] [--concurrency N] ${CONNECTION_USAGE}\n  exit 0: every record restored; 1: some skipped (changed since) or failed; 2: bad input`,
  options: { ...connectionOptions, 'dry-run': { type: 'boolean' }, json: { type: 'boolean' }, concurrency: { type: 'string' } },
  async run({ values, positionals }, io) {
    if (positionals.length !== 1) throw new UsageError(`give the report file of one update (dam records update … --report FILE)\nusage: ${this.usage}`);
    const [file] = positionals;
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      throw new UsageError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
    }
    const { undo, problem } = readUpdateReport(text);
    if (!undo) throw new UsageError(`${file} is ${problem}`);
    const concurrency = concurrencyOf(values);
    const json = values.json === true;
    const client = connect(values, io);
    const plan = await client.recordEdits.planUndo(undo, { signal: io.signal, concurrency });
    if (values['dry-run'] === true) {
      if (json) await writeLine(io.stdout, JSON.stringify({ dryRun: true, restore: plan.restore.map((r) => ({ recordId: r.recordId, title: r.title, changes: describeChanges(invertChangeSet(r.changes)) })), skipped: plan.skipped }, null, 2));
      else {
        await writeLine(io.stdout, `${undo.length} record${undo.length === 1 ? '' : 's'} in the report: ${plan.restore.length} would be restored, ${plan.skipped.length} skipped.`);
        for (const r of plan.restore) await writeLine(io.stdout, `  ${r.recordId} ${r.title ?? ''}: ${describeChanges(invertChangeSet(r.changes)).join('; ')}`);
        for (const s of plan.skipped) await writeLine(io.stdout, `  skipped ${s.recordId} ${s.title ?? ''}: ${s.reason}`);
        await writeLine(io.stdout, 'Dry run: nothing was written.');
      }
      return plan.skipped.length ? 1 : 0;
    }
    const progress = progressLine(io);
    const { skipped, ...report } = await client.recordEdits.runUndo(plan, { concurrency, signal: io.signal, onProgress: (p) => progress.update(p) });
    progress.done();
    if (json) await writeLine(io.stdout, JSON.stringify({ ...report, skipped }, null, 2));
    else {
      const parts = [`${report.changed.length} restored`, `${skipped.length} skipped`, `${report.failed.length} failed`];
      if (report.notRun.length) parts.push(`${report.notRun.length} not run (cancelled)`);
      await writeLine(io.stdout, `${undo.length} record${undo.length === 1 ? '' : 's'}: ${parts.join(', ')} in ${(report.durationMs / 1000).toFixed(1)} s`);
    }
    for (const s of skipped) io.stderr.write(`skipped ${s.recordId}${s.title ? ` (${s.title})` : ''}: ${s.reason}\n`);
    for (const f of report.failed) io.stderr.write(`failed ${f.recordId}${f.title ? ` (${f.title})` : ''}: ${f.reason}\n`);
    return skipped.length || report.failed.length || report.notRun.length ? 1 : 0;
  },
};

/** Asks on the terminal; anything but y/yes is no. */
async function confirm(io: CommandIO, question: string): Promise<boolean> {
  const rl = createInterface({ input: io.stdin!, output: io.stderr });
  try {
    const answer = await rl.question(question, { signal: io.signal });
    return /^y(es)?$/i.test(answer.trim());
  } catch {
    return false;
  } finally {
    rl.close();
  }
}

export const recordsDeleteCommand: Command = {
  name: ['records', 'delete'],
  summary: 'Delete records (asks first on a terminal; --yes for scripts)',
  usage: `dam records delete ID… [--yes] [--json] ${CONNECTION_USAGE}`,
  options: { ...connectionOptions, yes: { type: 'boolean' }, json: { type: 'boolean' }, concurrency: { type: 'string' } },
  async run({ values, positionals }, io) {
    if (!positionals.length) throw new UsageError(`give the ids of the records to delete\nusage: ${this.usage}`);
    const ids = [...new Set(positionals)];
    const interactive = isTerminal(io.stdin) && isTerminal(io.stderr);
    if (values.yes !== true && !interactive) throw new UsageError('deleting records needs --yes when there is no terminal to ask on');
    const concurrency = concurrencyOf(values);
    const client = connect(values, io);
    // The records are named before anything is deleted: a confirmation says what it deletes, and a missing id fails.
    const found: { recordId: string; title: string }[] = [];
    const missing: { recordId: string; reason: string; status?: number }[] = [];
    for (const id of ids) {
      try {
        const r = await client.records.get(id, { signal: io.signal });
        found.push({ recordId: r.id, title: r.title ?? '' });
      } catch (err) {
        if (!(err instanceof ApiError) || err.status >= 500 || err.status === 401) throw err;
        missing.push({ recordId: id, reason: err.status === 404 ? 'the record does not exist' : (err.exceptionMessage ?? err.message), status: err.status });
      }
    }
    if (values.yes !== true && found.length) {
      const names = found.slice(0, 10).map((r) => `  ${r.recordId} ${r.title}`);
      if (found.length > 10) names.push(`  … and ${found.length - 10} more`);
      io.stderr.write(`${names.join('\n')}\n`);
      if (!(await confirm(io, `Delete ${found.length} record${found.length === 1 ? '' : 's'}? [y/N] `))) {
        io.stderr.write('Nothing was deleted.\n');
        return 2;
      }
    }
    const progress = progressLine(io);
    const report = await runBulk(found, (job, signal) => client.recordEdits.delete(job.recordId, { signal }), { concurrency, pacer: client.http.pacer, signal: io.signal, onProgress: (p) => progress.update(p) });
    progress.done();
    report.failed.push(...missing);
    report.total += missing.length;
    await printReport(io, report, values.json === true, 'deleted');
    return report.failed.length || report.notRun.length ? 1 : 0;
  },
};

export const recordsCommands: Command[] = [recordsGetCommand, recordsUpdateCommand, recordsUndoCommand, recordsDeleteCommand];
