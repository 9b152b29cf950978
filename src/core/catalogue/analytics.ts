// Analytics members, read from the one analytics catalogue the query language already uses (core/analytics), with
// their sources: the spec's table, the members its examples use beyond it, and the time buckets live queries ask for.
import { factDomains, granularities, joinedGroups } from '../analytics';
import type { AnalyticsMemberEntry, Source } from './model';
import { notes, spec } from './sources';

const TABLE = spec('Analytics data domains');
const EXAMPLES = spec('Analytics data domains: "examples also use"');
const BUCKETS = notes('Analytics: timeDimensions, a time bucket keyed <Domain>.<dim>.<granularity>');

/** Members the spec names only in its examples ("examples also use classificationId", …). */
const FROM_EXAMPLES = new Set(['Classifications.classificationId', 'Collections.collectionId', 'Spaces.spaceId', 'ZeroDownloadRecords.recordId', 'ZeroViewRecords.recordId']);

function entries(): AnalyticsMemberEntry[] {
  const out: AnalyticsMemberEntry[] = [];
  const add = (name: string, kind: AnalyticsMemberEntry['kind'], type: AnalyticsMemberEntry['type'], sources: readonly Source[]) => out.push({ name, kind, type, sources });
  const domains: Record<string, { measures?: Record<string, string>; dimensions?: Record<string, string> } | Record<string, string>> = { ...factDomains, ...joinedGroups };
  for (const [domain, def] of Object.entries(domains)) {
    const measures = 'measures' in def ? (def.measures as Record<string, string>) : {};
    const dimensions = 'dimensions' in def ? (def.dimensions as Record<string, string>) : (def as Record<string, string>);
    for (const [m, type] of Object.entries(measures)) add(`${domain}.${m}`, 'measure', type as AnalyticsMemberEntry['type'], [TABLE]);
    for (const [d, type] of Object.entries(dimensions)) {
      const name = `${domain}.${d}`;
      add(name, 'dimension', type as AnalyticsMemberEntry['type'], [FROM_EXAMPLES.has(name) ? EXAMPLES : TABLE]);
      if (type === 'time') for (const g of granularities) add(`${name}.${g}`, 'dimension', 'time', [BUCKETS]);
    }
  }
  return out;
}

export const analytics: AnalyticsMemberEntry[] = entries();
