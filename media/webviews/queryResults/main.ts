// The query results table: a keyboard grid (one tab stop, arrows move between cells, Enter opens the
// record's preview, the context menu holds Reveal, Preview and Copy id) that renders only the rows in view
// (virtualised), asks for the next page when the end comes near, and asks for thumbnails of the rows it
// shows. It scrolls sideways in a narrow panel rather than cutting columns off. Headers (ArrowUp from the first
// row) sort the loaded rows (click, Enter or Space; aria-sort says how), resize (drag their edge, or Alt+Left/Right),
// and have a menu of their own (right-click, Shift+F10 or the context-menu key) instead of VS Code's generic
// Cut/Copy/Paste. Runs in the webview.
import { readableTime } from '../../../src/extension/dates';
import { ROW_HEIGHT, type FromWebview, type ResultRow, type RunSummary, type ToWebview } from '../../../src/extension/query/resultsMessages';

declare function acquireVsCodeApi(): { postMessage(message: FromWebview): void };
const vscode = acquireVsCodeApi();

const OVERSCAN = 10;
// Names first, the id last: in a narrow panel what is in view is what tells records apart.
const COLUMNS: readonly { name: string; cls: string; label: string; key?: keyof ResultRow; width: number }[] = [
  { name: '', cls: 'thumb', label: 'Thumbnail', width: 36 },
  { name: 'Title', cls: 'title', label: 'Title', key: 'title', width: 280 },
  { name: 'Content type', cls: 'type', label: 'Content type', key: 'contentType', width: 120 },
  { name: 'Status', cls: 'status', label: 'Status', key: 'status', width: 110 },
  { name: 'Modified', cls: 'modified', label: 'Modified', key: 'modified', width: 150 },
  { name: 'Id', cls: 'id', label: 'Id', key: 'id', width: 270 },
];
const MIN_WIDTH = 48;
const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

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
  /** Each row's place in the service's answer, to undo a sort. */
  order: Map<string, number>;
  /** The cell that holds the grid's one tab stop: row index into `rows`, column index into COLUMNS. */
  active: { row: number; col: number };
}

/** How the loaded rows are sorted (kept across runs, as the column widths). */
let sort: { col: number; dir: 'ascending' | 'descending' } | undefined;
const widths = COLUMNS.map((c) => c.width);

const state: State = fresh();

