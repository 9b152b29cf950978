// The `.dam-check.json` format: one run of a check as a file a CI job writes and `dam checks publish` (or the
// extension) publishes. Defined once here; `schemas/dam-check.schema.json` is generated from it (a unit test
// keeps the two equal).
import { findNodeAtLocation, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { z } from 'zod';
import type { Diagnostic } from '../core/search';
import { OutcomeSchema, validateRun, type CheckRun } from './checks';

/** The spec's four check categories: a fixed set, not extendable. */
export const CHECK_CATEGORY_NAMES = ['Risk & Compliance', 'Brand Consistency', 'Message Clarity', 'Channel Readiness'] as const;
const CATEGORY_ID = /^(?:[0-9a-fA-F]{32}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;
const CATEGORY_MESSAGE = `The category is one of the four: ${CHECK_CATEGORY_NAMES.join(', ')} (or a category id)`;

/**
 * A category by one of the four names, or by id. The JSON Schema spells out the names (an editor completes them
 * and, through `errorMessage`, names them when a value is none of them); `.refine` gives lint the same message.
 */
const CategorySchema = z
  .string()
  .refine((v) => (CHECK_CATEGORY_NAMES as readonly string[]).includes(v) || CATEGORY_ID.test(v), { message: CATEGORY_MESSAGE })
  .meta({
    anyOf: [
      { enum: [...CHECK_CATEGORY_NAMES], errorMessage: CATEGORY_MESSAGE },
      { pattern: CATEGORY_ID.source, patternErrorMessage: CATEGORY_MESSAGE },
    ],
  });

export const CheckFileSchema = z
  .object({
    $schema: z.string().optional(),
    check: z.string().trim().min(1).max(200).describe('Name of the check (unique in the environment); created when missing.'),
    category: CategorySchema.optional()
      .describe('Check category, needed when the check does not exist yet: Risk & Compliance, Brand Consistency, Message Clarity or Channel Readiness (name or id).'),
    outcome: OutcomeSchema.nullable().optional().describe('pass, fail, warning or info. Required without findings; omit (or null) to let the findings give the rollup.'),
    description: z.string().min(1).describe('The summary shown to users (Markdown, links open in a new tab). Mandatory.'),
    findings: z
      .array(
        z.object({
          occurrence: z.number().int().min(0).optional().describe('Identifies the finding; defaults to its position (1, 2, …).'),
          finding: z.string().min(1).describe('Text present in the document, so users can locate it. No Markdown.'),
          explanation: z.string().optional().describe('Why it was flagged (Markdown).'),
          recommendation: z.string().optional().describe('The next step (Markdown).'),
          outcome: OutcomeSchema,
        }),
      )
      .optional()
      .describe('Only items that can be pinpointed in the document; general information belongs in the description.'),
  })
  .strict();

export type CheckFile = z.infer<typeof CheckFileSchema>;

/** Parses and checks a `.dam-check.json` text; throws an Error whose message names the field at fault. */
export function parseCheckFile(text: string): CheckRun {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`not JSON: ${(err as Error).message}`, { cause: err });
  }
  const parsed = CheckFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${issue?.path.join('.') || '(file)'}: ${issue?.message ?? 'invalid'}`);
  }
  const { $schema: _schema, ...run } = parsed.data;
  validateRun(run);
  return run;
}

/** The JSON Schema contributed for `*.dam-check.json` (editing gets completion and validation). */
export function checkFileJsonSchema(): unknown {
  return { ...z.toJSONSchema(CheckFileSchema, { io: 'input' }), title: 'DAM check result (.dam-check.json)' };
}

/** Codes of `.dam-check.json` problems, as `dam lint` prints them: DC1 the JSON itself, DC2 the format and its rules. */
export const CheckFileCodes = { InvalidJson: 'DC1001', InvalidField: 'DC2001', RuleBroken: 'DC2002' } as const;

/** The node an issue's path points at: the deepest that exists (a missing property points at its object). */
function nodeAt(root: Node, path: readonly PropertyKey[]): Node {
  for (let n = path.length; n >= 0; n--) {
    const node = findNodeAtLocation(root, path.slice(0, n) as (string | number)[]);
    if (node) return node;
  }
  return root;
}

/**
 * The problems of a `.dam-check.json` text with their offsets, for `dam lint` (which parsed it as a query before):
 * JSON errors, every field the format refuses (the category among them, naming the four), then the rules a
 * publish would apply (a description, an outcome or findings, distinct occurrences).
 */
export function lintCheckText(text: string): Diagnostic[] {
  const make = (code: string, message: string, start: number, end: number): Diagnostic => ({
    code,
    phase: code === CheckFileCodes.InvalidJson ? 'syntax' : 'semantic',
    severity: 'error',
    message,
    range: { start, end: Math.max(end, start + 1) },
    source: 'dam-check',
  });
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  if (errors.length || !root) {
    const e = errors[0];
    return [make(CheckFileCodes.InvalidJson, `Invalid JSON (${e ? printParseErrorCode(e.error) : 'empty'}).`, e?.offset ?? 0, (e?.offset ?? 0) + (e?.length ?? 0))];
  }
  const parsed = CheckFileSchema.safeParse(JSON.parse(text));
  if (!parsed.success) {
    return parsed.error.issues.map((issue) => {
      const node = nodeAt(root, issue.path);
      const where = issue.path.length ? `${issue.path.join('.')}: ` : '';
      return make(CheckFileCodes.InvalidField, `${where}${issue.message}`, node.offset, node.offset + node.length);
    });
  }
  try {
    const { $schema: _schema, ...run } = parsed.data;
    validateRun(run);
  } catch (err) {
    return [make(CheckFileCodes.RuleBroken, `${(err as Error).message[0]!.toUpperCase()}${(err as Error).message.slice(1)}.`, root.offset, root.offset + 1)];
  }
  return [];
}
