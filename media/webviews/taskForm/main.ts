// The task form in the webview: builds the fields once, posts the whole form on every change and shows
// the extension's answer (errors next to each field, the choices the rules allow, the computed date or
// duration, the dates the service will set itself). No rule is decided here: the extension checks with the
// shared task rules. A field's error shows once the field was left (or Create pressed), not before.
import { HostToPanelSchema, type HostToPanel, type PanelToHost, type TaskFormMessageValues } from '../../../src/extension/tasks/messages';

declare function acquireVsCodeApi(): { postMessage(message: unknown): void };
const vscode = acquireVsCodeApi();
const send = (message: PanelToHost) => vscode.postMessage(message);

type Values = TaskFormMessageValues;
type Init = Extract<HostToPanel, { type: 'init' }>;
type Validation = Extract<HostToPanel, { type: 'validation' }>;
type Field = keyof Validation['errors'];

const app = document.getElementById('app')!;
let seq = 0;
let lastSeen = -1;
let values: Values | undefined;
const errorSlots = new Map<Field, HTMLElement>();
const controls = new Map<Field, HTMLElement[]>();
let computedSlots: Record<'beginDate' | 'endDate' | 'duration', HTMLElement> | undefined;
let derivedSlot: HTMLElement;
/** Fields the user has left at least once: only their errors show until Create is pressed. */
const touched = new Set<Field>();
let submitted = false;
let lastValidation: Validation | undefined;
let statusSelect: HTMLSelectElement;
let startSelect: HTMLSelectElement;
let calendarSelect: HTMLSelectElement;
let createButton: HTMLButtonElement;
let result: HTMLElement;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

/** A labelled field with its inline error (announced by screen readers through aria-describedby). */
function field(key: Field, label: string, control: HTMLElement | HTMLElement[], hint?: string): HTMLElement {
  const list = Array.isArray(control) ? control : [control];
  const error = el('div', { className: 'error', id: `err-${key}` });
  error.setAttribute('role', 'alert');
  errorSlots.set(key, error);
  controls.set(key, [...(controls.get(key) ?? []), ...list]);
  for (const c of list) c.setAttribute('aria-describedby', `err-${key}`);
  const first = list[0]!;
  const wrap = el('div', { className: 'field' });
  // The first control carries the label (a date field's computed value beside it is no control).
  if (first.id && (first instanceof HTMLInputElement || first instanceof HTMLSelectElement)) wrap.append(el('label', { htmlFor: first.id }, label));
  else wrap.append(el('span', { className: 'label' }, label));
  for (const c of list) {
    // Validate on blur: leaving a field (or changing a choice) makes its error show from then on.
    c.addEventListener('focusout', () => touch(key));
    c.addEventListener('change', () => touch(key));
  }
  wrap.append(el('div', { className: 'controls' }, ...list));
  if (hint) wrap.append(el('div', { className: 'hint' }, hint));
  wrap.append(error);
  return wrap;
}

function input(id: keyof Values, type = 'text', extra: Partial<HTMLInputElement> = {}): HTMLInputElement {
  const node = el('input', { id, type, ...extra });
  const v = values![id];
  if (type === 'checkbox') node.checked = v === true;
  else node.value = String(v ?? '');
  node.addEventListener(type === 'checkbox' ? 'change' : 'input', () => {
    (values as Record<string, unknown>)[id] = type === 'checkbox' ? node.checked : node.value;
    changed();
  });
  return node;
}

function select(id: keyof Values, options: { value: string; label: string }[]): HTMLSelectElement {
  const node = el('select', { id });
  fillSelect(node, options, String(values![id]));
  node.addEventListener('change', () => {
    (values as Record<string, unknown>)[id] = node.value;
    changed();
  });
  return node;
}

function fillSelect(node: HTMLSelectElement, options: { value: string; label: string }[], current: string): void {
  const same = node.options.length === options.length && options.every((o, i) => node.options[i]!.value === o.value && node.options[i]!.text === o.label);
  if (!same) {
    node.replaceChildren(...options.map((o) => el('option', { value: o.value, text: o.label })));
  }
  node.value = options.some((o) => o.value === current) ? current : '';
}

function changed(): void {
  send({ type: 'change', seq: ++seq, form: values! });
}

