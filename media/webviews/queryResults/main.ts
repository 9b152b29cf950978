// The query results table: renders only the rows in view (virtualised), asks for the next page when
// the scroll nears the end, and asks for thumbnails of the rows it shows. Runs in the webview.
import { ROW_HEIGHT, type FromWebview, type ResultRow, type RunSummary, type ToWebview } from '../../../src/extension/query/resultsMessages';

declare function acquireVsCodeApi(): { postMessage(message: FromWebview): void };
const vscode = acquireVsCodeApi();

const OVERSCAN = 10;

interface State {
  run: RunSummary | undefined;
  rows: ResultRow[];
  totalCount: number | null;
  hasMore: boolean;
  loading: boolean;
  pageMs: number;
  totalMs: number;
  error: string | undefined;
  notice: string | undefined;
  thumbs: Map<string, string | null>;
  askedThumbs: Set<string>;
}

const state: State = fresh();

function fresh(): State {
  return { run: undefined, rows: [], totalCount: null, hasMore: false, loading: false, pageMs: 0, totalMs: 0, error: undefined, notice: undefined, thumbs: new Map(), askedThumbs: new Set() };
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

const app = document.getElementById('app')!;
const header = el('header', { class: 'bar' });
const title = el('h1');
const stats = el('span', { class: 'stats', 'aria-live': 'polite' });
const actions = el('div', { class: 'actions' });
const csv = el('button', { type: 'button', title: 'Write every result to a CSV file' }, 'Export CSV');
const json = el('button', { type: 'button', title: 'Write every result to a JSON file' }, 'Export JSON');
const rerun = el('button', { type: 'button', title: 'Run the query again' }, 'Run again');
actions.append(rerun, csv, json);
header.append(title, stats, actions);
const expression = el('pre', { class: 'expression' });
const message = el('div', { class: 'message', role: 'status' });
const table = el('div', { class: 'table', role: 'grid', 'aria-rowcount': '0' });
const head = el('div', { class: 'row head', role: 'row' });
for (const [name, cls] of [['', 'thumb'], ['Title', 'title'], ['Id', 'id'], ['Content type', 'type'], ['Status', 'status'], ['Modified', 'modified'], ['', 'row-actions']]) {
  head.append(el('div', { class: `cell ${cls}`, role: 'columnheader' }, name));
}
const viewport = el('div', { class: 'viewport' });
const spacer = el('div', { class: 'spacer' });
const body = el('div', { class: 'body', role: 'rowgroup' });
viewport.append(spacer, body);
table.append(head, viewport);
app.append(header, expression, message, table);

csv.addEventListener('click', () => state.run && vscode.postMessage({ type: 'export', runId: state.run.runId, format: 'csv' }));
json.addEventListener('click', () => state.run && vscode.postMessage({ type: 'export', runId: state.run.runId, format: 'json' }));
rerun.addEventListener('click', () => state.run && vscode.postMessage({ type: 'rerun', runId: state.run.runId }));
viewport.addEventListener('scroll', () => requestAnimationFrame(render), { passive: true });
window.addEventListener('resize', () => requestAnimationFrame(render));
body.addEventListener('click', (e) => {
  const button = (e.target as HTMLElement).closest('button[data-action]') as HTMLButtonElement | null;
  if (!button || !state.run) return;
  const action = button.dataset.action as 'reveal' | 'preview' | 'copyId';
  vscode.postMessage({ type: 'action', runId: state.run.runId, action, id: button.dataset.id! });
});

function renderHeader(): void {
  const run = state.run;
  title.textContent = run ? run.name : 'No query run yet';
  expression.textContent = run ? `${run.target === 'classifications' ? '@target classifications\n' : ''}${run.expression}${run.sort ? `\n@sort ${run.sort}` : ''}` : '';
  const shown = state.rows.length.toLocaleString();
  const total = state.totalCount === null ? '?' : state.totalCount.toLocaleString();
  stats.textContent = run
    ? `${total} results · ${shown} loaded · first page ${Math.round(state.pageMs)} ms · ${Math.round(state.totalMs)} ms in all · ${run.connection}${state.loading ? ' · loading…' : ''}`
    : '';
  message.textContent = state.error ?? state.notice ?? (run && !state.loading && state.rows.length === 0 ? 'No results.' : '');
  message.className = state.error ? 'message error' : 'message';
  table.setAttribute('aria-rowcount', String(state.totalCount ?? state.rows.length));
  for (const b of [csv, json, rerun]) b.disabled = !run;
}

function cell(cls: string, text: string): HTMLDivElement {
  const c = el('div', { class: `cell ${cls}`, role: 'gridcell', title: text }, text);
  return c;
}

function button(action: string, id: string, label: string, tip: string): HTMLButtonElement {
  return el('button', { type: 'button', 'data-action': action, 'data-id': id, title: tip, 'aria-label': `${tip} ${id}` }, label);
}

/** Draws the rows in view (plus a margin), and asks for what they need: the next page, thumbnails. */
function render(): void {
  const rows = state.rows;
  spacer.style.height = `${rows.length * ROW_HEIGHT}px`;
  const top = viewport.scrollTop;
  const height = viewport.clientHeight || 400;
  const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((top + height) / ROW_HEIGHT) + OVERSCAN);
  body.style.transform = `translateY(${first * ROW_HEIGHT}px)`;
  const frag = document.createDocumentFragment();
  const needThumbs: string[] = [];
  for (let i = first; i < last; i++) {
    const r = rows[i];
    const row = el('div', { class: 'row', role: 'row', 'aria-rowindex': String(i + 1) });
    row.style.height = `${ROW_HEIGHT}px`;
    const thumb = el('div', { class: 'cell thumb', role: 'gridcell' });
    const uri = state.thumbs.get(r.id);
    if (uri) thumb.append(el('img', { src: uri, alt: '' }));
    if (r.hasThumbnail && !state.askedThumbs.has(r.id)) needThumbs.push(r.id);
    const acts = el('div', { class: 'cell row-actions', role: 'gridcell' });
    acts.append(button('reveal', r.id, 'Reveal', 'Reveal in the DAM Explorer'), button('preview', r.id, 'Preview', 'Open the preview'), button('copyId', r.id, 'Copy', 'Copy the id'));
    const modified = cell('modified', formatDate(r.modified));
    modified.title = r.modified;
    row.append(thumb, cell('title', r.title || '(no title)'), cell('id', r.id), cell('type', r.contentType), cell('status', r.status), modified, acts);
    frag.append(row);
  }
  body.replaceChildren(frag);
  if (state.run && needThumbs.length > 0) {
    for (const id of needThumbs) state.askedThumbs.add(id);
    vscode.postMessage({ type: 'thumbnails', runId: state.run.runId, ids: needThumbs.slice(0, 100) });
  }
  // The next page is asked for when the end of what is loaded comes within a screen of the view.
  if (state.run && state.hasMore && !state.loading && !state.error && top + 2 * height >= rows.length * ROW_HEIGHT) {
    state.loading = true;
    renderHeader();
    vscode.postMessage({ type: 'loadMore', runId: state.run.runId });
  }
}

function formatDate(iso: string): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toLocaleDateString()} ${d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}`;
}

window.addEventListener('message', (event: MessageEvent<ToWebview>) => {
  const m = event.data;
  if (!m || typeof m !== 'object') return;
  if (m.type === 'start') {
    Object.assign(state, fresh(), { run: m.run, loading: true });
    viewport.scrollTop = 0;
  } else if (!state.run || m.runId !== state.run.runId) {
    return;
  } else if (m.type === 'rows') {
    state.rows.push(...m.rows);
    state.totalCount = m.totalCount;
    state.hasMore = m.hasMore;
    state.loading = false;
    state.totalMs = m.totalMs;
    if (state.pageMs === 0) state.pageMs = m.pageMs;
  } else if (m.type === 'error') {
    state.error = m.message;
    state.loading = false;
  } else if (m.type === 'thumbnails') {
    for (const i of m.images) state.thumbs.set(i.id, i.dataUri);
  } else if (m.type === 'exported') {
    state.notice = m.message;
  }
  renderHeader();
  render();
  if (m.type === 'rows' && state.run) vscode.postMessage({ type: 'rendered', runId: state.run.runId, rows: state.rows.length });
});

renderHeader();
vscode.postMessage({ type: 'ready' });
