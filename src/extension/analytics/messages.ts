// Every message between the analytics panel (media/webviews/analytics) and the extension, defined once
// as zod schemas; both sides import this module and parse what arrives before acting on it.
// Free of `vscode` so the webview bundle and unit tests can import it.
import { z } from 'zod';

const row = z.record(z.string(), z.string().nullable());

/** A JSON object as the query file holds it: known attributes and any others, kept as they are. */
const jsonObject = z.record(z.string(), z.unknown());

export const ChartKindSchema = z.enum(['bar', 'line', 'pie']);
export type ChartKind = z.infer<typeof ChartKindSchema>;

/** What the panel posts to the extension. */
export const PanelToHostSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  /** The builder changed the query: the whole object, unknown keys included, to be written into the document. */
  z.object({ type: z.literal('edit'), query: jsonObject }),
  /** Run the document's query from its first row. */
  z.object({ type: z.literal('run') }),
  /** The table scrolled near the end of the fetched rows. */
  z.object({ type: z.literal('fetchMore'), runId: z.number().int() }),
  z.object({ type: z.literal('export'), format: z.enum(['csv', 'json']) }),
  z.object({ type: z.literal('openAsText') }),
  /** The panel's builder state after each render: the test suite and the host read it, never trust it. */
  z.object({
    type: z.literal('state'),
    version: z.number().int(),
    domain: z.string().nullable(),
    query: jsonObject.nullable(),
    problems: z.array(z.object({ code: z.string(), severity: z.enum(['error', 'warning']), message: z.string() })),
    shownRows: z.number().int(),
    chart: ChartKindSchema,
  }),
]);
export type PanelToHost = z.infer<typeof PanelToHostSchema>;

/** What the extension posts to the panel. */
export const HostToPanelSchema = z.discriminatedUnion('type', [
  /** The document's text changed (typed, undone, or our own edit landed). */
  z.object({ type: z.literal('document'), version: z.number().int(), text: z.string() }),
  z.object({ type: z.literal('runStarted'), runId: z.number().int(), paged: z.boolean() }),
  z.object({
    type: z.literal('rows'),
    runId: z.number().int(),
    rows: z.array(row),
    /** Rows fetched so far in this run, these included. */
    fetched: z.number().int(),
    hasMore: z.boolean(),
    /** Why the run cannot page further (no `order`), shown beside the count so nothing is capped silently. */
    note: z.string().optional(),
  }),
  z.object({ type: z.literal('runFailed'), runId: z.number().int(), message: z.string() }),
  /** Names for ids seen in the rows: record ids to titles, user ids to names. */
  z.object({ type: z.literal('labels'), records: z.record(z.string(), z.string()), users: z.record(z.string(), z.string()) }),
  z.object({ type: z.literal('exportDone'), message: z.string() }),
  /** Test hook: switch the chart as a click on its selector would. */
  z.object({ type: z.literal('setChart'), chart: ChartKindSchema }),
]);
export type HostToPanel = z.infer<typeof HostToPanelSchema>;