function touch(key: Field): void {
  if (touched.has(key)) return;
  touched.add(key);
  if (lastValidation) showErrors(lastValidation);
}

function build(init: Init): void {
  values = init.form;
  const projects = el('select', { id: 'projectId' });
  fillSelect(projects, [{ value: '', label: 'Choose a project…' }, ...init.projects.map((p) => ({ value: String(p.id), label: p.label }))], values.projectId);
  projects.addEventListener('change', () => {
    values!.projectId = projects.value;
    changed();
  });
  statusSelect = select('status', []);
  startSelect = select('startType', []);
  calendarSelect = select('calendarId', []);
  const durations = [
    input('durationDays', 'number', { min: '0', step: '1', title: 'days (8 hours each)' }),
    input('durationHours', 'number', { min: '0', step: '1', title: 'hours' }),
    input('durationMinutes', 'number', { min: '0', step: '1', title: 'minutes' }),
  ];
  durations.forEach((d, i) => d.setAttribute('aria-label', ['Duration days (8 hours each)', 'Duration hours', 'Duration minutes'][i]!));
  const computed = (id: string) => el('div', { className: 'computed', id });
  computedSlots = { beginDate: computed('computed-begin'), endDate: computed('computed-end'), duration: computed('computed-duration') };

  const kindAssignees = el('input', { type: 'radio', name: 'peopleKind', id: 'kind-assignees', value: 'assignees', checked: values.peopleKind === 'assignees' });
  const kindRoles = el('input', { type: 'radio', name: 'peopleKind', id: 'kind-roles', value: 'taskRoles', checked: values.peopleKind === 'taskRoles' });
  for (const r of [kindAssignees, kindRoles]) {
    r.addEventListener('change', () => {
      values!.peopleKind = r.value as Values['peopleKind'];
      roleIds.closest('.field')!.toggleAttribute('hidden', values!.peopleKind !== 'taskRoles');
      changed();
    });
  }
  const people = el('select', { id: 'principals', multiple: true, size: Math.min(8, Math.max(3, init.principals.length)) });
  // Names; a group says so, and the id is in the hover.
  people.replaceChildren(
    ...init.principals.map((p) => el('option', { value: String(p.id), text: p.kind === 'group' ? `${p.label} (group)` : p.label, title: `${p.kind} ${p.id}`, selected: values!.principals.includes(String(p.id)) })),
  );
  people.addEventListener('change', () => {
    values!.principals = Array.from(people.selectedOptions).map((o) => o.value);
    changed();
  });
  const roleIds = input('roleIds', 'text', { placeholder: 'e.g. 20, 21' });

  const workGroup = select('workGroupAction', [
    { value: '1', label: 'One must close' },
    { value: '2', label: 'Any may close' },
    { value: '3', label: 'All must close' },
  ]);

  createButton = el('button', { type: 'submit', className: 'primary', id: 'create' }, 'Create task');
  // At the top, where the eye is after Create: the outcome is announced and scrolled into view.
  result = el('div', { className: 'result', id: 'result', tabIndex: -1 });
  result.setAttribute('role', 'status');
  derivedSlot = el('p', { className: 'derived', id: 'derived' });
  derivedSlot.setAttribute('aria-live', 'polite');
  const form = el(
    'form',
    { noValidate: true },
    el('h1', {}, 'New task'),
    result,
    field('projectId', 'Project', projects),
    field('name', 'Name', input('name', 'text', { placeholder: 'New Task' })),
    field('description', 'Description', input('description')),
    field('status', 'Status', statusSelect, 'The statuses the project’s own status allows.'),
    field('startType', 'Start type', startSelect, 'The start types the task status allows.'),
    field('calendarId', 'Calendar', calendarSelect),
    el('fieldset', {},
      el('legend', {}, 'Dates: fill two, the third is computed (a day is 8 hours)'),
      derivedSlot,
      field('beginDate', 'Begin', [input('beginDate', 'datetime-local', { step: '1' }), computedSlots.beginDate]),
      field('endDate', 'End', [input('endDate', 'datetime-local', { step: '1' }), computedSlots.endDate]),
      // Each box with its unit beside it, visible (the aria-labels say the same to a screen reader).
      field('duration', 'Duration', [
        ...durations.flatMap((d, i) => [d, el('span', { className: 'unit', ariaHidden: 'true' }, ['days', 'hours', 'minutes'][i]!)]),
        computedSlots.duration,
      ]),
    ),
    el('fieldset', {},
      el('legend', {}, 'Closing'),
      field('autoClose', 'Closes by itself when its work is done', input('autoClose', 'checkbox')),
      field('workGroupAction', 'Workgroup action', workGroup),
      field('autoAccept', 'Accept automatically', input('autoAccept', 'checkbox')),
      el('div', { className: 'field' }, el('label', { htmlFor: 'canDelegate' }, 'Assignees may delegate'), el('div', { className: 'controls' }, input('canDelegate', 'checkbox'))),
    ),
    el('fieldset', {},
      el('legend', {}, 'People: assignees or task roles, not both'),
      el('div', { className: 'row' }, kindAssignees, el('label', { htmlFor: 'kind-assignees' }, 'Assignees (users or groups)'), kindRoles, el('label', { htmlFor: 'kind-roles' }, 'Task roles')),
      field('people', 'Users and groups', people),
      el('div', { className: 'field' }, el('label', { htmlFor: 'roleIds' }, 'Role ids (task roles only)'), el('div', { className: 'controls' }, roleIds)),
    ),
    field('form', '', createButton),
  );
  roleIds.closest('.field')!.toggleAttribute('hidden', values.peopleKind !== 'taskRoles');
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    submitted = true;
    send({ type: 'create', seq: ++seq, form: values! });
  });
  app.replaceChildren(form);
  app.setAttribute('aria-busy', 'false');
  projects.focus();
}

