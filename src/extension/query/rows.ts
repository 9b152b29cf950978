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

/**
 * Names for the ids a field value holds: an option list's entries, classifications, languages. Undefined keeps
 * the id (a name the export could not read is better shown as the id than dropped).
 */
export interface ValueNames {
  option(fieldId: string, optionId: string): string | undefined;
  classification(id: string): string | undefined;
  language(id: string): string | undefined;
}

type WireField = { id?: unknown; fieldName?: unknown; label?: unknown; dataType?: unknown; localizedValues?: unknown };

function fieldsOf(item: Record<string, unknown>): WireField[] {
  const fields = item.fields as unknown;
  const list = Array.isArray(fields) ? fields : Array.isArray((fields as { items?: unknown } | null)?.items) ? (fields as { items: unknown[] }).items : [];
  return list.filter((f): f is WireField => !!f && typeof f === 'object');
}

function rawValues(localizedValues: unknown): unknown[] {
  if (!Array.isArray(localizedValues)) return [];
  return (localizedValues as { value?: unknown; values?: unknown[] }[]).flatMap((lv) =>
    Array.isArray(lv?.values) ? lv.values : lv?.value === undefined || lv?.value === null ? [] : [lv.value],
  );
}

/** The classification ids a record's ClassificationList fields hold (the export reads their name paths first). */
export function classificationIdsOf(item: Record<string, unknown>): string[] {
  return fieldsOf(item)
    .filter((f) => str(f.dataType).toLowerCase() === 'classificationlist')
    .flatMap((f) => rawValues(f.localizedValues))
    .map((v) => (typeof v === 'object' && v !== null ? str((v as { id?: unknown }).id) : str(v)))
    .filter((id) => id !== '');
}

/**
 * A field value as a CSV cell: scalars as they are, list entries by their label or name (ids of options,
 * classifications and languages through `names`), several values joined by "; ".
 */
function fieldText(field: WireField, names?: ValueNames): string {
  const type = str(field.dataType).toLowerCase();
  const texts: string[] = [];
  for (const v of rawValues(field.localizedValues)) {
    if (v === null || v === undefined) continue;
    if (typeof v === 'object') {
      const o = v as Record<string, unknown>;
      texts.push(str(o.label ?? o.name ?? o.value ?? o.id ?? JSON.stringify(o)));
      continue;
    }
    const text = str(v);
    const named =
      type === 'optionlist' ? names?.option(str(field.id), text)
      : type === 'classificationlist' ? names?.classification(text)
      : type === 'languagelist' ? names?.language(text)
      : undefined;
    texts.push(named ?? text);
  }
  return [...new Set(texts)].join('; ');
}

/**
 * A record as named CSV cells: every property it carries (objects as JSON) and each field value under
 * `field: <name>`. The export takes the union of these names over all rows as its columns.
 */
export function recordCells(item: Record<string, unknown>, names?: ValueNames): Record<string, string> {
  const cells: Record<string, string> = {};
  for (const [key, value] of Object.entries(item)) {
    if (key === '_links' || key === '_embedded' || key === 'fields') continue;
    cells[key] = value !== null && typeof value === 'object' ? JSON.stringify(value) : str(value);
  }
  for (const f of fieldsOf(item)) {
    const name = str(f.fieldName ?? f.label ?? f.id);
    if (name) cells[`field: ${name}`] = fieldText(f, names);
  }
  return cells;
}

/**
 * A classification as named CSV cells: every property it carries, its labels as their texts (one per language,
 * joined by "; ") rather than JSON, other objects as JSON.
 */
export function classificationCells(item: Record<string, unknown>): Record<string, string> {
  const cells: Record<string, string> = {};
  for (const [key, value] of Object.entries(item)) {
    if (key === '_links' || key === '_embedded') continue;
    if (key === 'labels' && Array.isArray(value)) {
      cells.labels = [...new Set(value.map((l) => str((l as { value?: unknown } | null)?.value)).filter((t) => t !== ''))].join('; ');
    } else cells[key] = value !== null && typeof value === 'object' ? JSON.stringify(value) : str(value);
  }
  return cells;
}

export const CLASSIFICATION_CSV_COLUMNS = ['id', 'name', 'namePath', 'createdOn', 'modifiedOn'] as const;

/** The columns of an export: the fixed ones first, then every other name in the order it first appeared. */
export function exportColumns(seen: Iterable<string>, target: 'records' | 'classifications' = 'records'): string[] {
  const fixed: readonly string[] = target === 'classifications' ? CLASSIFICATION_CSV_COLUMNS : CSV_COLUMNS;
  return [...fixed, ...[...seen].filter((c) => !fixed.includes(c))];
}
