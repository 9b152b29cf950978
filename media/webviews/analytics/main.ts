// The analytics panel in the webview: builds the query visually from the catalogue, validates it with the
// shared validator as it changes, and shows the results as a virtualised table and a chart. The query
// object itself is the state: every control edits a copy and posts the whole object to the extension,
// which writes it into the document; attributes the builder has no control for ride along untouched.
import type { Chart, ChartConfiguration } from 'chart.js' with { 'resolution-mode': 'import' };
// The catalogue and validator modules themselves, not the facade, which also carries the text linter.
import {
  factDomainNames,
  factDomains,
  filterOperators,
  granularities,
  isFactDomain,
  joinsOf,
  lookupMember,
  MAX_LIMIT,
  membersOf,
  operatorTypes,
  type FactDomain,
  type MemberInfo,
  validateAnalyticsQuery,
  type AnalyticsProblem,
} from '../../../src/core/analytics';
import { HostToPanelSchema, type ChartKind, type HostToPanel, type PanelToHost } from '../../../src/extension/analytics/messages';

// chart.js ships only as an ES module; a dynamic import lets this CommonJS-typed file use it, and esbuild
// still bundles it into the one script (no remote or extra resource).
const charts = import('chart.js').then((m) => {
  m.Chart.register(m.BarController, m.BarElement, m.LineController, m.LineElement, m.PointElement, m.PieController, m.ArcElement, m.CategoryScale, m.LinearScale, m.Tooltip, m.Legend);
  return m.Chart;
});

declare function acquireVsCodeApi(): { postMessage(message: unknown): void };
const vscode = acquireVsCodeApi();
const send = (message: PanelToHost) => vscode.postMessage(message);

type Query = Record<string, unknown>;
type Row = Record<string, string | null>;
interface Filter { member: string; operator: string; values?: string[]; [k: string]: unknown }
interface TimeDim { dimension: string; granularity?: string; dateRange?: string | [string, string]; [k: string]: unknown }

const KNOWN = new Set(['measures', 'dimensions', 'filters', 'timeDimensions', 'order', 'limit', 'offset']);
const RELATIVE_RANGES = ['today', 'yesterday', 'this week', 'this month', 'this quarter', 'this year', 'last week', 'last month', 'last quarter', 'last year', 'last 7 days', 'last 30 days', 'last 12 months'];
const ROW_HEIGHT = 24;
const CHART_POINTS = 500;

const state = {
  version: -1,
  query: null as Query | null,
  parseError: undefined as string | undefined,
  /** The domain picked before any member names it. */
  pickedDomain: undefined as FactDomain | undefined,
  problems: [] as AnalyticsProblem[],
  runId: -1,
  running: false,
  rows: [] as Row[],
  fetched: 0,
  hasMore: false,
  note: undefined as string | undefined,
  error: undefined as string | undefined,
  loadingMore: false,
  recordLabels: new Map<string, string>(),
  userLabels: new Map<string, string>(),
  chart: 'bar' as ChartKind,
  view: 'table' as 'table' | 'chart',
  exportMessage: undefined as string | undefined,
  /** The query as it was when the shown run started, to tell when the rows no longer match the builder. */
  ranQuery: undefined as string | undefined,
};

// ---- small DOM helpers

type Child = Node | string | null | undefined | false;
function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Record<string, unknown> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v as EventListener);
    else if (k === 'class') el.className = String(v);
    else if (k === 'value') (el as HTMLInputElement).value = String(v);
    else if (k === 'checked' || k === 'selected' || k === 'disabled') (el as unknown as Record<string, unknown>)[k] = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

function option(value: string, label: string, selected: boolean): HTMLOptionElement {
  return h('option', { value, selected }, label);
}

// ---- the query and its domain

const clone = (q: Query): Query => JSON.parse(JSON.stringify(q)) as Query;
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const filtersOf = (q: Query): Filter[] => (Array.isArray(q.filters) ? (q.filters as Filter[]) : []);
const timeDimsOf = (q: Query): TimeDim[] => (Array.isArray(q.timeDimensions) ? (q.timeDimensions as TimeDim[]) : []);

function orderEntries(q: Query): [string, string][] {
  const o = q.order;
  if (Array.isArray(o)) return o.filter((p): p is [string, string] => Array.isArray(p) && typeof p[0] === 'string').map((p) => [p[0], String(p[1])]);
  if (o && typeof o === 'object') return Object.entries(o as Record<string, unknown>).map(([k, v]) => [k, String(v)]);
  return [];
}

/** Writes order back in the shape the file used (object, as the spec documents, unless it was pairs). */
function setOrder(q: Query, entries: [string, string][]): void {
  if (entries.length === 0) delete q.order;
  else if (Array.isArray(q.order)) q.order = entries;
  else q.order = Object.fromEntries(entries);
}

/** The fact domain the query's members name first; the picked one while there are none. */
function domainOf(q: Query): FactDomain | undefined {
  const names = [...strings(q.measures), ...strings(q.dimensions), ...filtersOf(q).map((f) => f.member), ...timeDimsOf(q).map((t) => t.dimension)];
  for (const n of names) {
    const d = typeof n === 'string' ? n.split('.')[0] : '';
    if (isFactDomain(d)) return d;
  }
  return state.pickedDomain;
}