function show(v: Validation): void {
  if (v.seq < lastSeen) return; // an answer to an older keystroke
  lastSeen = v.seq;
  lastValidation = v;
  fillSelect(statusSelect, v.statuses, values!.status);
  fillSelect(startSelect, v.startTypes, values!.startType);
  fillSelect(calendarSelect, [{ value: '', label: 'The project’s default calendar' }, ...v.calendars], values!.calendarId);
  showErrors(v);
  for (const [key, list] of controls) {
    for (const c of list) if (c instanceof HTMLInputElement || c instanceof HTMLSelectElement) c.disabled = v.disabled.includes(key);
  }
  for (const [key, slot] of Object.entries(computedSlots!)) slot.textContent = v.computed?.field === key ? `computed: ${v.computed.text}` : '';
  derivedSlot.textContent = v.derived ?? '';
  createButton.disabled = false;
}

/** Errors of the fields left so far (all of them once Create was pressed); warnings always. */
function showErrors(v: Validation): void {
  for (const [key, slot] of errorSlots) {
    const error = submitted || touched.has(key) ? v.errors[key] : undefined;
    const warning = v.warnings[key];
    slot.textContent = error ?? warning ?? '';
    slot.className = error ? 'error' : warning ? 'warning' : 'error';
    for (const c of controls.get(key) ?? []) c.setAttribute('aria-invalid', error ? 'true' : 'false');
  }
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const parsed = HostToPanelSchema.safeParse(event.data);
  if (!parsed.success) {
    console.warn('task form: ignored a malformed message', parsed.error.issues[0]?.message);
    return;
  }
  const msg = parsed.data;
  switch (msg.type) {
    case 'init':
      build(msg);
      break;
    case 'validation':
      if (values) show(msg);
      break;
    case 'sending':
      createButton.disabled = true;
      result.className = 'result';
      result.textContent = 'Creating the task…';
      break;
    case 'created':
      createButton.disabled = false;
      result.className = msg.message ? 'result warning' : 'result ok';
      result.textContent = `Created task ${msg.task.id} “${msg.task.name}” (${msg.task.status}), ${readable(msg.task.beginDate)} → ${readable(msg.task.endDate)}.${msg.message ? ` The service says: ${msg.message}` : ''}`;
      reveal(result);
      break;
    case 'failed':
      createButton.disabled = false;
      result.className = 'result error';
      result.textContent = msg.message;
      reveal(result);
      break;
  }
});

function readable(date: string | null | undefined): string {
  return date ? date.replace('T', ' ').replace(/:00$/, '') : '?';
}

/** Brings the outcome into view and to the screen reader's attention. */
function reveal(node: HTMLElement): void {
  node.scrollIntoView({ block: 'nearest' });
  window.scrollTo({ top: 0 });
  node.focus();
}

send({ type: 'ready' });
