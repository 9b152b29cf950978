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