interface MemberGroup { label: string; members: MemberInfo[] }

/** The members a query on `domain` may use, grouped as the spec lists them: the domain, then each group it joins. */
function memberGroups(domain: FactDomain, kind: 'measure' | 'dimension' | 'any', type?: 'time'): MemberGroup[] {
  const groups: MemberGroup[] = [{ label: `${domain} (domain)`, members: membersOf(domain) }];
  for (const g of joinsOf(domain)) groups.push({ label: `${g} (joined)`, members: membersOf(g) });
  return groups
    .map((g) => ({ label: g.label, members: g.members.filter((m) => (kind === 'any' || m.kind === kind) && (!type || m.type === type)) }))
    .filter((g) => g.members.length > 0);
}

function memberSelect(domain: FactDomain, kind: 'measure' | 'dimension' | 'any', current: string | undefined, onPick: (name: string) => void, opts: { type?: 'time'; placeholder?: string; exclude?: string[]; label: string }): HTMLSelectElement {
  const select = h('select', { 'aria-label': opts.label, onchange: () => select.value && onPick(select.value) });
  if (current === undefined) select.append(option('', opts.placeholder ?? 'Add…', true));
  let found = current === undefined;
  for (const g of memberGroups(domain, kind, opts.type)) {
    const og = h('optgroup', { label: g.label });
    for (const m of g.members) {
      if (opts.exclude?.includes(m.name) && m.name !== current) continue;
      if (m.name === current) found = true;
      og.append(option(m.name, `${m.member} · ${m.type}`, m.name === current));
    }
    select.append(og);
  }
  // A member the catalogue does not know (or another domain's) stays visible so nothing is lost.
  if (!found && current !== undefined) select.prepend(option(current, `${current} (not in ${domain})`, true));
  return select;
}

function commit(next: Query): void {
  state.query = next;
  render();
  send({ type: 'edit', query: next });
}

function edit(mutate: (q: Query) => void): void {
  if (!state.query) return;
  const next = clone(state.query);
  mutate(next);
  commit(next);
}

function setList(q: Query, key: 'measures' | 'dimensions' | 'filters' | 'timeDimensions', list: unknown[]): void {
  if (list.length === 0) delete q[key];
  else q[key] = list;
}

/** Moving to another domain drops the members that domain cannot use; everything else stays. */
function changeDomain(domain: FactDomain): void {
  state.pickedDomain = domain;
  edit((q) => {
    const allowed = (name: string) => {
      const m = lookupMember(name);
      return !!m && (m.domain === domain || (joinsOf(domain) as readonly string[]).includes(m.domain));
    };
    setList(q, 'measures', strings(q.measures).filter((n) => allowed(n) && lookupMember(n)?.kind === 'measure'));
    setList(q, 'dimensions', strings(q.dimensions).filter(allowed));
    setList(q, 'filters', filtersOf(q).filter((f) => allowed(f.member)));
    setList(q, 'timeDimensions', timeDimsOf(q).filter((t) => allowed(t.dimension)));
    setOrder(q, orderEntries(q).filter(([k]) => allowed(k) || allowed(k.split('.').slice(0, 2).join('.'))));
  });
}

// ---- sections

function section(title: string, ...children: Child[]): HTMLElement {
  return h('section', { class: 'section' }, h('h2', {}, title), ...children);
}

function chips(list: string[], remove: (name: string) => void): HTMLElement {
  return h(
    'div',
    { class: 'chips' },
    ...list.map((name) => {
      const info = lookupMember(name);
      return h('span', { class: 'chip', title: info ? `${info.kind}, ${info.type}` : 'unknown member' }, name, info ? h('span', { class: 'type' }, info.type) : null, h('button', { class: 'icon', 'aria-label': `Remove ${name}`, onclick: () => remove(name) }, '×'));
    }),
  );
}

