// Messages between the query results panel and its webview, defined once and imported by both sides.
// Plain types only: the webview bundle must stay free of `vscode` and zod; the panel validates what
// arrives with a zod schema written against these types (resultsPanel.ts).

/** One row of the table: what the webview shows, never the whole record. */
export interface ResultRow {
  id: string;
  title: string;
  contentType: string;
  status: string;
  modified: string;
  /** The record links a thumbnail; the webview asks for its bytes when the row comes into view. */
  hasThumbnail: boolean;
}

export interface RunSummary {
  runId: number;
  name: string;
  expression: string;
  target: 'records' | 'classifications';
  sort: string | null;
  connection: string;
}

export type ToWebview =
  | { type: 'start'; run: RunSummary }
  | { type: 'rows'; runId: number; rows: ResultRow[]; totalCount: number | null; hasMore: boolean; pageMs: number; totalMs: number }
  | { type: 'error'; runId: number; message: string }
  | { type: 'thumbnails'; runId: number; images: { id: string; dataUri: string | null }[] }
  | { type: 'exported'; runId: number; message: string };

export type FromWebview =
  | { type: 'ready' }
  | { type: 'loadMore'; runId: number }
  | { type: 'thumbnails'; runId: number; ids: string[] }
  | { type: 'action'; runId: number; action: 'reveal' | 'preview' | 'copyId'; id: string }
  /** `sort`: the grid's own sort of its rows (a column key and direction), which the export follows where it can. */
  | { type: 'export'; runId: number; format: 'csv' | 'json'; sort?: { key: string; dir: 'ascending' | 'descending' } }
  | { type: 'rerun'; runId: number }
  /** Sent after rows are drawn: how many the table holds, so the extension (and tests) know it rendered. */
  | { type: 'rendered'; runId: number; rows: number };

export const ROW_HEIGHT = 30;
