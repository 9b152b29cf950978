// The query results webview: one panel, reused by each run. Rows arrive a page at a time (cursor
// paging) when the table scrolls near its end; thumbnails are fetched here and sent as data URIs,
// only for rows the webview shows. Messages from the webview are validated before use.
import * as vscode from 'vscode';
import { z } from 'zod';
import type { DamClient } from '../../api/client';
import { Commands } from '../commandIds';
import { classificationUri, previewUri, recordUri } from '../explorer/damFs';
import type { ConnectionManager } from '../connections/connectionManager';
import type { DamLog } from '../log';
import { webviewHtml } from '../webviewHtml';
import { Pager, type ResultItem } from './pager';
import type { QueryRequest } from './request';
import type { FromWebview, ResultRow, RunSummary, ToWebview } from './resultsMessages';
import { rowOf } from './rows';
import { inWords } from '../errorWords';

const PAGE_SIZE = 50;
const MAX_IMAGE_BYTES = 512 * 1024;

const FromWebviewSchema: z.ZodType<FromWebview> = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('loadMore'), runId: z.number().int() }),
  z.object({ type: z.literal('thumbnails'), runId: z.number().int(), ids: z.array(z.string().max(200)).max(200) }),
  z.object({ type: z.literal('action'), runId: z.number().int(), action: z.enum(['reveal', 'preview', 'copyId']), id: z.string().min(1).max(200) }),
  z.object({
    type: z.literal('export'),
    runId: z.number().int(),
    format: z.enum(['csv', 'json']),
    sort: z.object({ key: z.string().max(40), dir: z.enum(['ascending', 'descending']) }).optional(),
  }),
  z.object({ type: z.literal('rerun'), runId: z.number().int() }),
  z.object({ type: z.literal('rendered'), runId: z.number().int(), rows: z.number().int().min(0) }),
]);

export interface RunOutcome {
  runId: number;
  totalCount: number | null;
  /** Rows received so far (the first page after a run). */
  rows: number;
  firstPageMs: number;
  hasMore: boolean;
}

interface Run {
  summary: RunSummary;
  /** The query file's URI, when the run came from one (the export names its file after it). */
  source?: string;
  request: QueryRequest;
  client: DamClient;
  pager: Pager;
  abort: AbortController;
  rows: ResultRow[];
  startedAt: number;
  totalMs: number;
  lastPageMs: number;
  loading: Promise<void> | undefined;
  error: string | undefined;
  thumbnails: Map<string, string | null>;
  rendered: number;
}

export interface ResultsPanelDeps {
  extensionUri: vscode.Uri;
  connections: ConnectionManager;
  log: DamLog;
  exportRequest: (request: QueryRequest, format: 'csv' | 'json', options: { source?: string; sort?: { key: string; dir: 'ascending' | 'descending' } }) => Promise<unknown>;
  rerun: (request: QueryRequest) => Promise<unknown>;
}