function operatorsFor(member: string): string[] {
  const type = lookupMember(member)?.type;
  return filterOperators.filter((op) => !type || operatorTypes[op].includes(type));
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

function dateInput(value: string | undefined, label: string, onChange: (v: string) => void): HTMLInputElement {
  // A value with a time of day stays editable as text rather than being cut to a date.
  const input = h('input', { type: value && !DATE_ONLY.test(value) ? 'text' : 'date', value: value ?? '', 'aria-label': label, onchange: () => onChange(input.value) });
  return input;
}

function filterValues(f: Filter, type: string | undefined, update: (values: string[] | undefined) => void): HTMLElement {
  const values = f.values ?? [];
  const op = f.operator;
  if (op === 'set' || op === 'notSet') return h('span', { class: 'hint' }, 'no value');
  if (op === 'inDateRange' || op === 'notInDateRange') {
    return h('span', { class: 'values' }, dateInput(values[0], 'from', (v) => update([v, values[1] ?? ''])), ' to ', dateInput(values[1], 'to', (v) => update([values[0] ?? '', v])));
  }
  if (['beforeDate', 'beforeOrOnDate', 'afterDate', 'afterOrOnDate'].includes(op)) return h('span', { class: 'values' }, dateInput(values[0], 'date', (v) => update([v])));
  const single = ['gt', 'gte', 'lt', 'lte'].includes(op);
  const inputFor = (v: string, i: number): HTMLElement => {
    const set = (nv: string) => update(values.map((x, j) => (j === i ? nv : x)));
    if (type === 'boolean') {
      const s = h('select', { 'aria-label': `value ${i + 1}`, onchange: () => set(s.value) }, option('true', 'true', v === 'true'), option('false', 'false', v === 'false'));
      return s;
    }
    const input = h('input', { type: type === 'number' || type === 'count' ? 'number' : 'text', value: v, 'aria-label': `value ${i + 1}`, onchange: () => set(input.value) });
    return input;
  };
  const shown = values.length === 0 ? [''] : values;
  return h(
    'span',
    { class: 'values' },
    ...shown.map((v, i) => h('span', { class: 'value' }, inputFor(v, i), !single && shown.length > 1 ? h('button', { class: 'icon', 'aria-label': 'Remove value', onclick: () => update(values.filter((_, j) => j !== i)) }, '×') : null)),
    single ? null : h('button', { class: 'link', onclick: () => update([...shown, type === 'boolean' ? 'true' : '']) }, '+ value'),
  );
}

function filtersSection(q: Query, domain: FactDomain): HTMLElement {
  const filters = filtersOf(q);
  const rows = filters.map((f, i) => {
    const update = (patch: Partial<Filter>) =>
      edit((n) => {
        const list = filtersOf(n);
        const next: Filter = { ...list[i], ...patch };
        if (next.values === undefined) delete next.values;
        list[i] = next;
      });
    const type = lookupMember(f.member)?.type;
    const ops = operatorsFor(f.member);
    if (!ops.includes(f.operator)) ops.unshift(f.operator);
    const opSelect = h('select', { 'aria-label': 'operator', onchange: () => {
      const op = opSelect.value;
      const values = op === 'set' || op === 'notSet' ? undefined : op.includes('DateRange') ? [f.values?.[0] ?? '', f.values?.[1] ?? ''] : (f.values ?? []).slice(0, ['gt', 'gte', 'lt', 'lte'].includes(op) || op.endsWith('Date') ? 1 : undefined);
      update({ operator: op, values });
    } }, ...ops.map((op) => option(op, op, op === f.operator)));
    return h(
      'div',
      { class: 'row filter' },
      memberSelect(domain, 'any', f.member, (member) => update({ member, operator: operatorsFor(member).includes(f.operator) ? f.operator : operatorsFor(member)[0] }), { label: 'filter member' }),
      opSelect,
      filterValues(f, type, (values) => update({ values })),
      h('button', { class: 'icon', 'aria-label': 'Remove filter', onclick: () => edit((n) => setList(n, 'filters', filtersOf(n).filter((_, j) => j !== i))) }, '×'),
    );
  });
  const add = memberSelect(domain, 'any', undefined, (member) => edit((n) => setList(n, 'filters', [...filtersOf(n), { member, operator: operatorsFor(member)[0], values: [''] }])), { label: 'add filter', placeholder: 'Add filter on…' });
  return section('Filters', ...rows, h('div', { class: 'row' }, add));
}

function dateRangeControl(t: TimeDim, update: (range: TimeDim['dateRange'] | undefined) => void): HTMLElement {
  const r = t.dateRange;
  const mode = r === undefined ? 'none' : Array.isArray(r) ? 'between' : 'relative';
  const modeSelect = h('select', { 'aria-label': 'date range', onchange: () => {
    const m = modeSelect.value;
    update(m === 'none' ? undefined : m === 'between' ? ['', ''] : 'this month');
  } }, option('none', 'any date', mode === 'none'), option('relative', 'relative', mode === 'relative'), option('between', 'between', mode === 'between'));
  const parts: Child[] = [modeSelect];
  if (typeof r === 'string') {
    const listId = `ranges-${Math.random().toString(36).slice(2)}`;
    const input = h('input', { type: 'text', list: listId, value: r, 'aria-label': 'relative range', onchange: () => update(input.value) });
    parts.push(input, h('datalist', { id: listId }, ...RELATIVE_RANGES.map((v) => h('option', { value: v }))));
  } else if (Array.isArray(r)) {
    parts.push(dateInput(r[0], 'from', (v) => update([v, r[1]])), ' to ', dateInput(r[1], 'to', (v) => update([r[0], v])));
  }
  return h('span', { class: 'values' }, ...parts);
}

function timeSection(q: Query, domain: FactDomain): HTMLElement {
  const tds = timeDimsOf(q);
  const rows = tds.map((t, i) => {
    const update = (patch: Partial<TimeDim>) =>
      edit((n) => {
        const list = timeDimsOf(n);
        const next: TimeDim = { ...list[i], ...patch };
        for (const k of ['granularity', 'dateRange'] as const) if (next[k] === undefined) delete next[k];
        list[i] = next;
      });
    const gran = h('select', { 'aria-label': 'granularity', onchange: () => update({ granularity: gran.value || undefined }) }, option('', 'no granularity', !t.granularity), ...granularities.map((g) => option(g, g, g === t.granularity)));
    return h(
      'div',
      { class: 'row' },
      memberSelect(domain, 'dimension', t.dimension, (dimension) => update({ dimension }), { type: 'time', label: 'time dimension' }),
      gran,
      dateRangeControl(t, (dateRange) => update({ dateRange })),
      h('button', { class: 'icon', 'aria-label': 'Remove time dimension', onclick: () => edit((n) => setList(n, 'timeDimensions', timeDimsOf(n).filter((_, j) => j !== i))) }, '×'),
    );
  });
  const add = memberSelect(domain, 'dimension', undefined, (dimension) => edit((n) => setList(n, 'timeDimensions', [...timeDimsOf(n), { dimension, granularity: 'month' }])), { type: 'time', label: 'add time dimension', placeholder: 'Add time dimension…' });
  return section('Time dimensions', ...rows, h('div', { class: 'row' }, add));
}

/** Keys a query may order by: its measures and dimensions, and each bucketed time dimension. */
function orderKeys(q: Query): string[] {
  return [...strings(q.measures), ...strings(q.dimensions), ...timeDimsOf(q).map((t) => (t.granularity ? `${t.dimension}.${t.granularity}` : t.dimension))];
}

function orderSection(q: Query): HTMLElement {
  const entries = orderEntries(q);
  const keys = orderKeys(q);
  const rows = entries.map(([key, dir], i) => {
    const set = (e: [string, string]) => edit((n) => setOrder(n, orderEntries(n).map((x, j) => (j === i ? e : x))));
    const options = keys.includes(key) ? keys : [key, ...keys];
    const keySelect = h('select', { 'aria-label': 'order by', onchange: () => set([keySelect.value, dir]) }, ...options.map((k) => option(k, k, k === key)));
    const dirSelect = h('select', { 'aria-label': 'direction', onchange: () => set([key, dirSelect.value]) }, option('asc', 'ascending', dir === 'asc'), option('desc', 'descending', dir === 'desc'));
    return h('div', { class: 'row' }, keySelect, dirSelect, h('button', { class: 'icon', 'aria-label': 'Remove order', onclick: () => edit((n) => setOrder(n, orderEntries(n).filter((_, j) => j !== i))) }, '×'));
  });
  const free = keys.filter((k) => !entries.some(([e]) => e === k));
  const add = h('select', { 'aria-label': 'add order', onchange: () => add.value && edit((n) => setOrder(n, [...orderEntries(n), [add.value, 'asc']])) }, option('', free.length ? 'Add order by…' : 'Add members first', true), ...free.map((k) => option(k, k, false)));
  return section('Order', ...rows, h('div', { class: 'row' }, add), entries.length === 0 ? h('p', { class: 'hint' }, 'Without an order the results come in one request and cannot be paged.') : null);
}

function numberField(q: Query, key: 'limit' | 'offset', max?: number): HTMLElement {
  const v = q[key];
  const input = h('input', {
    type: 'number',
    min: 0,
    max,
    step: 1,
    value: typeof v === 'number' ? v : '',
    'aria-label': key,
    placeholder: key === 'limit' ? `at most ${MAX_LIMIT}` : '0',
    onchange: () =>
      edit((n) => {
        if (input.value.trim() === '') delete n[key];
        else n[key] = Number(input.value);
      }),
  });
  return h('label', { class: 'field' }, key, input);
}

function problemsView(): HTMLElement | null {
  // The words in the text colour (full contrast in every theme); only the check mark is green.
  if (state.problems.length === 0) return h('p', { class: 'ok', role: 'status' }, h('span', { class: 'ok-mark', 'aria-hidden': 'true' }, '✓'), ' The query is valid.');
  return h('ul', { class: 'problems', role: 'status' }, ...state.problems.map((p) => h('li', { class: p.severity }, h('code', {}, p.code), ' ', p.message)));
}

function builder(q: Query): HTMLElement {
  const domain = domainOf(q);
  const domainSelect = h('select', { id: 'domain', 'aria-label': 'domain', onchange: () => isFactDomain(domainSelect.value) && changeDomain(domainSelect.value) }, domain ? null : option('', 'Pick a domain…', true), ...factDomainNames.map((d) => option(d, d, d === domain)));
  const head = h('div', { class: 'row' }, h('label', { class: 'field' }, 'Domain', domainSelect), domain ? h('span', { class: 'hint' }, factDomains[domain].description) : null);
  const others = Object.keys(q).filter((k) => !KNOWN.has(k));
  if (!domain) return h('div', { class: 'builder' }, head, problemsView());
  return h(
    'div',
    { class: 'builder' },
    head,
    section('Measures', chips(strings(q.measures), (name) => edit((n) => setList(n, 'measures', strings(n.measures).filter((m) => m !== name)))), memberSelect(domain, 'measure', undefined, (name) => edit((n) => setList(n, 'measures', [...new Set([...strings(n.measures), name])])), { label: 'add measure', placeholder: 'Add measure…', exclude: strings(q.measures) })),
    section('Dimensions', chips(strings(q.dimensions), (name) => edit((n) => setList(n, 'dimensions', strings(n.dimensions).filter((m) => m !== name)))), memberSelect(domain, 'dimension', undefined, (name) => edit((n) => setList(n, 'dimensions', [...new Set([...strings(n.dimensions), name])])), { label: 'add dimension', placeholder: 'Add dimension…', exclude: strings(q.dimensions) })),
    filtersSection(q, domain),
    timeSection(q, domain),
    orderSection(q),
    section('Window', h('div', { class: 'row' }, numberField(q, 'limit', MAX_LIMIT), numberField(q, 'offset'))),
    others.length ? h('p', { class: 'hint' }, `Kept as written in the file: ${others.join(', ')}.`) : null,
    problemsView(),
  );
}

// ---- results

/**
 * The columns shown: the rows' keys, except a time dimension's plain name when its bucket column
 * (`Views.viewDate.month`) is there too, which answers the same value (Cube sends both).
 */
function columns(): string[] {
  if (!state.rows.length) return [];
  const keys = Object.keys(state.rows[0]);
  return keys.filter((k) => !granularities.some((g) => keys.includes(`${k}.${g}`)));
}

/** `downloadDate` → `Download date`, `recordId` → `Record ID`. */
function humanName(member: string): string {
  const words = member.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().replace(/\bid\b/g, 'ID');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A column's header as people read it: `Downloads.downloadDate.month` → `Download date (month)`,
 * `Downloads.count` → `Downloads count`, a joined group's member after its group (`Records › File count`).
 * The member's own name stays in the header's tooltip and in the exports.
 */
function columnLabel(column: string): string {
  const [domain = '', member = column, bucket] = column.split('.');
  const queried = state.query ? domainOf(state.query) : state.pickedDomain;
  if (member === 'count' && !bucket) return `${domain} count`;
  // A record or user id column shows names (the id is in each cell's tooltip), unless the rows carry titles already.
  const shown = member === 'recordId' && !carriesTitles() ? 'Record' : member === 'userId' ? 'User' : humanName(member);
  const name = `${shown}${bucket ? ` (${bucket})` : ''}`;
  return queried && domain !== queried ? `${domain} › ${name}` : name;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A time value as people read it, at the column's granularity (`2025-03` for a month, `2025 Q2` for a quarter). */
function timeText(column: string, value: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(value);
  if (!m) return undefined;
  const [, y, mo, d, hh = '00', mm = '00', ss = '00'] = m;
  const granularity = granularities.find((g) => column.endsWith(`.${g}`));
  if (!granularity && lookupMember(column)?.type !== 'time') return undefined;
  switch (granularity) {
    case 'year':
      return y;
    case 'quarter':
      return `${y} Q${Math.floor((Number(mo) - 1) / 3) + 1}`;
    case 'month':
      return `${MONTHS[Number(mo) - 1]} ${y}`;
    case 'week':
      return `week of ${y}-${mo}-${d}`;
    case 'day':
      return `${y}-${mo}-${d}`;
    case 'hour':
      return `${y}-${mo}-${d} ${hh}:00`;
    case 'minute':
      return `${y}-${mo}-${d} ${hh}:${mm}`;
    case 'second':
      return `${y}-${mo}-${d} ${hh}:${mm}:${ss}`;
    default:
      return hh === '00' && mm === '00' && ss === '00' ? `${y}-${mo}-${d}` : `${y}-${mo}-${d} ${hh}:${mm}`;
  }
}

/**
 * Whether the rows have a title column of their own (`RecordMetadata.title`): a record id column then shows the ids,
 * since showing titles there would repeat the title column beside it.
 */
function carriesTitles(): boolean {
  return state.rows.length > 0 && Object.keys(state.rows[0]).some((k) => /\.title$/i.test(k));
}

function cellText(column: string, value: string | null, titled = carriesTitles()): { text: string; title?: string } {
  if (value === null) return { text: '' };
  const time = timeText(column, value);
  if (time !== undefined) return { text: time, title: value };
  if (/\.recordId$/.test(column) && !titled) {
    const label = state.recordLabels.get(value);
    return label && label !== value ? { text: label, title: value } : { text: value };
  }
  if (/\.userId$/.test(column)) {
    const label = state.userLabels.get(value);
    return label && label !== value ? { text: label, title: `user ${value}` } : { text: value };
  }
  // A measure reads as the chart's axis does: the locale's grouping (2,682), the raw value in the tooltip.
  if (lookupMember(column)?.kind === 'measure' && value.trim() !== '' && Number.isFinite(Number(value))) return { text: NUMBERS.format(Number(value)), title: value };
  return { text: value };
}

/** Numbers as Chart.js writes its axis ticks: Intl.NumberFormat in the panel's locale (up to three decimals). */
const NUMBERS = new Intl.NumberFormat(undefined, { maximumFractionDigits: 3 });

function statusText(): string {
  if (state.error) return state.error;
  if (state.running && state.fetched === 0) return 'Running…';
  if (state.runId < 0) return 'Run the query to see its rows.';
  const n = NUMBERS.format(state.fetched);
  const more = state.hasMore ? (state.note ? 'more may exist' : 'more exist: scroll to fetch the next page') : 'all rows fetched';
  const stale = state.ranQuery !== undefined && state.ranQuery !== JSON.stringify(state.query) ? ' · the query changed since this run: Run again to update' : '';
  return `${n} row${state.fetched === 1 ? '' : 's'} fetched · ${more}${state.note ? ` · ${state.note}` : ''}${stale}`;
}

let tableBody: HTMLElement | undefined;
let tableScroller: HTMLElement | undefined;

function renderVisibleRows(): void {
  if (!tableBody || !tableScroller) return;
  const cols = columns();
  const titled = carriesTitles();
  const top = tableScroller.scrollTop;
  const height = tableScroller.clientHeight || 400;
  const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - 10);
  const last = Math.min(state.rows.length, Math.ceil((top + height) / ROW_HEIGHT) + 10);
  tableBody.style.height = `${state.rows.length * ROW_HEIGHT}px`;
  tableBody.replaceChildren(
    ...state.rows.slice(first, last).map((row, i) => {
      const el = h('div', { class: 'tr', role: 'row', 'aria-rowindex': first + i + 2 }, ...cols.map((c) => {
        const { text, title } = cellText(c, row[c] ?? null, titled);
        return h('div', { class: 'td', role: 'cell', title: title ?? text }, text);
      }));
      el.style.top = `${(first + i) * ROW_HEIGHT}px`;
      return el;
    }),
  );
  // Near the end of what is fetched: ask for the next page (the extension ignores a stale run).
  if (state.hasMore && !state.note && !state.loadingMore && last >= state.rows.length - 20) {
    state.loadingMore = true;
    send({ type: 'fetchMore', runId: state.runId });
  }
}

function tableView(): HTMLElement {
  const cols = columns();
  const template = `repeat(${Math.max(cols.length, 1)}, minmax(8em, 1fr))`;
  const head = h('div', { class: 'tr head', role: 'row' }, ...cols.map((c) => h('div', { class: 'th', role: 'columnheader', title: c }, columnLabel(c))));
  head.style.gridTemplateColumns = template;
  tableBody = h('div', { class: 'tbody', role: 'rowgroup' });
  tableBody.style.setProperty('--columns', template);
  // Wide results scroll sideways; header and rows share one width so the columns line up.
  const width = `${Math.max(cols.length, 1) * 10}em`;
  head.style.minWidth = width;
  tableBody.style.minWidth = width;
  tableScroller = h('div', { class: 'scroller', tabindex: 0, 'aria-label': 'result rows', onscroll: () => renderVisibleRows() }, head, tableBody);
  const table = h('div', { class: 'table', role: 'table', 'aria-rowcount': state.fetched + 1 }, tableScroller);
  queueMicrotask(renderVisibleRows);
  return table;
}

let chart: Chart | undefined;

function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.body).getPropertyValue(name).trim() || fallback;
}

