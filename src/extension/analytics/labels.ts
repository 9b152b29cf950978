// Names for the ids in analytics rows: record ids to titles and user ids to names, fetched through the
// client once per id and remembered for the panel. A page's new record ids go in batches (one search
// `Id IN (…)` per RECORD_BATCH ids); users have no batch endpoint, so a few are read at a time.
import type { AnalyticsRow } from '../../core/analytics';

export interface LabelSource {
  /** Titles of up to RECORD_BATCH records; ids missing from the answer keep the id as label. */
  recordTitles(ids: string[], signal?: AbortSignal): Promise<Map<string, string>>;
  userName(id: string, signal?: AbortSignal): Promise<string | undefined>;
}

export const RECORD_BATCH = 100;

/** The search expression and parameters that find records by id, as one batch. */
export function recordsByIdQuery(ids: readonly string[]): { expression: string; parameters: string[] } {
  return { expression: `Id IN (${ids.map(() => '?').join(', ')})`, parameters: [...ids] };
}

export interface Labels {
  records: Record<string, string>;
  users: Record<string, string>;
}

/** Columns whose values are record ids or user ids, by the member's name. */
export function idColumns(columns: readonly string[]): { records: string[]; users: string[] } {
  return {
    records: columns.filter((c) => /\.recordId$/.test(c)),
    users: columns.filter((c) => /\.userId$/.test(c)),
  };
}

const CONCURRENCY = 6;

async function concurrently(ids: string[], fetch: (id: string) => Promise<string | undefined>, into: Map<string, string>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++];
      try {
        into.set(id, (await fetch(id)) ?? id);
      } catch {
        // A deleted record or user keeps its id as its label; the row is still right.
        into.set(id, id);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, ids.length) }, worker));
}

export class LabelResolver {
  private readonly records = new Map<string, string>();
  private readonly users = new Map<string, string>();

  constructor(private readonly source: LabelSource) {}

  /** Labels for the ids in `rows` not resolved before (empty maps when there are none). */
  async resolve(rows: readonly AnalyticsRow[], signal?: AbortSignal): Promise<Labels> {
    if (rows.length === 0) return { records: {}, users: {} };
    const cols = idColumns(Object.keys(rows[0]));
    const newIds = (columns: string[], known: Map<string, string>) => {
      const ids = new Set<string>();
      for (const row of rows) for (const c of columns) {
        const v = row[c];
        if (v && !known.has(v)) ids.add(v);
      }
      return [...ids];
    };
    const recordIds = newIds(cols.records, this.records);
    const userIds = newIds(cols.users, this.users);
    const records = new Map<string, string>();
    const users = new Map<string, string>();
    const recordBatches: Promise<void>[] = [];
    for (let i = 0; i < recordIds.length; i += RECORD_BATCH) {
      const batch = recordIds.slice(i, i + RECORD_BATCH);
      recordBatches.push(
        this.source.recordTitles(batch, signal).then(
          (titles) => {
            for (const id of batch) records.set(id, titles.get(id) || id);
          },
          // A failed batch keeps the ids as labels; the rows are still right.
          () => {
            for (const id of batch) records.set(id, id);
          },
        ),
      );
    }
    await Promise.all([...recordBatches, concurrently(userIds, (id) => this.source.userName(id, signal), users)]);
    for (const [k, v] of records) this.records.set(k, v);
    for (const [k, v] of users) this.users.set(k, v);
    return { records: Object.fromEntries(records), users: Object.fromEntries(users) };
  }
}
