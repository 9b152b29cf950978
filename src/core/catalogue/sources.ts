// The catalogue's shorthand: named sources, and one-line member and relation lists, so a data line reads like the
// service's model it was copied from (`id:guid title:string? createdOn:date-time`).
import type { MemberEntry, MemberType, RelationEntry, Source } from './model';

export const spec = (ref: string): Source => ({ kind: 'spec', ref });
export const notes = (ref: string): Source => ({ kind: 'notes', ref });
export const contract = (ref: string): Source => ({ kind: 'contract', ref });
export const docs = (ref: string): Source => ({ kind: 'docs', ref });
export const client = (ref: string): Source => ({ kind: 'client', ref });

/** aprimo-js, the public TypeScript SDK whose models are typed from the service's own OpenAPI document. */
export const sdkModel = (name: string): Source => ({ kind: 'sdk', ref: `timw255/aprimo-js src/model/${name}.ts` });
export const sdkModule = (name: string): Source => ({ kind: 'sdk', ref: `timw255/aprimo-js src/modules/${name}/index.ts` });

/** The service's own documentation page (GET {core_url}/docs on a tenant). */
export const CORE_DOCS = docs('https://training3.dam.aprimo.com/api/core/docs');
/** The record resource's page of that documentation (its properties with their types and values). */
export const RECORD_DOCS = docs('https://training3.dam.aprimo.com/api/core/docs/resources/record');
/** Work-management route list and the tasks page of the developer documentation. */
export const OPS_ROUTES = docs('https://developers.aprimo.com/marketing-operations/rest-api/routes/');
export const OPS_TASKS = docs('https://developers.aprimo.com/marketing-operations/rest-api/routes/tasks/');
export const SELECT_DOCS = docs('https://developers.aprimo.com/?p=2754');
export const NOTES_CORE = notes('Core resources (property names, camelCase)');
export const NOTES_FILES = notes('More of what public clients send and read: Records and files');

const TYPES: readonly MemberType[] = ['string', 'guid', 'date-time', 'integer', 'number', 'boolean', 'object', 'array', 'string|null'];

/**
 * Members from a line of `name:type` words. `?` after the type: the service may answer null; `!`: shown only when
 * selected (`select-<resource>: <name>`).
 */
export function members(line: string, sources: readonly Source[], note?: string): MemberEntry[] {
  return line
    .trim()
    .split(/\s+/)
    .map((word) => {
      const m = /^([A-Za-z0-9_]+):([a-z|-]+)([?!]*)$/.exec(word);
      if (!m || !TYPES.includes(m[2] as MemberType)) throw new Error(`catalogue: bad member '${word}'`);
      const entry: MemberEntry = { name: m[1], type: m[2] as MemberType, sources };
      return {
        ...entry,
        ...(m[3].includes('?') ? { nullable: true } : {}),
        ...(m[3].includes('!') ? { selectOnly: true } : {}),
        ...(note ? { note } : {}),
      };
    });
}

/**
 * Relations from a line of `rel:target` words; `[]` after the target: a collection; `rel=key:target` when the
 * select-key differs from the relation.
 */
export function relations(line: string, sources: readonly Source[], note?: string): RelationEntry[] {
  return line
    .trim()
    .split(/\s+/)
    .map((word) => {
      const m = /^([a-z]+)(?:=([a-z]+))?:([a-z]+)(\[\])?$/.exec(word);
      if (!m) throw new Error(`catalogue: bad relation '${word}'`);
      return {
        rel: m[1],
        ...(m[2] ? { selectKey: m[2] } : {}),
        target: m[3],
        ...(m[4] ? { collection: true } : {}),
        sources,
        ...(note ? { note } : {}),
      };
    });
}

/** Marks catalogued items the emulator answers differently, with why. */
export function differs<T extends { knownDifference?: string }>(items: T[], names: readonly string[], why: string, key: (t: T) => string): T[] {
  return items.map((t) => (names.includes(key(t)) ? { ...t, knownDifference: why } : t));
}
