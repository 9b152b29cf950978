// Undoing a bulk update: the report keeps, per changed record, the change set that was applied (its `before` values
// are the record's values before the update) and the `modifiedOn` the update left. Undo is the inverse change set,
// applied only where the record still holds what the update left; a record changed since by anyone is skipped.
// The report's file is the same for the CLI (`dam records update --report`, `dam records undo`) and the extension.
import { z } from 'zod';
import type { ChangeSet } from './changes';

/** What undoing one record needs: the change applied and the version it left. */
export interface UndoRecord {
  recordId: string;
  title?: string;
  /** The record's `modifiedOn` right after the update wrote it: anything else later means it changed since. */
  modifiedOnAfter: string | null;
  changes: ChangeSet;
}

export const UPDATE_REPORT_FORMAT = 'dam-records-update-report';

/** The change set that puts back what `cs` changed: before and after swapped, added and removed classifications too. */
export function invertChangeSet(cs: ChangeSet): ChangeSet {
  return {
    recordId: cs.recordId,
    recordTitle: cs.title?.after ?? cs.recordTitle,
    ...(cs.title ? { title: { before: cs.title.after, after: cs.title.before } } : {}),
    ...(cs.status ? { status: { before: cs.status.after, after: cs.status.before } } : {}),
    fields: cs.fields.map((f) => ({ ...f, before: f.after, after: f.before })),
    addClassifications: [...cs.removeClassifications],
    removeClassifications: [...cs.addClassifications],
  };
}

const Change = z.object({ before: z.string(), after: z.string() });
const ChangeSetSchema = z.object({
  recordId: z.string().min(1),
  recordTitle: z.string().optional(),
  baseModifiedOn: z.string().nullish(),
  title: Change.optional(),
  status: Change.optional(),
  fields: z.array(z.object({ field: z.string(), fieldId: z.string(), dataType: z.string(), language: z.string().optional(), before: z.unknown(), after: z.unknown() })),
  addClassifications: z.array(z.string()),
  removeClassifications: z.array(z.string()),
});
const UndoRecordSchema = z.object({ recordId: z.string().min(1), title: z.string().optional(), modifiedOnAfter: z.string().nullable(), changes: ChangeSetSchema });

/** The parts of a saved report undo reads; the rest (counts, failures, the dry run) is for people. */
const UpdateReportFile = z.looseObject({
  format: z.literal(UPDATE_REPORT_FORMAT),
  version: z.literal(1),
  query: z.string().optional(),
  undo: z.array(UndoRecordSchema),
});

/** Reads a saved report for undo; a problem in words when it is not one (bad JSON, another file, no undo data). */
export function readUpdateReport(text: string): { undo?: UndoRecord[]; query?: string; problem?: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { problem: `not valid JSON (${(err as Error).message})` };
  }
  if (!json || typeof json !== 'object' || (json as { format?: unknown }).format !== UPDATE_REPORT_FORMAT) {
    return { problem: `not the report of a bulk update (it has no "format": "${UPDATE_REPORT_FORMAT}"; write one with dam records update --report FILE or the extension's Save Report…)` };
  }
  const parsed = UpdateReportFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { problem: `the report cannot be undone: ${issue.path.join('.') || 'the file'}: ${issue.message}` };
  }
  return { undo: parsed.data.undo as UndoRecord[], query: parsed.data.query };
}

/** A report file's text: what ran and, per changed record, what undo needs. */
export function updateReportText(parts: { query?: string; expression?: string; ids?: string[]; edits: unknown; dryRun?: string[]; report: unknown; undo: readonly UndoRecord[] }): string {
  return `${JSON.stringify({ format: UPDATE_REPORT_FORMAT, version: 1, ...parts }, null, 2)}\n`;
}
