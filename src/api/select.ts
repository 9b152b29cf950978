// Builder for the `select-*`, `languages` and `select-resolve-default-values` request headers.

/**
 * A selection as data: `resources` maps a resource type to the select-keys to embed for it, e.g.
 * `{ record: ['fields', 'classifications'], field: ['definition'] }`. Nested headers apply to
 * embedded resources of that type (spec, "Selecting").
 */
export interface Selection {
  resources?: Record<string, readonly string[]>;
  /** Field ids or names for `select-record-fields`; names are percent-encoded for you. */
  recordFields?: readonly string[];
  /** Field group ids or names for `select-record-fieldgroups`. */
  recordFieldGroups?: readonly string[];
  /** `select-resolve-default-values`. */
  resolveDefaultValues?: boolean;
  /** One language id, several, or `'*'` for all. */
  languages?: string | readonly string[];
}

const RESOURCE_NAME = /^[a-z][a-z0-9]*$/;
const SELECT_KEY = /^[A-Za-z][A-Za-z0-9_.-]*$/;

/**
 * Percent-encodes one field or field-group name for a list header. encodeURIComponent turns the
 * comma into %2C, as the spec requires for names containing one.
 */
export function encodeSelectName(name: string): string {
  return encodeURIComponent(name);
}

function addList(headers: Record<string, string>, name: string, values: readonly string[], encode: (v: string) => string): void {
  if (values.length === 0) return;
  headers[name] = values.map(encode).join(',');
}

/** The headers for a selection; merge them into a request's headers. */
export function selectHeaders(selection: Selection): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [resource, keys] of Object.entries(selection.resources ?? {})) {
    const type = resource.toLowerCase();
    if (!RESOURCE_NAME.test(type)) throw new Error(`'${resource}' is not a resource type name for a select header`);
    for (const key of keys) {
      if (!SELECT_KEY.test(key)) throw new Error(`'${key}' is not a select-key (take it from a link's select-key)`);
    }
    const unique = [...new Set(keys)];
    addList(headers, `select-${type}`, unique, (k) => k);
  }
  addList(headers, 'select-record-fields', selection.recordFields ?? [], encodeSelectName);
  addList(headers, 'select-record-fieldgroups', selection.recordFieldGroups ?? [], encodeSelectName);
  if (selection.resolveDefaultValues !== undefined) headers['select-resolve-default-values'] = String(selection.resolveDefaultValues);
  if (selection.languages !== undefined) {
    const langs = typeof selection.languages === 'string' ? [selection.languages] : selection.languages;
    if (langs.length > 0) headers.languages = langs.join(',');
  }
  return headers;
}

/** Fluent form of `selectHeaders`: `select().resource('record', 'fields').languages('*').headers()`. */
export class SelectBuilder {
  private readonly selection: Required<Pick<Selection, 'resources'>> & Selection = { resources: {} };

  resource(type: string, ...keys: string[]): this {
    const current = this.selection.resources[type] ?? [];
    this.selection.resources = { ...this.selection.resources, [type]: [...current, ...keys] };
    return this;
  }

  recordFields(...namesOrIds: string[]): this {
    this.selection.recordFields = [...(this.selection.recordFields ?? []), ...namesOrIds];
    return this;
  }

  recordFieldGroups(...namesOrIds: string[]): this {
    this.selection.recordFieldGroups = [...(this.selection.recordFieldGroups ?? []), ...namesOrIds];
    return this;
  }

  resolveDefaultValues(value: boolean): this {
    this.selection.resolveDefaultValues = value;
    return this;
  }

  languages(...ids: string[]): this {
    this.selection.languages = ids;
    return this;
  }

  build(): Selection {
    return { ...this.selection };
  }

  headers(): Record<string, string> {
    return selectHeaders(this.selection);
  }
}

export function select(): SelectBuilder {
  return new SelectBuilder();
}

/**
 * Parses the CLI form `record=fields,files;field=definition` into a Selection (used by `dam get`).
 */
export function parseSelectSpec(spec: string): Selection {
  // A Map: the resource names are the user's (`constructor=…` must not find Object.prototype's).
  const resources = new Map<string, string[]>();
  for (const part of spec.split(';').map((p) => p.trim()).filter(Boolean)) {
    const eq = part.indexOf('=');
    if (eq <= 0) throw new Error(`'${part}' is not <resource>=<key>,<key>`);
    const type = part.slice(0, eq).trim();
    resources.set(type, [...(resources.get(type) ?? []), ...part.slice(eq + 1).split(',').map((k) => k.trim()).filter(Boolean)]);
  }
  return { resources: Object.fromEntries(resources) };
}