export class ResultsPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private run: Run | undefined;
  private nextRunId = 1;
  private ready = false;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly deps: ResultsPanelDeps) {}

  /** The run on screen, for commands and tests. */
  get current(): { runId: number; request: QueryRequest; rows: number; rendered: number; totalCount: number | null; hasMore: boolean; visible: boolean } | undefined {
    const r = this.run;
    return r && { runId: r.summary.runId, request: r.request, rows: r.rows.length, rendered: r.rendered, totalCount: r.pager.totalCount, hasMore: !r.pager.done, visible: this.panel?.visible ?? false };
  }

  /** Starts a run in the panel and resolves once its first page is shown (or failed). */
  async show(request: QueryRequest, client: DamClient, connection: string, source?: string): Promise<RunOutcome> {
    this.ensurePanel();
    this.stopRun();
    const runId = this.nextRunId++;
    const abort = new AbortController();
    const run: Run = {
      summary: { runId, name: request.name, expression: request.expression, target: request.target, sort: request.sort ?? null, connection },
      request,
      source,
      client,
      pager: new Pager(client, request, PAGE_SIZE, abort.signal),
      abort,
      rows: [],
      startedAt: performance.now(),
      totalMs: 0,
      lastPageMs: 0,
      loading: undefined,
      error: undefined,
      thumbnails: new Map(),
      rendered: 0,
    };
    this.run = run;
    this.panel!.title = `DAM: ${request.name}`;
    this.post({ type: 'start', run: run.summary });
    await this.loadMore(run);
    if (run.error) throw new Error(run.error);
    return { runId, totalCount: run.pager.totalCount, rows: run.rows.length, firstPageMs: run.lastPageMs, hasMore: !run.pager.done };
  }

  private ensurePanel(): void {
    if (this.panel) {
      this.panel.reveal(undefined, true);
      return;
    }
    const { extensionUri } = this.deps;
    const media = vscode.Uri.joinPath(extensionUri, 'media', 'webviews', 'queryResults');
    const scripts = vscode.Uri.joinPath(extensionUri, 'dist', 'webviews');
    const panel = vscode.window.createWebviewPanel('dam.queryResults', 'DAM: Query Results', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, {
      enableScripts: true,
      retainContextWhenHidden: true,
      localResourceRoots: [media, scripts],
    });
    this.panel = panel;
    this.ready = false;
    panel.webview.html = webviewHtml(panel.webview, {
      style: vscode.Uri.joinPath(media, 'results.css'),
      script: vscode.Uri.joinPath(scripts, 'queryResults.js'),
      title: 'DAM query results',
      root: { tag: 'div', role: 'main' },
      dataImages: true,
    });
    this.disposables.push(
      panel.webview.onDidReceiveMessage((raw: unknown) => {
        const parsed = FromWebviewSchema.safeParse(raw);
        if (!parsed.success) {
          this.deps.log.warn(`Query results: ignored a malformed message from the webview (${parsed.error.issues[0]?.message})`);
          return;
        }
        void this.onMessage(parsed.data).catch((err) => this.showError(err));
      }),
      panel.onDidDispose(() => {
        this.stopRun();
        this.panel = undefined;
        this.run = undefined;
      }),
    );
  }

  private post(message: ToWebview): void {
    if (this.ready) void this.panel?.webview.postMessage(message);
  }

  private async onMessage(m: FromWebview): Promise<void> {
    if (m.type === 'ready') {
      this.ready = true;
      this.replay();
      return;
    }
    const run = this.run;
    if (!run || m.runId !== run.summary.runId) return;
    switch (m.type) {
      case 'loadMore':
        await this.loadMore(run);
        break;
      case 'thumbnails':
        await this.sendThumbnails(run, m.ids);
        break;
      case 'action':
        await this.action(run, m.action, m.id);
        break;
      case 'export':
        await this.deps.exportRequest(run.request, m.format, { source: run.source, sort: m.sort });
        break;
      case 'rerun':
        await this.deps.rerun(run.request);
        break;
      case 'rendered':
        run.rendered = m.rows;
        break;
    }
  }

  /** A webview that (re)loads gets the whole run so far. */
  private replay(): void {
    const run = this.run;
    if (!run) return;
    this.post({ type: 'start', run: run.summary });
    if (run.rows.length > 0 || run.pager.done) {
      this.post({ type: 'rows', runId: run.summary.runId, rows: run.rows, totalCount: run.pager.totalCount, hasMore: !run.pager.done, pageMs: run.lastPageMs, totalMs: run.totalMs });
    }
    if (run.error) this.post({ type: 'error', runId: run.summary.runId, message: run.error });
  }

  /** Fetches the next page of a run; concurrent asks share one request. */
  loadMore(run: Run | undefined = this.run): Promise<void> {
    if (!run || run.pager.done || run.error) return Promise.resolve();
    run.loading ??= (async () => {
      const started = performance.now();
      try {
        const page = await run.pager.next();
        const rows = page.items.map((i: ResultItem) => rowOf(i, run.request.target));
        run.rows.push(...rows);
        run.lastPageMs = performance.now() - started;
        run.totalMs = performance.now() - run.startedAt;
        if (this.run === run) {
          this.post({ type: 'rows', runId: run.summary.runId, rows, totalCount: page.totalCount, hasMore: !page.done, pageMs: run.lastPageMs, totalMs: run.totalMs });
        }
      } catch (err) {
        if (run.abort.signal.aborted) return;
        run.error = this.deps.log.scrub(inWords(err));
        this.deps.log.error(`Query ${run.request.name}: ${this.deps.log.scrub(err instanceof Error ? err.message : String(err))}`);
        if (this.run === run) this.post({ type: 'error', runId: run.summary.runId, message: run.error });
      } finally {
        run.loading = undefined;
      }
    })();
    return run.loading;
  }

  private stopRun(): void {
    if (!this.run) return;
    this.run.abort.abort();
    void this.run.pager.dispose();
  }

  private async sendThumbnails(run: Run, ids: string[]): Promise<void> {
    const wanted = ids.filter((id) => !run.thumbnails.has(id) && run.rows.some((r) => r.id === id && r.hasThumbnail));
    for (const id of wanted) run.thumbnails.set(id, null);
    // In the decoration lane: thumbnails never take more than a third of the tenant's rate, nor turns from rows.
    const images = await run.client.http.asDecoration(() => Promise.all(wanted.map(async (id) => ({ id, dataUri: await this.image(run.client, id, 'thumbnail') }))));
    for (const i of images) run.thumbnails.set(i.id, i.dataUri);
    if (images.length > 0 && this.run === run) this.post({ type: 'thumbnails', runId: run.summary.runId, images });
  }

  /**
   * The bytes of a record's thumbnail or preview as a data URI, or null when it has none (404).
   * The service may answer with the image itself or with a JSON resource naming its download URI.
   */
  private async image(client: DamClient, id: string, rel: 'thumbnail' | 'preview'): Promise<string | null> {
    const bytes = await this.imageBytes(client, id, rel);
    return bytes && `data:${bytes.type};base64,${Buffer.from(bytes.data).toString('base64')}`;
  }

  private async imageBytes(client: DamClient, id: string, rel: 'thumbnail' | 'preview'): Promise<{ type: string; data: Uint8Array } | null> {
    try {
      const res = await client.http.request<Uint8Array>({ path: `/record/${encodeURIComponent(id)}/${rel}`, accept: 'image/*, application/hal+json;q=0.5', responseType: 'bytes' });
      const type = (res.headers.get('content-type') ?? '').split(';')[0].trim();
      if (type.startsWith('image/')) return res.data.byteLength <= MAX_IMAGE_BYTES || rel === 'preview' ? { type, data: res.data } : null;
      if (type.includes('json')) {
        const uri = downloadUriOf(JSON.parse(Buffer.from(res.data).toString('utf8')));
        if (!uri) return null;
        // Download URIs carry their own token (spec): no bearer token goes to a CDN.
        const file = await client.http.request<Uint8Array>({ url: uri, auth: false, apiVersion: false, accept: 'image/*', responseType: 'bytes' });
        const fileType = (file.headers.get('content-type') ?? 'image/png').split(';')[0].trim();
        return fileType.startsWith('image/') ? { type: fileType, data: file.data } : null;
      }
      return null;
    } catch (err) {
      const status = (err as { status?: number }).status;
      if (status !== 404) this.deps.log.warn(`No ${rel} for ${id}: ${err instanceof Error ? err.message : String(err)}`);
      return null;
    }
  }

  /** An action on a row of the run on screen (the table's context menu). */
  async runAction(action: 'reveal' | 'preview' | 'copyId', id: string): Promise<void> {
    if (this.run) await this.action(this.run, action, id);
  }

  private async action(run: Run, action: 'reveal' | 'preview' | 'copyId', id: string): Promise<void> {
    switch (action) {
      case 'copyId':
        await vscode.env.clipboard.writeText(id);
        vscode.window.setStatusBarMessage(`Copied the id of “${run.rows.find((r) => r.id === id)?.title || id}”`, 3000);
        return;
      case 'reveal':
        // Where the record lives in the DAM Explorer: its classification path expanded, the record selected.
        await vscode.commands.executeCommand(Commands.explorerRevealRecord, id);
        return;
      case 'preview': {
        // A read-only `dam:` document named after the record: its preview image, or (no image) what the service knows of it.
        const row = run.rows.find((r) => r.id === id);
        const title = row?.title || id;
        // A thumbnail link does not promise a preview (a document's answers 404): ask before choosing.
        const image = run.request.target === 'records' && row?.hasThumbnail ? await this.imageBytes(run.client, id, 'preview') : null;
        const uri = run.request.target === 'classifications' ? classificationUri(id, title) : image ? previewUri(id, title) : recordUri(id, title);
        await vscode.commands.executeCommand('vscode.open', uri, { viewColumn: vscode.ViewColumn.Active, preview: true });
        return;
      }
    }
  }

  private showError(err: unknown): void {
    this.deps.log.error(`Query results: ${this.deps.log.scrub(err instanceof Error ? err.message : String(err))}`);
    void vscode.window.showErrorMessage(this.deps.log.scrub(inWords(err)));
  }

  notifyExported(message: string): void {
    if (this.run) this.post({ type: 'exported', runId: this.run.summary.runId, message });
  }

  dispose(): void {
    this.stopRun();
    this.panel?.dispose();
    this.disposables.forEach((d) => d.dispose());
  }
}

function downloadUriOf(value: unknown): string | undefined {
  if (!value || typeof value !== 'object') return undefined;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (typeof v === 'string' && /^(uri|url|downloaduri|href)$/i.test(k) && /^https?:/i.test(v)) return v;
  }
  return undefined;
}
