// Records and classifications as table rows and as export lines. Pure, so the CSV rules are unit-tested.
import type { ResultRow } from './resultsMessages';

type Loose = Record<string, unknown> & { id: string; _links?: unknown };

function str(v: unknown): string {
  return v === null || v === undefined ? '' : String(v);
}

function hasLink(item: Loose, rel: string): boolean {
  const links = item._links as Record<string, unknown> | undefined;
  return !!links && typeof links === 'object' && rel in links && !!links[rel];
}

export function rowOf(item: Loose, target: 'records' | 'classifications'): ResultRow {
  if (target === 'classifications') {
    const labels = item.labels as { value?: string | null }[] | null | undefined;
    return {
      id: item.id,
      title: str(labels?.find((l) => l.value)?.value ?? item.name ?? item.identifier),
      contentType: 'Classification',
      status: str(item.namePath),
      modified: str(item.modifiedOn),
      hasThumbnail: false,
    };
  }
  return {
    id: item.id,
    title: str(item.title),
    contentType: str(item.contentType),
    status: str(item.status),
    modified: str(item.modifiedOn),
    hasThumbnail: hasLink(item, 'thumbnail'),
  };
}

export const CSV_COLUMNS = ['id', 'title', 'contentType', 'status', 'createdOn', 'modifiedOn'] as const;

/** One CSV line (RFC 4180): fields with a quote, comma or line break are quoted, quotes doubled. */
export function csvLine(values: readonly unknown[]): string {
  return (
    values
      .map((v) => {
        const s = str(v);
        return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
      })
      .join(',') + '\r\n'
  );
}

export function csvRecordLine(item: Record<string, unknown>, target: 'records' | 'classifications'): string {
  if (target === 'classifications') return csvLine([item.id, item.name, 'Classification', item.namePath, item.createdOn, item.modifiedOn]);
  return csvLine(CSV_COLUMNS.map((c) => item[c]));
}

/** A field value as a CSV cell: scalars as they are, list entries by their label or name, several values joined by "; ". */
function fieldText(localizedValues: unknown): string {
  if (!Array.isArray(localizedValues)) return '';
  const texts: string[] = [];
  for (const lv of localizedValues as { value?: unknown; values?: unknown[] }[]) {
    const raw = Array.isArray(lv?.values) ? lv.values : lv?.value === undefined || lv?.value === null ? [] : [lv.value];
    for (const v of raw) {
      if (v === null || v === undefined) continue;
      if (typeof v === 'object') {
        const o = v as Record<string, unknown>;
        texts.push(str(o.label ?? o.name ?? o.value ?? o.id ?? JSON.stringify(o)));
      } else texts.push(str(v));
    }
  }
  return [...new Set(texts)].join('; ');
}

/**
 * A record as named CSV cells: every property it carries (objects as JSON) and each field value under
 * `field: <name>`. The export takes the union of these names over all rows as its columns.
 */
export function recordCells(item: Record<string, unknown>): Record<string, string> {
  const cells: Record<string, string> = {};
  for (const [key, value] of Object.entries(item)) {
    if (key === '_links' || key === '_embedded' || key === 'fields') continue;
    cells[key] = value !== null && typeof value === 'object' ? JSON.stringify(value) : str(value);
  }
  const fields = item.fields as unknown;
  const list = Array.isArray(fields) ? fields : Array.isArray((fields as { items?: unknown } | null)?.items) ? (fields as { items: unknown[] }).items : [];
  for (const f of list as Record<string, unknown>[]) {
    const name = str(f?.fieldName ?? f?.label ?? f?.id);
    if (name) cells[`field: ${name}`] = fieldText(f.localizedValues);
  }
  return cells;
}

/** The columns of an export: the fixed ones first, then every other name in the order it first appeared. */
export function exportColumns(seen: Iterable<string>): string[] {
  const rest = [...seen].filter((c) => !(CSV_COLUMNS as readonly string[]).includes(c));
  return [...CSV_COLUMNS, ...rest];
}
