// Facade of the record-editing core: the only module other layers import from src/core/records. Pure TypeScript,
// no I/O, no `vscode`. The editor, the tree, the bulk command and the CLI all build change sets here; only the
// runner in src/api/records.ts writes (STYLE.md principle 14).
//
// The document (what a person edits)
//   recordToDocument(record: RecordSource, definitions, classifications?, languages?) → RecordDocument
//     `{ id, title, status, contentType, classifications: [name paths], fields: { FieldName: value }, readOnly }`.
//     Values: text/Html as strings; Numeric/Duration numbers; Date `YYYY-MM-DD`, DateTime ISO 8601, Time `HH:MM:SS`;
//     OptionList option names; ClassificationList name paths; LanguageList cultures; TextList strings; RecordList and
//     RecordLink record ids; UserList/UserGroupList ids; HyperlinkList URLs or { url, displayText }; Json any value.
//     Empty: `null` (scalars) or `[]` (lists). A localized field is `{ "en-US": value, "neutral": value }`.
//     Read-only fields (definition `isReadOnly`, and the types in READ_ONLY_TYPES) sit under `readOnly.fields` with
//     the dates, creators and files.
//   printDocument(doc) → string            JSON, 2-space indent, stable key order, trailing newline.
//   parseDocument(text) → { doc?, problems } Syntax/shape problems carry offset, length, line, column (1-based).
//   validateDocument(doc, definitions, { languages?, classifications?, before? }) → Problem[]
//     Types, required, read-only, option values (name, label or id), languages, record ids, numbers, dates; with
//     `before`, changes to id, contentType or readOnly. A doc from parseDocument gets positions on each problem.
//   documentJsonSchema(definitions, languages?) → JSON schema (draft-07) for completion.
//
// The change set (what one save or one record of a bulk run changes)
//   diffDocuments(before, after, definitions) → ChangeSet   only what changed; fields missing from `after` untouched.
//   describeChanges(cs, label?) → string[] (label: fieldLabels(definitions), fields as the extension shows them), summarizeChangeSet(cs) → string, isEmptyChangeSet(cs).
//   changeSetToBody(cs, definitions, resolverOf(languages, classifications)) → { body, problems }
//     the one PUT /record/{id} body (fields by id with localizedValues / values / children; classifications
//     addOrUpdate/remove; status; title). Problems = names that could not be resolved: do not send then.
//
// The bulk plan
//   planBulkUpdate(records: RecordDocument[], edits: BulkEdits, definitions, { languages?, classifications? }) → BulkPlan
//     edits: { set: { Name: value | text }, clear: [names], status, addClassifications, removeClassifications, language }
//     plan: { problems (whole plan refused), items (recordId, title, changes), unchanged, refused, counts }.
//   describePlan(plan, label?) → string[] (label as for describeChanges; the CLI keeps names); fieldsEdited(edits) → names to select when reading; coerceInput(def, text).
export * from './model';
export * from './problems';
export { parseDocument, type ParsedDocument } from './parse';
export { validateDocument, checkFieldValue, classificationProblems, isEmptyValue, isGuid, namedClassifications, type ValidationContext } from './validate';
export {
  canonicalValue,
  changeSetToBody,
  describeChanges,
  diffDocuments,
  diffField,
  emptyChangeSet,
  isEmptyChangeSet,
  resolverOf,
  summarizeChangeSet,
  type ChangeSet,
  type FieldChange,
  type UpdateBody,
  type WireResolver,
} from './changes';
export { coerceInput, splitListText, describePlan, fieldsEdited, planBulkUpdate, type BulkContext, type BulkEdits, type BulkPlan, type PlannedRecord, type RefusedRecord } from './bulk';
export { documentJsonSchema } from './schema';
export { classificationSlotAt, parentPathOf, type ClassificationSlot } from './completion';
export { UPDATE_REPORT_FORMAT, invertChangeSet, readUpdateReport, updateReportText, type UndoRecord } from './undo';