/** `#rgb`, `#rrggbb(aa)` or `rgb(a)(…)` as [r, g, b], or undefined. */
function rgbOf(color: string): [number, number, number] | undefined {
  const hex = /^#([0-9a-f]{3,8})$/i.exec(color.trim())?.[1];
  if (hex) {
    const full = hex.length <= 4 ? [...hex.slice(0, 3)].map((c) => c + c).join('') : hex.slice(0, 6);
    return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
  }
  const rgb = /rgba?\(\s*(\d+)[\s,]+(\d+)[\s,]+(\d+)/i.exec(color);
  return rgb ? [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])] : undefined;
}

/** `color` moved `amount` of the way towards `toward`. */
function mix(color: string, toward: string, amount: number): string {
  const a = rgbOf(color);
  const b = rgbOf(toward);
  if (!a || !b) return color;
  return `rgb(${a.map((v, i) => Math.round(v + (b[i] - v) * amount)).join(', ')})`;
}

/**
 * Twelve distinct colours from the theme's six chart colours: the six, then each mixed half way towards
 * the editor's foreground, so the twelve slices a pie draws never repeat a colour.
 */
function palette(): string[] {
  const base = ['--vscode-charts-blue', '--vscode-charts-orange', '--vscode-charts-green', '--vscode-charts-purple', '--vscode-charts-red', '--vscode-charts-yellow'].map((v, i) => cssVar(v, ['#3794ff', '#d18616', '#89d185', '#b180d7', '#f14c4c', '#cca700'][i]));
  const fg = cssVar('--vscode-editor-foreground', cssVar('--vscode-foreground', '#cccccc'));
  return [...base, ...base.map((c) => mix(c, fg, 0.45))];
}

