// The search index kept in the data folder (issue 37): a million-record tenant's start spent most of its 37 to 46 s
// reading the index from the database. The file holds the index's typed arrays as they are in memory (read back as
// views of one buffer, no parsing per value), a JSON header with the tables and keys, and the stamp of the database
// state it was read from (stamp.ts); a start whose database has another stamp rebuilds.
//
// Layout: MAGIC, the header's length (u32), the header (JSON), the arrays (each at a multiple of 8), then END and the
// CRC-32 of all before it. A file shorter than its header says, without its end or with another CRC is not used.
import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { open, rename, rm, readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { Transaction } from '../storage/store';
import { INDEX_FORMAT, searchStamp, withWrites } from './stamp';
import type { TrackedStore } from '../storage/tracking';

/** Ordinals sorted by a date column, with the dates in that order: a range is a slice. */
export interface DateOrder {
  at: Float64Array;
  ordinals: Int32Array;
}

/** A classification as the index compares it. */
export interface Classification {
  id: string;
  /** PostgreSQL's lower() of each, as the SQL compares them. */
  name: string;
  path: string;
  identifier: string | null;
  /** The name path as stored, for the subtree test (starts_with is exact). */
  namePath: string;
}

/** The arrays and tables of a CountIndex, as search/indexFile.ts writes and reads them. */
export interface CountIndexParts {
  size: number;
  dates: { created: DateOrder; modified: DateOrder; exact: boolean };
  words: { lists: Map<string, Int32Array>; vocabulary: ReadonlySet<string> | undefined };
  titleWords: { lists: Map<string, Int32Array>; vocabulary: ReadonlySet<string> | undefined };
  contentTypes: Map<string, Int32Array>;
  statuses: Map<string, Int32Array>;
  fields: Map<string, Map<string, Int32Array>>;
  classifications: Classification[];
  classified: Map<string, Int32Array>;
  ids: { all: string; starts: Uint32Array };
}

const MAGIC = Buffer.from('DAM-SEARCH-INDEX');
const END = Buffer.from('DAM-SEARCH-END\0\0');
/** The arrays are written in this machine's byte order; a file of the other order is rebuilt. */
const ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 'le' : 'be';

type ArrayKind = 'i32' | 'u32' | 'f64' | 'utf8';

interface Section {
  kind: ArrayKind;
  /** Bytes from the start of the arrays, a multiple of 8. */
  at: number;
  bytes: number;
}

/** A map of keys to ordinal lists: all lists in one array, list i from `starts[i]` to `starts[i + 1]`. */
interface ListsHeader {
  keys: string[];
  starts: number;
  values: number;
}

interface Header {
  format: number;
  endian: string;
  stamp: string;
  size: number;
  exact: boolean;
  vocabulary: string[] | null;
  titleVocabulary: string[] | null;
  classifications: Classification[];
  lists: Record<string, ListsHeader>;
  fields: string[];
  dates: { createdAt: number; createdOrdinals: number; modifiedAt: number; modifiedOrdinals: number };
  ids: { all: number; starts: number };
  sections: Section[];
  /** Bytes of the arrays (all sections and their padding). */
  body: number;
}

/** Why a saved index was not used, for the log (the start then rebuilds). */
export class NotUsed extends Error {}

const pad8 = (n: number) => (n + 7) & ~7;

/** Writes `index` (whose stamp is `stamp`) to `file` atomically: a temporary file beside it, flushed, then renamed. */
export async function writeIndexFile(file: string, p: CountIndexParts, stamp: string, beforeRename?: () => Promise<void>): Promise<number> {
  const arrays: { kind: ArrayKind; data: Uint8Array }[] = [];
  const add = (kind: ArrayKind, data: ArrayBufferView) => {
    arrays.push({ kind, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) });
    return arrays.length - 1;
  };
  const listsOf = (m: Map<string, Int32Array>): ListsHeader => {
    const keys = [...m.keys()];
    const starts = new Uint32Array(keys.length + 1);
    keys.forEach((k, i) => (starts[i + 1] = starts[i] + m.get(k)!.length));
    const values = new Int32Array(starts[keys.length]);
    keys.forEach((k, i) => values.set(m.get(k)!, starts[i]));
    return { keys, starts: add('u32', starts), values: add('i32', values) };
  };
  const lists: Record<string, ListsHeader> = {
    words: listsOf(p.words.lists),
    titleWords: listsOf(p.titleWords.lists),
    contentTypes: listsOf(p.contentTypes),
    statuses: listsOf(p.statuses),
    classified: listsOf(p.classified),
  };
  const fields = [...p.fields.keys()];
  fields.forEach((id, i) => (lists[`field${i}`] = listsOf(p.fields.get(id)!)));
  const dates = {
    createdAt: add('f64', p.dates.created.at),
    createdOrdinals: add('i32', p.dates.created.ordinals),
    modifiedAt: add('f64', p.dates.modified.at),
    modifiedOrdinals: add('i32', p.dates.modified.ordinals),
  };
  const ids = { all: add('utf8', Buffer.from(p.ids.all, 'utf8')), starts: add('u32', p.ids.starts) };
  let at = 0;
  const sections = arrays.map((a) => {
    const s = { kind: a.kind, at, bytes: a.data.byteLength };
    at += pad8(a.data.byteLength);
    return s;
  });
  const header: Header = {
    format: INDEX_FORMAT,
    endian: ENDIAN,
    stamp,
    size: p.size,
    exact: p.dates.exact,
    vocabulary: p.words.vocabulary ? [...p.words.vocabulary] : null,
    titleVocabulary: p.titleWords.vocabulary ? [...p.titleWords.vocabulary] : null,
    classifications: p.classifications,
    lists,
    fields,
    dates,
    ids,
    sections,
    body: at,
  };
  const json = Buffer.from(JSON.stringify(header));
  const head = Buffer.alloc(pad8(MAGIC.length + 4 + json.length));
  MAGIC.copy(head);
  head.writeUInt32LE(json.length, MAGIC.length);
  json.copy(head, MAGIC.length + 4);

  const temp = join(dirname(file), `${basename(file)}.${randomUUID().slice(0, 8)}.partial`);
  const fh = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  let crc = 0;
  let written = 0;
  const write = async (data: Uint8Array) => {
    crc = crc32(data, crc);
    // A large array in parts: one write of hundreds of MB holds as much again in the thread pool's copy.
    for (let off = 0; off < data.byteLength; off += 1 << 24) {
      const part = data.subarray(off, Math.min(data.byteLength, off + (1 << 24)));
      let done = 0;
      while (done < part.byteLength) done += (await fh.write(part, done, part.byteLength - done, written + done)).bytesWritten;
      written += part.byteLength;
    }
  };
  try {
    await write(head);
    const zeros = new Uint8Array(8);
    for (const a of arrays) {
      await write(a.data);
      if (pad8(a.data.byteLength) > a.data.byteLength) await write(zeros.subarray(0, pad8(a.data.byteLength) - a.data.byteLength));
    }
    const tail = Buffer.alloc(END.length + 8);
    END.copy(tail);
    tail.writeUInt32LE(crc >>> 0, END.length);
    let done = 0;
    while (done < tail.length) done += (await fh.write(tail, done, tail.length - done, written + done)).bytesWritten;
    written += tail.length;
    // On disk before the rename: a crash after it leaves the whole file or the old one, never a half one under the name.
    await fh.sync();
    await fh.close();
    await beforeRename?.();
    await rename(temp, file);
  } catch (err) {
    await fh.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw err;
  }
  // The rename itself on disk (best effort: not every platform opens a folder).
  await open(dirname(file), 'r')
    .then(async (dir) => {
      await dir.sync().catch(() => undefined);
      await dir.close();
    })
    .catch(() => undefined);
  return written;
}

