// The `.dam-check.json` format: one run of a check as a file a CI job writes and `dam checks publish` (or the
// extension) publishes. Defined once here; `schemas/dam-check.schema.json` is generated from it (a unit test
// keeps the two equal).
import { z } from 'zod';
import { OutcomeSchema, validateRun, type CheckRun } from './checks';

export const CheckFileSchema = z
  .object({
    $schema: z.string().optional(),
    check: z.string().trim().min(1).max(200).describe('Name of the check (unique in the environment); created when missing.'),
    category: z
      .string()
      .optional()
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