/** The label column (first time bucket, else first dimension) and the measure columns of the result. */
function chartAxes(): { label?: string; measures: string[] } {
  const q = state.query ?? {};
  const cols = columns();
  const measures = strings(q.measures).filter((m) => cols.includes(m));
  const time = timeDimsOf(q).find((t) => t.granularity && cols.includes(`${t.dimension}.${t.granularity}`));
  const label = time ? `${time.dimension}.${time.granularity}` : cols.find((c) => !measures.includes(c));
  return { label, measures };
}

function labelOf(column: string | undefined, row: Row): string {
  if (!column) return '';
  const v = row[column];
  if (v === null || v === undefined) return '(none)';
  return cellText(column, v).text;
}

function chartView(): HTMLElement {
  const { label, measures } = chartAxes();
  const kindSelect = h('select', { id: 'chart-kind', 'aria-label': 'chart type', onchange: () => setChart(kindSelect.value as ChartKind) }, option('bar', 'Bar', state.chart === 'bar'), option('line', 'Line over time', state.chart === 'line'), option('pie', 'Pie (shares)', state.chart === 'pie'));
  const canvas = h('canvas', { id: 'chart', role: 'img', 'aria-label': `${state.chart} chart of ${measures.join(', ')} by ${label ?? 'row'}` });
  const shown = Math.min(state.rows.length, state.chart === 'pie' ? 12 : CHART_POINTS);
  const caption = measures.length === 0 ? 'Add a measure to chart the result.' : `Showing ${NUMBERS.format(shown)} of ${NUMBERS.format(state.fetched)} fetched rows${state.chart === 'pie' && state.rows.length > 12 ? ' (the 12 first as slices)' : ''}.`;
  const box = h('div', { class: 'chart-box' }, canvas);
  queueMicrotask(() => drawChart(canvas, label, measures, shown));
  return h('div', { class: 'chart' }, h('div', { class: 'row' }, h('label', { class: 'field' }, 'Chart', kindSelect), h('span', { class: 'hint' }, caption)), box);
}