function fresh(): State {
  return { run: undefined, rows: [], totalCount: null, hasMore: false, loading: false, pageMs: 0, totalMs: 0, error: undefined, notice: undefined, thumbs: new Map(), askedThumbs: new Set(), order: new Map(), active: { row: 0, col: 1 } };
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
const hint = el('p', { class: 'hint', id: 'grid-hint' }, 'Arrow keys move between cells, Enter opens the preview, Shift+F10 or a right-click offers Reveal in the DAM Explorer and Copy id. ArrowUp from the first row reaches the headers: Enter sorts the loaded rows, Alt+Left/Right resizes, Shift+F10 opens the column menu (or click a header, drag its edge).');
const table = el('div', { class: 'table', role: 'grid', 'aria-rowcount': '0', 'aria-colcount': String(COLUMNS.length), 'aria-label': 'Query results', 'aria-describedby': 'grid-hint' });
const headScroller = el('div', { class: 'head-scroller', role: 'rowgroup' });
const head = el('div', { class: 'row head', role: 'row', 'aria-rowindex': '1' });
const headers = COLUMNS.map((c, i) => {
  const cell = el('div', { class: `cell ${c.cls}`, role: 'columnheader', 'aria-colindex': String(i + 1), 'data-col': String(i), ...(c.name ? {} : { 'aria-label': c.label }) });
  const label = el('span', { class: 'label' }, c.name);
  cell.append(label);
  // Reached with ArrowUp from the rows: the grid keeps its one tab stop.
  cell.tabIndex = -1;
  if (c.key) {
    cell.classList.add('sortable');
    cell.title = `Sort by ${c.label}: click, Enter or Space. Alt+Left/Right resizes; Shift+F10 opens the column's menu.`;
  }
  // The drag handle is for the pointer; the keyboard resizes with Alt+Left/Right on the header.
  cell.append(el('div', { class: 'resizer', 'aria-hidden': 'true' }));
  head.append(cell);
  return cell;
});
headScroller.append(head);
const menu = el('div', { class: 'menu', role: 'menu', hidden: '' });
document.body.append(menu);
const viewport = el('div', { class: 'viewport' });
const spacer = el('div', { class: 'spacer' });
const body = el('div', { class: 'body', role: 'rowgroup' });
viewport.append(spacer, body);
table.append(headScroller, viewport);
app.append(header, expression, message, table, hint);
applyWidths();
markSort();

/** The column widths as one grid template, shared by the header and every row. */
function applyWidths(): void {
  table.style.setProperty('--cols', widths.map((w) => `${w}px`).join(' '));
  table.style.setProperty('--min-width', `${widths.reduce((a, b) => a + b, 0)}px`);
}

function markSort(): void {
  headers.forEach((h, i) => {
    if (!COLUMNS[i].key) return;
    h.setAttribute('aria-sort', sort?.col === i ? sort.dir : 'none');
    h.dataset.sort = sort?.col === i ? sort.dir : '';
  });
}

function compareRows(a: ResultRow, b: ResultRow, col: number): number {
  const key = COLUMNS[col].key!;
  // Dates compare as times, everything else as people sort names (case aside, numbers by value).
  if (key === 'modified') return (Date.parse(a.modified) || 0) - (Date.parse(b.modified) || 0);
  return collator.compare(String(a[key] ?? ''), String(b[key] ?? ''));
}

/** Sorts the loaded rows by the chosen column (undefined: back to the order of the service), keeping the active row. */
function sortRows(next: typeof sort): void {
  sort = next;
  const activeId = state.rows[state.active.row]?.id;
  if (sort) {
    const { col, dir } = sort;
    state.rows.sort((a, b) => (dir === 'ascending' ? 1 : -1) * compareRows(a, b, col));
  } else {
    state.rows.sort((a, b) => (state.order.get(a.id) ?? 0) - (state.order.get(b.id) ?? 0));
  }
  const at = activeId === undefined ? -1 : state.rows.findIndex((r) => r.id === activeId);
  if (at >= 0) state.active = { ...state.active, row: at };
  markSort();
  message.textContent = sort ? `Sorted by ${COLUMNS[sort.col].label}, ${sort.dir}${state.hasMore ? ' (the rows loaded so far)' : ''}.` : 'In the order of the service.';
  render();
}

function toggleSort(col: number): void {
  if (!COLUMNS[col].key) return;
  sortRows({ col, dir: sort?.col === col && sort.dir === 'ascending' ? 'descending' : 'ascending' });
}

function resize(col: number, width: number): void {
  widths[col] = Math.max(MIN_WIDTH, Math.round(width));
  applyWidths();
}

head.addEventListener('click', (e) => {
  const target = e.target as HTMLElement;
  if (target.closest('.resizer')) return;
  const cell = target.closest<HTMLElement>('[role="columnheader"]');
  if (cell) toggleSort(Number(cell.dataset.col));
});
head.addEventListener('keydown', (e) => {
  const cell = (e.target as HTMLElement).closest<HTMLElement>('[role="columnheader"]');
  if (!cell) return;
  const col = Number(cell.dataset.col);
  if ((e.key === 'ArrowLeft' || e.key === 'ArrowRight') && e.altKey) {
    resize(col, widths[col] + (e.key === 'ArrowRight' ? 1 : -1) * (e.shiftKey ? 50 : 10));
  } else if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
    headers[Math.min(COLUMNS.length - 1, Math.max(0, col + (e.key === 'ArrowRight' ? 1 : -1)))].focus();
  } else if (e.key === 'ArrowDown') {
    moveTo(Math.min(state.rows.length - 1, Math.floor(viewport.scrollTop / ROW_HEIGHT)), col);
  } else if (e.key === 'Enter' || e.key === ' ') {
    toggleSort(col);
  } else {
    return;
  }
  e.preventDefault();
});
// Dragging a header's edge: pointer capture keeps the drag even when the pointer leaves the edge.
head.addEventListener('pointerdown', (e) => {
  const resizer = (e.target as HTMLElement).closest<HTMLElement>('.resizer');
  if (!resizer) return;
  e.preventDefault();
  const col = Number(resizer.parentElement!.dataset.col);
  const startX = e.clientX;
  const startWidth = widths[col];
  resizer.setPointerCapture(e.pointerId);
  const move = (m: PointerEvent) => resize(col, startWidth + m.clientX - startX);
  const up = () => {
    resizer.removeEventListener('pointermove', move);
    resizer.removeEventListener('pointerup', up);
  };
  resizer.addEventListener('pointermove', move);
  resizer.addEventListener('pointerup', up);
});
head.addEventListener('dblclick', (e) => {
  const resizer = (e.target as HTMLElement).closest<HTMLElement>('.resizer');
  if (resizer) resize(Number(resizer.parentElement!.dataset.col), COLUMNS[Number(resizer.parentElement!.dataset.col)].width);
});