/** Removes temporary files a killed save left beside `file`. */
export async function sweepPartialFiles(file: string): Promise<number> {
  const prefix = `${basename(file)}.`;
  const names = await readdir(dirname(file)).catch(() => [] as string[]);
  const partial = names.filter((n) => n.startsWith(prefix) && n.endsWith('.partial'));
  for (const n of partial) await rm(join(dirname(file), n), { force: true });
  return partial.length;
}

/**
 * The index saved in `file` if it was built from the database state `stamp` names; throws NotUsed saying why not
 * (no file, another state, another format, a damaged file). Reads only the header of a file of another state.
 */
export async function readIndexFile(file: string, stamp: string): Promise<CountIndexParts> {
  const fh = await open(file, 'r').catch((err: NodeJS.ErrnoException) => {
    throw new NotUsed(err.code === 'ENOENT' ? 'no saved index' : `the saved index cannot be read (${err.message})`);
  });
  try {
    const length = (await fh.stat()).size;
    const readAt = async (target: Uint8Array, position: number) => {
      let done = 0;
      while (done < target.byteLength) {
        const { bytesRead } = await fh.read(target, done, target.byteLength - done, position + done);
        if (bytesRead === 0) throw new NotUsed('the saved index is truncated');
        done += bytesRead;
      }
    };
    if (length < MAGIC.length + 4) throw new NotUsed('the saved index is truncated');
    const first = Buffer.alloc(MAGIC.length + 4);
    await readAt(first, 0);
    if (!first.subarray(0, MAGIC.length).equals(MAGIC)) throw new NotUsed('the saved index is not an index file');
    const jsonLength = first.readUInt32LE(MAGIC.length);
    const headLength = pad8(MAGIC.length + 4 + jsonLength);
    if (headLength + END.length + 8 > length) throw new NotUsed('the saved index is truncated');
    const json = Buffer.alloc(jsonLength);
    await readAt(json, MAGIC.length + 4);
    let header: Header;
    try {
      header = JSON.parse(json.toString('utf8')) as Header;
    } catch {
      throw new NotUsed('the saved index has a damaged header');
    }
    if (header.format !== INDEX_FORMAT) throw new NotUsed(`the saved index has format ${String(header.format)}, this emulator writes ${INDEX_FORMAT}`);
    if (header.endian !== ENDIAN) throw new NotUsed('the saved index was written on a machine of another byte order');
    if (header.stamp !== stamp) throw new NotUsed('the database was written since the index was saved');
    if (length !== headLength + header.body + END.length + 8) throw new NotUsed('the saved index is truncated or has bytes past its end');
    // The whole file in one buffer, the arrays views of it (8-aligned from its start).
    const buffer = new ArrayBuffer(length);
    const all = new Uint8Array(buffer);
    await readAt(all, 0);
    const tail = Buffer.from(buffer, length - END.length - 8, END.length + 8);
    if (!tail.subarray(0, END.length).equals(END)) throw new NotUsed('the saved index has no end (a save that did not finish)');
    if (crc32(all.subarray(0, length - END.length - 8)) >>> 0 !== tail.readUInt32LE(END.length)) throw new NotUsed('the saved index is damaged (its checksum differs)');
    return partsOf(header, buffer, headLength);
  } finally {
    await fh.close();
  }
}