function drawChart(canvas: HTMLCanvasElement, label: string | undefined, measures: string[], shown: number): void {
  chart?.destroy();
  chart = undefined;
  if (measures.length === 0 || !canvas.isConnected) return;
  const rows = state.rows.slice(0, shown);
  const colors = palette();
  const fg = cssVar('--vscode-foreground', '#cccccc');
  const grid = cssVar('--vscode-charts-lines', 'rgba(128,128,128,0.35)');
  const font = { family: cssVar('--vscode-font-family', 'sans-serif'), size: 12 };
  const labels = rows.map((r) => labelOf(label, r));
  const kind = state.chart;
  const datasets =
    kind === 'pie'
      ? [{ label: columnLabel(measures[0]), data: rows.map((r) => Number(r[measures[0]] ?? 0)), backgroundColor: rows.map((_, i) => colors[i % colors.length]), borderColor: cssVar('--vscode-editor-background', '#1e1e1e') }]
      : measures.map((m, i) => ({ label: columnLabel(m), data: rows.map((r) => Number(r[m] ?? 0)), backgroundColor: colors[i % colors.length], borderColor: colors[i % colors.length], pointRadius: rows.length > 60 ? 0 : 3 }));
  const scales = kind === 'pie' ? {} : {
    x: { ticks: { color: fg, font, autoSkip: true, maxRotation: 45 }, grid: { color: grid } },
    y: { beginAtZero: true, ticks: { color: fg, font }, grid: { color: grid }, title: { display: true, text: measures.map(columnLabel).join(', '), color: fg, font } },
  };
  const config: ChartConfiguration = {
    type: kind,
    data: { labels, datasets },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      color: fg,
      font,
      plugins: { legend: { display: kind === 'pie' || measures.length > 1, labels: { color: fg, font } }, tooltip: { enabled: true } },
      scales,
    } as ChartConfiguration['options'],
  };
  void charts.then((ChartClass) => {
    if (!canvas.isConnected) return;
    chart?.destroy();
    chart = new ChartClass(canvas, config);
    // What was drawn, for whoever reads the page rather than the pixels (tests, a screen reader's inspector).
    canvas.dataset.colors = JSON.stringify(kind === 'pie' ? datasets[0].backgroundColor : datasets.map((d) => d.backgroundColor));
    canvas.dataset.ready = 'true';
  });
}