// A header's own menu: VS Code would otherwise show its generic Cut/Copy/Paste, placed at the pointer (or, from
// the keyboard, in the window's corner). Preventing the default tells VS Code the page handled the event.
head.addEventListener('contextmenu', (e) => {
  const cell = (e.target as HTMLElement).closest<HTMLElement>('[role="columnheader"]');
  if (!cell) return;
  e.preventDefault();
  e.stopPropagation();
  openMenu(Number(cell.dataset.col), cell);
});

function openMenu(col: number, cell: HTMLElement): void {
  const c = COLUMNS[col];
  const items: [string, () => void][] = [];
  if (c.key) {
    items.push([`Sort ${c.label} ascending`, () => sortRows({ col, dir: 'ascending' })], [`Sort ${c.label} descending`, () => sortRows({ col, dir: 'descending' })]);
    if (sort) items.push(['Order of the service', () => sortRows(undefined)]);
  }
  items.push([`Widen ${c.label}`, () => resize(col, widths[col] + 50)], [`Narrow ${c.label}`, () => resize(col, widths[col] - 50)], ['Reset column widths', () => {
    COLUMNS.forEach((column, i) => (widths[i] = column.width));
    applyWidths();
  }]);
  menu.replaceChildren(...items.map(([text], i) => el('div', { role: 'menuitem', tabindex: '-1', class: 'menuitem', 'data-index': String(i) }, text)));
  menu.setAttribute('aria-label', `${c.label} column`);
  const rect = cell.getBoundingClientRect();
  menu.style.left = `${Math.max(0, Math.min(rect.left, window.innerWidth - 220))}px`;
  menu.style.top = `${rect.bottom}px`;
  menu.hidden = false;
  const entries = Array.from(menu.querySelectorAll<HTMLElement>('[role="menuitem"]'));
  entries[0]?.focus();
  const close = (refocus: boolean) => {
    menu.hidden = true;
    menu.onkeydown = null;
    menu.onclick = null;
    document.removeEventListener('pointerdown', outside, true);
    if (refocus) cell.focus();
  };
  const choose = (i: number) => {
    close(true);
    items[i]?.[1]();
  };
  const outside = (e: Event) => {
    if (!menu.contains(e.target as Node)) close(false);
  };
  document.addEventListener('pointerdown', outside, true);
  menu.onclick = (e) => {
    const item = (e.target as HTMLElement).closest<HTMLElement>('[role="menuitem"]');
    if (item) choose(Number(item.dataset.index));
  };
  menu.onkeydown = (e) => {
    const at = entries.indexOf(document.activeElement as HTMLElement);
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      entries[(at + (e.key === 'ArrowDown' ? 1 : entries.length - 1)) % entries.length]?.focus();
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      entries[e.key === 'Home' ? 0 : entries.length - 1]?.focus();
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      choose(at);
    } else if (e.key === 'Escape' || e.key === 'Tab') {
      e.preventDefault();
      close(true);
    }
  };
}

