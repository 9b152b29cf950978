// Facets of a records search (real-service-notes, second round): for each facet asked, the most frequent values among
// the matching records with their counts; a facet with more values than its `maximumFacetValues` is named in
// `truncatedFacets`. Counted in SQL over the search's own condition, so a facet never disagrees with `totalCount`.
import { guidKey } from '../../core/search';
import type { EmulatorContext } from '../context';
import { errors } from '../errors';
import type { SqlParam } from '../storage/store';
import type { FieldDef } from './compile';

export type FacetType = 'createdBy' | 'contentType' | 'textField';

export interface FacetRequest {
  name: string;
  type: FacetType;
  fieldId?: string;
  maximumFacetValues?: number;
  caseSensitive?: boolean;
}

export interface FacetValue {
  value: string;
  count: number;
}

export interface FacetResult {
  name: string;
  type: FacetType;
  fieldId?: string;
  values: FacetValue[];
}

/** Values a facet returns when the request does not say; a tenant's own default is not documented. */
export const DEFAULT_FACET_VALUES = 10;
const MAX_FACET_VALUES = 1000;

export async function countFacets(
  ctx: EmulatorContext,
  facets: readonly FacetRequest[],
  where: string,
  whereParams: readonly SqlParam[],
  resolveField: (by: 'id', key: string) => FieldDef | undefined,
): Promise<{ facets: FacetResult[]; truncatedFacets: string[] }> {
  const out: FacetResult[] = [];
  const truncated: string[] = [];
  for (const facet of facets) {
    const max = Math.min(MAX_FACET_VALUES, Math.max(1, facet.maximumFacetValues ?? DEFAULT_FACET_VALUES));
    const params: SqlParam[] = [...whereParams];
    const bind = (v: SqlParam) => `$${params.push(v)}`;
    const fold = (sql: string) => (facet.caseSensitive ? sql : `lower(${sql})`);
    let sql: string;
    if (facet.type === 'contentType') {
      sql = `SELECT ${fold('r.content_type')} AS v, count(*)::int AS n FROM records r WHERE ${where} GROUP BY 1`;
    } else if (facet.type === 'createdBy') {
      sql = `SELECT r.created_by::text AS v, count(*)::int AS n FROM records r WHERE ${where} GROUP BY 1`;
    } else {
      const def = facet.fieldId ? resolveField('id', facet.fieldId) : undefined;
      if (!def) throw errors.badRequest(`The textField facet '${facet.name}' needs the fieldId of a field definition${facet.fieldId ? ` ('${guidKey(facet.fieldId).slice(0, 40)}' is none)` : ''}.`);
      sql = `SELECT ${fold('fv.value_text')} AS v, count(DISTINCT r.id)::int AS n FROM records r JOIN field_values fv ON fv.record_id = r.uid
        WHERE fv.field_id = dam_uid(${bind(def.id)}::text) AND coalesce(fv.value_text, '') <> '' AND (${where}) GROUP BY 1`;
    }
    const rows = await ctx.store.query<{ v: string | null; n: number }>(`${sql} ORDER BY n DESC, v LIMIT ${max + 1}`, params);
    if (rows.length > max) truncated.push(facet.name);
    out.push({
      name: facet.name,
      type: facet.type,
      ...(facet.type === 'textField' ? { fieldId: guidKey(facet.fieldId ?? '') } : {}),
      values: rows.slice(0, max).map((r) => ({ value: r.v ?? '', count: r.n })),
    });
  }
  return { facets: out, truncatedFacets: truncated };
}