function setChart(kind: ChartKind): void {
  state.chart = kind;
  state.view = 'chart';
  renderResults();
}

function resultsView(): HTMLElement {
  const tabs = h('div', { class: 'tabs', role: 'tablist' },
    h('button', { role: 'tab', 'aria-selected': state.view === 'table', class: state.view === 'table' ? 'tab active' : 'tab', onclick: () => { state.view = 'table'; renderResults(); } }, 'Table'),
    h('button', { role: 'tab', 'aria-selected': state.view === 'chart', class: state.view === 'chart' ? 'tab active' : 'tab', onclick: () => { state.view = 'chart'; renderResults(); } }, 'Chart'),
  );
  const status = h('p', { class: state.error ? 'status error' : 'status', role: 'status', id: 'run-status' }, statusText());
  const body = state.rows.length === 0 ? null : state.view === 'table' ? tableView() : chartView();
  return h('div', { class: 'results' }, h('div', { class: 'row' }, tabs, state.exportMessage ? h('span', { class: 'hint' }, state.exportMessage) : null), status, body);
}

// ---- render

/** Outside #app, which every render replaces: a live region is announced only if it stays in the page. */
const announcer = h('div', { class: 'sr-only', role: 'status', 'aria-live': 'polite', id: 'run-announcement' });
document.body.append(announcer);
let revealedRun = -1;

/**
 * After Run, once per run: the results (below the builder, often out of view) scroll into view and take the
 * focus, and the live region says how many rows came, so something visibly and audibly happens.
 */
function revealResults(announcement: string): void {
  if (revealedRun === state.runId || !resultsHost) return;
  revealedRun = state.runId;
  announcer.textContent = announcement;
  const status = resultsHost.querySelector<HTMLElement>('#run-status');
  status?.setAttribute('tabindex', '-1');
  resultsHost.scrollIntoView({ block: 'start' });
  status?.focus({ preventScroll: true });
}

const app = document.getElementById('app')!;
let resultsHost: HTMLElement | undefined;