// The grid's sort goes with the request, so the file comes in the order on screen.
const gridSort = () => (sort && COLUMNS[sort.col].key ? { key: String(COLUMNS[sort.col].key), dir: sort.dir } : undefined);
csv.addEventListener('click', () => state.run && vscode.postMessage({ type: 'export', runId: state.run.runId, format: 'csv', sort: gridSort() }));
json.addEventListener('click', () => state.run && vscode.postMessage({ type: 'export', runId: state.run.runId, format: 'json', sort: gridSort() }));
rerun.addEventListener('click', () => state.run && vscode.postMessage({ type: 'rerun', runId: state.run.runId }));
viewport.addEventListener(
  'scroll',
  () => {
    // The header scrolls sideways with the rows.
    headScroller.scrollLeft = viewport.scrollLeft;
    requestAnimationFrame(render);
  },
  { passive: true },
);
window.addEventListener('resize', () => requestAnimationFrame(render));

function act(action: 'reveal' | 'preview' | 'copyId', row: number): void {
  const r = state.rows[row];
  if (r && state.run) vscode.postMessage({ type: 'action', runId: state.run.runId, action, id: r.id });
}

/** The row and column of a cell element, from its attributes. */
function cellOf(target: EventTarget | null): { row: number; col: number } | undefined {
  const cell = (target as HTMLElement | null)?.closest?.('[role="gridcell"]') as HTMLElement | null;
  if (!cell) return undefined;
  return { row: Number(cell.dataset.row), col: Number(cell.dataset.col) };
}

body.addEventListener('click', (e) => {
  const at = cellOf(e.target);
  if (at) moveTo(at.row, at.col);
});
body.addEventListener('dblclick', (e) => {
  const at = cellOf(e.target);
  if (at) act('preview', at.row);
});
body.addEventListener('focusin', (e) => {
  const at = cellOf(e.target);
  if (at && (at.row !== state.active.row || at.col !== state.active.col)) {
    state.active = at;
    markActive();
  }
});
body.addEventListener('keydown', (e) => {
  const { row, col } = state.active;
  const page = Math.max(1, Math.floor(viewport.clientHeight / ROW_HEIGHT) - 1);
  const last = state.rows.length - 1;
  let next: { row: number; col: number } | undefined;
  switch (e.key) {
    case 'ArrowDown':
      next = { row: Math.min(last, row + 1), col };
      break;
    case 'ArrowUp':
      if (row === 0) {
        // Above the first row: its column's header (sort, resize, menu).
        e.preventDefault();
        headers[col].focus();
        return;
      }
      next = { row: row - 1, col };
      break;
    case 'ArrowRight':
      next = { row, col: Math.min(COLUMNS.length - 1, col + 1) };
      break;
    case 'ArrowLeft':
      next = { row, col: Math.max(0, col - 1) };
      break;
    case 'Home':
      next = e.ctrlKey ? { row: 0, col } : { row, col: 0 };
      break;
    case 'End':
      next = e.ctrlKey ? { row: last, col } : { row, col: COLUMNS.length - 1 };
      break;
    case 'PageDown':
      next = { row: Math.min(last, row + page), col };
      break;
    case 'PageUp':
      next = { row: Math.max(0, row - page), col };
      break;
    case 'Enter':
      e.preventDefault();
      act('preview', row);
      return;
    case 'c':
      if (e.ctrlKey || e.metaKey) {
        e.preventDefault();
        act('copyId', row);
      }
      return;
    default:
      return;
  }
  e.preventDefault();
  moveTo(next.row, next.col);
});

/** Makes a cell the active one: scrolled into view (rendering its row), holding the tab stop, focused. */
function moveTo(row: number, col: number): void {
  if (state.rows.length === 0) return;
  state.active = { row, col };
  const top = row * ROW_HEIGHT;
  if (top < viewport.scrollTop) viewport.scrollTop = top;
  else if (top + ROW_HEIGHT > viewport.scrollTop + viewport.clientHeight) viewport.scrollTop = top + ROW_HEIGHT - viewport.clientHeight;
  render();
  const cell = body.querySelector<HTMLElement>(`[data-row="${row}"][data-col="${col}"]`);
  cell?.focus({ preventScroll: false });
}

/**
 * Gives the tab stop to the active cell; when its row is out of the rendered window, to the first visible
 * row's cell in that column, so Tab always lands inside the grid.
 */