/** The index's parts as views of the file's buffer; throws NotUsed where the header contradicts itself. */
function partsOf(h: Header, buffer: ArrayBuffer, base: number): CountIndexParts {
  const bad = (what: string) => new NotUsed(`the saved index is inconsistent (${what})`);
  const view = (i: number, kind: ArrayKind) => {
    const s = h.sections[i];
    if (!s || s.kind !== kind || s.at % 8 || s.at < 0 || s.bytes < 0 || s.at + s.bytes > h.body) throw bad(`section ${i}`);
    const off = base + s.at;
    if (kind === 'i32') return new Int32Array(buffer, off, s.bytes / 4);
    if (kind === 'u32') return new Uint32Array(buffer, off, s.bytes / 4);
    if (kind === 'f64') return new Float64Array(buffer, off, s.bytes / 8);
    return new Uint8Array(buffer, off, s.bytes);
  };
  const lists = (l: ListsHeader | undefined): Map<string, Int32Array> => {
    if (!l) throw bad('a list is missing');
    const starts = view(l.starts, 'u32') as Uint32Array;
    const values = view(l.values, 'i32') as Int32Array;
    if (starts.length !== l.keys.length + 1 || starts[0] !== 0 || starts[l.keys.length] !== values.length) throw bad('list bounds');
    const out = new Map<string, Int32Array>();
    for (let i = 0; i < l.keys.length; i++) {
      if (starts[i + 1] < starts[i]) throw bad('list bounds');
      out.set(l.keys[i], values.subarray(starts[i], starts[i + 1]));
    }
    return out;
  };
  const size = h.size;
  const dates = {
    created: { at: view(h.dates.createdAt, 'f64') as Float64Array, ordinals: view(h.dates.createdOrdinals, 'i32') as Int32Array },
    modified: { at: view(h.dates.modifiedAt, 'f64') as Float64Array, ordinals: view(h.dates.modifiedOrdinals, 'i32') as Int32Array },
    exact: h.exact,
  };
  for (const d of [dates.created, dates.modified]) if (d.at.length !== size || d.ordinals.length !== size) throw bad('dates');
  const starts = view(h.ids.starts, 'u32') as Uint32Array;
  const bytes = view(h.ids.all, 'utf8');
  const all = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  if (starts.length !== size + 1 || starts[size] !== all.length) throw bad('ids');
  return {
    size,
    dates,
    words: { lists: lists(h.lists.words), vocabulary: h.vocabulary ? new Set(h.vocabulary) : undefined },
    titleWords: { lists: lists(h.lists.titleWords), vocabulary: h.titleVocabulary ? new Set(h.titleVocabulary) : undefined },
    contentTypes: lists(h.lists.contentTypes),
    statuses: lists(h.lists.statuses),
    fields: new Map(h.fields.map((id, i) => [id, lists(h.lists[`field${i}`])])),
    classifications: h.classifications,
    classified: lists(h.lists.classified),
    ids: { all, starts },
  };
}

