// Streams every page of a query to a CSV or JSON file without rendering anything: each page is
// written as it arrives, so memory stays at one page however many results there are.
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import type { DamClient } from '../../api/client';
import { Pager } from './pager';
import type { QueryRequest } from './request';
import { classificationCells, classificationIdsOf, csvLine, exportColumns, recordCells } from './rows';
import { ExportValueNames } from './valueNames';

export type ExportFormat = 'csv' | 'json';

export interface ExportProgress {
  written: number;
  totalCount: number | null;
}

async function write(stream: WriteStream, chunk: string): Promise<void> {
  if (!stream.write(chunk)) await once(stream, 'drain');
}

/**
 * Writes every result to `file`; resolves with the number of rows written. An abort leaves a partial file and rejects.
 * A CSV has a column for every property (and, for records, every field value) any row carries: the rows go to a
 * scratch file first (memory stays at one page) while the columns are collected, then the CSV is written from it.
 * Field values that hold ids (option lists, classifications, languages) are written by their names.
 */
export async function exportResults(
  client: DamClient,
  request: QueryRequest,
  format: ExportFormat,
  file: string,
  options: { pageSize?: number; signal?: AbortSignal; onProgress?: (p: ExportProgress) => void } = {},
): Promise<number> {
  const allColumns = format === 'csv';
  const records = request.target !== 'classifications';
  const read = allColumns ? (records ? { plain: true, select: { resources: { record: ['fields'] } } } : { plain: true }) : {};
  const names = allColumns && records ? await ExportValueNames.load(client, options.signal) : undefined;
  const pager = new Pager(client, request, options.pageSize ?? 100, options.signal, read);
  const scratch = `${file}.rows.part`;
  const stream = createWriteStream(allColumns ? scratch : file, { encoding: 'utf8' });
  const closed = new Promise<void>((resolve, reject) => {
    stream.once('close', resolve);
    stream.once('error', reject);
  });
  const columns = new Set<string>();
  let written = 0;
  try {
    if (format === 'json') await write(stream, '[');
    while (!pager.done) {
      options.signal?.throwIfAborted();
      const page = await pager.next();
      let chunk = '';
      await names?.readClassifications(new Set(page.items.flatMap(classificationIdsOf)));
      for (const item of page.items) {
        if (allColumns) {
          const cells = records ? recordCells(item, names) : classificationCells(item);
          for (const name of Object.keys(cells)) columns.add(name);
          chunk += `${JSON.stringify(cells)}\n`;
        } else chunk += `${written === 0 ? '\n' : ',\n'}${JSON.stringify(stripLinks(item))}`;
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
  if (allColumns) {
    try {
      await writeCsvFrom(scratch, file, exportColumns(columns, request.target), options.signal);
    } finally {
      await rm(scratch, { force: true });
    }
  }
  return written;
}

/** The CSV from the scratch file of named cells: the header, then one line per row with every column. */
async function writeCsvFrom(scratch: string, file: string, columns: string[], signal?: AbortSignal): Promise<void> {
  const out = createWriteStream(file, { encoding: 'utf8' });
  const closed = new Promise<void>((resolve, reject) => {
    out.once('close', resolve);
    out.once('error', reject);
  });
  try {
    await write(out, csvLine(columns));
    const lines = createInterface({ input: createReadStream(scratch, { encoding: 'utf8' }), crlfDelay: Infinity });
    for await (const line of lines) {
      signal?.throwIfAborted();
      if (!line) continue;
      const cells = JSON.parse(line) as Record<string, string>;
      await write(out, csvLine(columns.map((c) => cells[c] ?? '')));
    }
  } finally {
    out.end();
    await closed;
  }
}

/** HAL links carry the service's addresses and tokens in download URIs: an export keeps the data only. */
function stripLinks(item: Record<string, unknown>): Record<string, unknown> {
  const { _links: _l, _embedded: _e, ...rest } = item;
  return rest;
}