function toolbar(): HTMLElement {
  const valid = state.query !== null && !state.problems.some((p) => p.severity === 'error') && domainOf(state.query) !== undefined;
  return h(
    'div',
    { class: 'toolbar' },
    h('button', { id: 'run', class: 'primary', disabled: !valid, onclick: () => send({ type: 'run' }) }, 'Run'),
    h('button', { disabled: !valid, onclick: () => send({ type: 'export', format: 'csv' }) }, 'Export CSV…'),
    h('button', { disabled: !valid, onclick: () => send({ type: 'export', format: 'json' }) }, 'Export JSON…'),
    h('button', { class: 'secondary', onclick: () => send({ type: 'openAsText' }) }, 'Edit as text'),
  );
}

function renderResults(): void {
  if (!resultsHost) return;
  const scroll = tableScroller?.scrollTop ?? 0;
  chart?.destroy();
  chart = undefined;
  resultsHost.replaceChildren(resultsView());
  if (tableScroller) tableScroller.scrollTop = scroll;
  reportState();
}

/** Where the focused control sits in the panel, as child indices from #app, to find its successor after a render. */
function focusPath(): number[] | undefined {
  const path: number[] = [];
  for (let el = document.activeElement; el && el !== app; el = el.parentElement) {
    const parent: Element | null = el.parentElement;
    if (!parent) return undefined;
    path.unshift(Array.prototype.indexOf.call(parent.children, el) as number);
  }
  return document.activeElement && document.activeElement !== document.body ? path : undefined;
}

function restoreFocus(path: number[] | undefined, tag: string | undefined): void {
  if (!path) return;
  let el: Element | undefined = app;
  for (const i of path) el = el?.children[i];
  // Every change rebuilds the builder; keyboard users stay on the control they used.
  if (el instanceof HTMLElement && el.tagName === tag) el.focus();
}

function render(): void {
  const path = focusPath();
  const tag = document.activeElement?.tagName;
  state.problems = state.query ? validateAnalyticsQuery(state.query) : [];
  resultsHost = h('div', { id: 'results' });
  const main = state.query ? builder(state.query) : h('p', { class: 'status error' }, state.parseError ?? 'The file cannot be read as a query.');
  app.replaceChildren(toolbar(), main, resultsHost);
  app.removeAttribute('aria-busy');
  renderResults();
  restoreFocus(path, tag);
}

function reportState(): void {
  send({
    type: 'state',
    version: state.version,
    domain: state.query ? (domainOf(state.query) ?? null) : null,
    query: state.query,
    problems: state.problems.map((p) => ({ code: p.code, severity: p.severity, message: p.message })),
    shownRows: state.rows.length,
    chart: state.chart,
  });
}

function parse(text: string): { query: Query | null; error?: string } {
  if (text.trim() === '') return { query: {} };
  try {
    const v: unknown = JSON.parse(text);
    if (v && typeof v === 'object' && !Array.isArray(v)) return { query: v as Query };
    return { query: null, error: 'The file must hold one JSON object (the analytics query).' };
  } catch (err) {
    return { query: null, error: `The JSON text does not parse (${(err as Error).message}); fix it in the text editor to build visually.` };
  }
}

function onMessage(message: HostToPanel): void {
  switch (message.type) {
    case 'document': {
      const { query, error } = parse(message.text);
      state.version = message.version;
      // Our own edit coming back (or a change that leaves the object as it is) needs no new render.
      if (query && state.query && JSON.stringify(query) === JSON.stringify(state.query) && !state.parseError) {
        reportState();
        return;
      }
      state.query = query;
      state.parseError = error;
      render();
      return;
    }
    case 'runStarted':
      Object.assign(state, { runId: message.runId, running: true, rows: [], fetched: 0, hasMore: false, note: undefined, error: undefined, loadingMore: false, ranQuery: JSON.stringify(state.query) });
      if (tableScroller) tableScroller.scrollTop = 0;
      renderResults();
      return;
    case 'rows':
      if (message.runId !== state.runId) return;
      state.rows.push(...message.rows);
      Object.assign(state, { fetched: message.fetched, hasMore: message.hasMore, note: message.note, running: message.hasMore, loadingMore: false });
      renderResults();
      revealResults(`${statusText()}.`);
      return;
    case 'runFailed':
      if (message.runId !== state.runId) return;
      Object.assign(state, { error: message.message, running: false, hasMore: false, loadingMore: false });
      renderResults();
      revealResults(`The query failed: ${message.message}`);
      return;
    case 'labels':
      for (const [k, v] of Object.entries(message.records)) state.recordLabels.set(k, v);
      for (const [k, v] of Object.entries(message.users)) state.userLabels.set(k, v);
      renderResults();
      return;
    case 'exportDone':
      state.exportMessage = message.message;
      renderResults();
      return;
    case 'setChart':
      setChart(message.chart);
      return;
  }
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const parsed = HostToPanelSchema.safeParse(event.data);
  if (!parsed.success) {
    console.warn('analytics panel: ignored a malformed message', parsed.error.issues[0]?.message);
    return;
  }
  onMessage(parsed.data);
});

// Theme switches change the CSS variables the chart reads its colours from.
new MutationObserver(() => {
  if (state.view === 'chart') renderResults();
}).observe(document.body, { attributes: true, attributeFilter: ['class'] });

send({ type: 'ready' });