function markActive(): void {
  const cells = body.querySelectorAll<HTMLElement>('[role="gridcell"]');
  let holder = body.querySelector<HTMLElement>(`[data-row="${state.active.row}"][data-col="${state.active.col}"]`);
  if (!holder) holder = body.querySelector<HTMLElement>(`[data-col="${state.active.col}"]`);
  cells.forEach((c) => (c.tabIndex = c === holder ? 0 : -1));
  body.querySelectorAll<HTMLElement>('[role="row"]').forEach((r) => r.classList.toggle('active', Number(r.dataset.row) === state.active.row));
}

function renderHeader(): void {
  const run = state.run;
  title.textContent = run ? run.name : 'No query run yet';
  expression.textContent = run ? `${run.target === 'classifications' ? '@target classifications\n' : ''}${run.expression}${run.sort ? `\n@sort ${run.sort}` : ''}` : '';
  const shown = state.rows.length.toLocaleString();
  const total = state.totalCount === null ? '?' : state.totalCount.toLocaleString();
  // A run the service refused before its first page has no figures to show: say that it failed, and where.
  const failedEarly = state.error !== undefined && state.totalCount === null && state.rows.length === 0;
  stats.textContent = !run
    ? ''
    : failedEarly
      ? `The query was not run · ${run.connection}`
      : `${total} results · ${shown} loaded · first page ${Math.round(state.pageMs)} ms · ${Math.round(state.totalMs)} ms in all · ${run.connection}${state.loading ? ' · loading…' : ''}`;
  message.textContent = state.error ?? state.notice ?? (run && !state.loading && state.rows.length === 0 ? 'No results.' : '');
  message.className = state.error ? 'message error' : 'message';
  // Data rows are numbered after the header row.
  table.setAttribute('aria-rowcount', String((state.totalCount ?? state.rows.length) + 1));
  // Nothing to export from a run without rows; Run Again stays, to try once the query is fixed.
  for (const b of [csv, json]) b.disabled = !run || state.rows.length === 0;
  rerun.disabled = !run;
}

function cell(row: number, col: number, text: string, tip = text): HTMLDivElement {
  const c = el('div', { class: `cell ${COLUMNS[col].cls}`, role: 'gridcell', 'aria-colindex': String(col + 1), 'data-row': String(row), 'data-col': String(col), tabindex: '-1', title: tip }, text);
  return c;
}

/** Draws the rows in view (plus a margin), and asks for what they need: the next page, thumbnails. */
function render(): void {
  const rows = state.rows;
  const focused = body.contains(document.activeElement);
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
    // The record's own menu in VS Code's context menu (package.json webview/context): Reveal, Preview, Copy id.
    const context = JSON.stringify({ webviewSection: 'resultRow', resultId: r.id, preventDefaultContextMenuItems: true });
    const row = el('div', { class: 'row', role: 'row', 'aria-rowindex': String(i + 2), 'data-row': String(i), 'data-vscode-context': context });
    row.style.height = `${ROW_HEIGHT}px`;
    const thumb = cell(i, 0, '', r.hasThumbnail ? `Thumbnail of ${r.title || r.id}` : 'No thumbnail');
    const uri = state.thumbs.get(r.id);
    if (uri) thumb.append(el('img', { src: uri, alt: '' }));
    if (r.hasThumbnail && !state.askedThumbs.has(r.id)) needThumbs.push(r.id);
    const modified = cell(i, 4, formatDate(r.modified), r.modified);
    row.append(thumb, cell(i, 1, r.title || '(no title)'), cell(i, 2, r.contentType), cell(i, 3, r.status), modified, cell(i, 5, r.id));
    frag.append(row);
  }
  body.replaceChildren(frag);
  markActive();
  if (focused) body.querySelector<HTMLElement>('[tabindex="0"]')?.focus({ preventScroll: true });
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

/** As the explorer's hover shows dates: `2025-10-11 20:15`, local time. */
function formatDate(iso: string): string {
  return readableTime(iso) ?? iso;
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
    for (const r of m.rows) state.order.set(r.id, state.order.size);
    state.rows.push(...m.rows);
    // A sorted table stays sorted as pages arrive.
    if (sort) {
      const { col, dir } = sort;
      state.rows.sort((a, b) => (dir === 'ascending' ? 1 : -1) * compareRows(a, b, col));
    }
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