/**
 * Saves a current index with a stamp (one read while nothing was written) to `file`. The database's write log is
 * compacted in the same step: in one transaction its ids are taken out, checked to be the ones the index was read
 * under (else nothing is saved: the tables changed), and replaced by one new id, which the file is stamped with. The
 * file is written before that transaction and renamed into place after its commit: a crash in between leaves the old
 * file, whose stamp no longer matches. Returns the new stamp and the bytes written, or undefined when not saved.
 */
export async function saveIndex(store: TrackedStore, parts: CountIndexParts, old: string, file: string, beforeRename?: () => Promise<void>): Promise<{ stamp: string; bytes: number } | undefined> {
  const next = randomUUID();
  const stamp = withWrites(old, [next]);
  let committed = false;
  const bytes = await writeIndexFile(file, parts, stamp, async () => {
    await store.transaction(async (tx: Transaction) => {
      const taken = (await tx.query<{ id: string }>(`DELETE FROM dam_search_writes RETURNING id::text AS id`)).map((r) => r.id);
      if (withWrites(old, taken) !== old) throw new NotUsed('the tables were written since the index was read');
      await tx.query(`INSERT INTO dam_search_writes (id) VALUES ($1::uuid)`, [next]);
    }).then(
      () => (committed = true),
      (err: unknown) => {
        if (!(err instanceof NotUsed)) throw err;
      },
    );
    if (!committed) throw new NotUsed('the tables were written since the index was read');
    await beforeRename?.();
  }).catch((err: unknown) => {
    if (err instanceof NotUsed) return undefined;
    throw err;
  });
  if (bytes === undefined) return undefined;
  return { stamp, bytes };
}

/** The saved index in `file` if the database's stamp is the one it was saved under (else NotUsed says why). */
export async function loadIndex(store: TrackedStore, file: string): Promise<{ parts: CountIndexParts; stamp: string; generation: number; ms: number }> {
  const started = performance.now();
  const generation = store.searchGeneration();
  const stamp = await searchStamp(store);
  if (!stamp) throw new NotUsed('the database has no write log');
  const parts = await readIndexFile(file, stamp);
  // Read with nothing written meanwhile (by this process: others change the stamp, checked at the next start).
  if (store.searchGeneration() !== generation) throw new NotUsed('the tables were written while the index was read');
  return { parts, stamp, generation, ms: performance.now() - started };
}

/**
 * A tenant too small for an index at start never saves one, so its write log is never compacted by a save: at such a
 * start a log of more than `over` ids becomes one new id (the stamp changes, as it would at the next write).
 */
export async function compactWriteLog(store: TrackedStore, over = 1000): Promise<boolean> {
  const [row] = await store.query<{ n: number }>(`SELECT count(*)::int AS n FROM dam_search_writes`).catch(() => [{ n: 0 }]);
  if (!row || row.n <= over) return false;
  await store.transaction(async (tx) => {
    await tx.query(`DELETE FROM dam_search_writes`);
    await tx.query(`INSERT INTO dam_search_writes DEFAULT VALUES`);
  });
  return true;
}
