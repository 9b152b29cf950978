// Streams every page of a query to a CSV or JSON file without rendering anything: each page is
// written as it arrives, so memory stays at one page however many results there are.
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import type { DamClient } from '../../api/client';
import { Pager } from './pager';
import type { QueryRequest } from './request';
import { CSV_COLUMNS, csvLine, csvRecordLine } from './rows';

export type ExportFormat = 'csv' | 'json';

export interface ExportProgress {
  written: number;
  totalCount: number | null;
}

async function write(stream: WriteStream, chunk: string): Promise<void> {
  if (!stream.write(chunk)) await once(stream, 'drain');
}

/** Writes every result to `file`; resolves with the number of rows written. An abort leaves a partial file and rejects. */
export async function exportResults(
  client: DamClient,
  request: QueryRequest,
  format: ExportFormat,
  file: string,
  options: { pageSize?: number; signal?: AbortSignal; onProgress?: (p: ExportProgress) => void } = {},
): Promise<number> {
  const pager = new Pager(client, request, options.pageSize ?? 100, options.signal);
  const stream = createWriteStream(file, { encoding: 'utf8' });
  const closed = new Promise<void>((resolve, reject) => {
    stream.once('close', resolve);
    stream.once('error', reject);
  });
  let written = 0;
  try {
    if (format === 'csv') await write(stream, csvLine(request.target === 'classifications' ? ['id', 'name', 'type', 'namePath', 'createdOn', 'modifiedOn'] : CSV_COLUMNS));
    else await write(stream, '[');
    while (!pager.done) {
      options.signal?.throwIfAborted();
      const page = await pager.next();
      let chunk = '';
      for (const item of page.items) {
        if (format === 'csv') chunk += csvRecordLine(item, request.target);
        else chunk += `${written === 0 ? '\n' : ',\n'}${JSON.stringify(stripLinks(item))}`;
        written++;
      }
      if (chunk) await write(stream, chunk);
      options.onProgress?.({ written, totalCount: page.totalCount });
    }
    if (format === 'json') await write(stream, written === 0 ? ']\n' : '\n]\n');
  } finally {
    stream.end();
    await pager.dispose();
    await closed;
  }
  return written;
}

/** HAL links carry the service's addresses and tokens in download URIs: an export keeps the data only. */
function stripLinks(item: Record<string, unknown>): Record<string, unknown> {
  const { _links: _l, _embedded: _e, ...rest } = item;
  return rest;
}
