// Upload tokens as the rest of the emulator sees them: a committed upload is consumed exactly once, by a
// record file version (by its token) or a task attachment version (by its fileId).
import { errors } from '../errors';
import { normaliseGuid } from '../hal';
import type { Queryable } from '../storage/store';

/** What a consumer takes over. The blob now belongs to the consumer: cleanup of consumed uploads never removes it. */
export interface ConsumedUpload {
  fileId: string;
  filename: string;
  /** Blob key in ctx.blobs. */
  blob: string;
  size: number;
  sha256: string;
}

interface ConsumedRow {
  file_id: string;
  filename: string;
  blob: string;
  size: string | number;
  sha256: string;
}

const toConsumed = (row: ConsumedRow): ConsumedUpload => ({
  fileId: row.file_id,
  filename: row.filename,
  blob: row.blob,
  size: Number(row.size),
  sha256: row.sha256,
});

// One UPDATE … WHERE state = 'committed' is the atomic test-and-set: of two transactions using the same token,
// the second waits on the row lock and then finds the state changed, so it matches nothing.
const CONSUME = `UPDATE uploads SET state = 'consumed', consumed_on = now()
  WHERE %COL% = $1 AND state = 'committed' AND blob IS NOT NULL
  RETURNING file_id, filename, blob, size, sha256`;

/**
 * Marks the committed upload of `token` consumed and hands over its blob. Call it inside the transaction that
 * creates the version, so a failed creation leaves the token usable. An unknown, open, cancelled or already
 * used token is the live service's 404 NoDataFoundException naming the token.
 */
export async function consumeUpload(tx: Queryable, token: string): Promise<ConsumedUpload> {
  const rows = await tx.query<ConsumedRow>(CONSUME.replace('%COL%', 'token'), [token]);
  if (!rows[0]) throw errors.noDataFound('upload token', token.slice(0, 200));
  return toConsumed(rows[0]);
}

/** The same for the `FileId` that task attachment versions carry (the `fileId` of the upload answer). */
export async function consumeUploadByFileId(tx: Queryable, fileId: string): Promise<ConsumedUpload> {
  const id = normaliseGuid(fileId);
  const rows = id ? await tx.query<ConsumedRow>(CONSUME.replace('%COL%', 'file_id'), [id]) : [];
  if (!rows[0]) throw errors.noDataFound('uploaded file', fileId.slice(0, 200));
  return toConsumed(rows[0]);
}

export interface UploadRow {
  token: string;
  file_id: string;
  filename: string;
  kind: 'single' | 'segmented';
  state: 'open' | 'committed' | 'consumed' | 'cancelled';
  blob: string | null;
  size: string | number | null;
}

export interface SegmentRow {
  index: number;
  blob: string;
  size: string | number;
}

const HOUR = 3_600_000;
/** Unfinished sessions and never-used tokens live this long; consumed and cancelled rows a little. */
const ABANDONED_AFTER = 24 * HOUR;
const FORGET_AFTER = HOUR;

/** The upload service's rows: sessions, their segments, and what a cleanup may remove. */
export const uploads = {
  /** An upload that can still be used (open or committed); 404 naming the token otherwise. */
  async usable(db: Queryable, token: string): Promise<UploadRow> {
    const row = (await db.query<UploadRow>(`SELECT * FROM uploads WHERE token = $1`, [token]))[0];
    if (!row || row.state === 'consumed' || row.state === 'cancelled') throw errors.noDataFound('upload token', token.slice(0, 200));
    return row;
  },

  insertSingle: (db: Queryable, row: { token: string; fileId: string; filename: string; blob: string; size: number; sha256: string; userId: number; now: Date }) =>
    db.query(
      `INSERT INTO uploads (token, file_id, filename, kind, state, blob, size, sha256, user_id, created_on, committed_on)
       VALUES ($1, $2, $3, 'single', 'committed', $4, $5, $6, $7, $8, $8)`,
      [row.token, row.fileId, row.filename, row.blob, row.size, row.sha256, row.userId, row.now],
    ),

  /** An upload whose bytes will arrive through its sasUrl: committed, with no blob until then. */
  awaitBytes: (db: Queryable, row: { token: string; fileId: string; filename: string; userId: number; now: Date }) =>
    db.query(`INSERT INTO uploads (token, file_id, filename, kind, state, user_id, created_on, committed_on) VALUES ($1, $2, $3, 'single', 'committed', $4, $5, $5)`, [
      row.token,
      row.fileId,
      row.filename,
      row.userId,
      row.now,
    ]),

  openSegmented: (db: Queryable, row: { token: string; fileId: string; filename: string; userId: number; now: Date }) =>
    db.query(`INSERT INTO uploads (token, file_id, filename, kind, state, user_id, created_on) VALUES ($1, $2, $3, 'segmented', 'open', $4, $5)`, [
      row.token,
      row.fileId,
      row.filename,
      row.userId,
      row.now,
    ]),

  /**
   * Stores a segment's blob (a segment sent again replaces the earlier copy, whose blob is returned) while the
   * session is still open; call in a transaction.
   */
  async storeSegment(tx: Queryable, token: string, index: number, blob: string, size: number): Promise<string | undefined> {
    const state = (await tx.query<{ state: string }>(`SELECT state FROM uploads WHERE token = $1 FOR UPDATE`, [token]))[0]?.state;
    if (state !== 'open') throw errors.uploadRule(`The upload was ${state ?? 'removed'} while segment ${index} was being received.`, 409);
    const replaced = (await tx.query<{ blob: string }>(`SELECT blob FROM upload_segments WHERE token = $1 AND index = $2`, [token, index]))[0]?.blob;
    await tx.query(
      `INSERT INTO upload_segments (token, index, blob, size) VALUES ($1, $2, $3, $4)
       ON CONFLICT (token, index) DO UPDATE SET blob = EXCLUDED.blob, size = EXCLUDED.size`,
      [token, index, blob, size],
    );
    return replaced;
  },

  segments: (db: Queryable, token: string) => db.query<SegmentRow>(`SELECT index, blob, size FROM upload_segments WHERE token = $1 ORDER BY index`, [token]),

  /**
   * Makes the assembled blob the upload's, if nothing changed since its segments were read (same rows, still open);
   * the segments' blobs become the parts of the assembled one. Call in a transaction.
   */
  async commit(tx: Queryable, token: string, segments: SegmentRow[], filename: string, assembled: { key: string; size: number; sha256: string }, now: Date): Promise<void> {
    const current = (await tx.query<UploadRow>(`SELECT * FROM uploads WHERE token = $1 FOR UPDATE`, [token]))[0];
    const again = await uploads.segments(tx, token);
    const same = again.length === segments.length && again.every((s, i) => s.blob === segments[i].blob);
    if (!current || current.state !== 'open' || !same) throw errors.uploadRule('The upload was changed, committed or cancelled during this commit; commit again.', 409);
    await tx.query(`UPDATE uploads SET state = 'committed', filename = $2, blob = $3, size = $4, sha256 = $5, committed_on = $6 WHERE token = $1`, [
      token,
      filename,
      assembled.key,
      assembled.size,
      assembled.sha256,
      now,
    ]);
    await tx.query(`DELETE FROM upload_segments WHERE token = $1`, [token]);
  },

  /** Cancels an open or committed upload; returns the blobs nobody needs any more. Call in a transaction. */
  async cancel(tx: Queryable, token: string, segmentedOnly: boolean): Promise<(string | null)[]> {
    const row = (await tx.query<UploadRow>(`SELECT * FROM uploads WHERE token = $1 FOR UPDATE`, [token]))[0];
    if (!row || row.state === 'consumed' || row.state === 'cancelled') throw errors.noDataFound('upload token', token.slice(0, 200));
    if (segmentedOnly && row.kind !== 'segmented') throw errors.uploadRule('This upload is not a segmented upload; discard it with DELETE /uploads/{token}.', 409);
    await tx.query(`UPDATE uploads SET state = 'cancelled', blob = NULL WHERE token = $1`, [token]);
    const segs = await tx.query<{ blob: string }>(`DELETE FROM upload_segments WHERE token = $1 RETURNING blob`, [token]);
    const blocks = await tx.query<{ blob: string }>(`DELETE FROM upload_blocks WHERE file_id = $1 RETURNING blob`, [row.file_id]);
    return [row.blob, ...segs.map((s) => s.blob), ...blocks.map((b) => b.blob)];
  },

  /** Replaces a committed upload's bytes (the body PUT through its sasUrl); returns the blob it replaced. Call in a transaction. */
  async replaceBytes(tx: Queryable, fileId: string, written: { key: string; size: number; sha256: string }): Promise<string | null> {
    const row = (await tx.query<UploadRow>(`SELECT * FROM uploads WHERE file_id = $1 FOR UPDATE`, [fileId]))[0];
    if (!row || row.state !== 'committed') throw errors.noDataFound('upload', fileId);
    await tx.query(`UPDATE uploads SET blob = $2, size = $3, sha256 = $4 WHERE file_id = $1`, [fileId, written.key, written.size, written.sha256]);
    return row.blob;
  },

  /**
   * Stages a Put Block of the committed upload `fileId` (one whose bytes come through its sasUrl); a block id sent
   * again replaces the earlier block, whose blob is returned. Call in a transaction.
   */
  async stageBlock(tx: Queryable, fileId: string, blockId: string, written: { key: string; size: number }, now: Date): Promise<string | undefined> {
    const row = (await tx.query<UploadRow>(`SELECT * FROM uploads WHERE file_id = $1 FOR UPDATE`, [fileId]))[0];
    if (!row || row.state !== 'committed') throw errors.noDataFound('upload', fileId);
    const replaced = (await tx.query<{ blob: string }>(`SELECT blob FROM upload_blocks WHERE file_id = $1 AND block_id = $2`, [fileId, blockId]))[0]?.blob;
    await tx.query(
      `INSERT INTO upload_blocks (file_id, block_id, blob, size, staged_on) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (file_id, block_id) DO UPDATE SET blob = EXCLUDED.blob, size = EXCLUDED.size, staged_on = EXCLUDED.staged_on`,
      [fileId, blockId, written.key, written.size, now],
    );
    return replaced;
  },

  /** The staged blocks of `fileId`, block id to blob key. */
  blocks: async (db: Queryable, fileId: string) =>
    new Map((await db.query<{ block_id: string; blob: string }>(`SELECT block_id, blob FROM upload_blocks WHERE file_id = $1`, [fileId])).map((r) => [r.block_id, r.blob])),

  /**
   * Makes the blob composed of the listed blocks the upload's bytes, if its blocks are still those it was composed
   * of; the listed blocks' blobs became its parts, so only the blocks left out and the bytes it replaced are
   * returned for removal. Call in a transaction.
   */
  async commitBlocks(tx: Queryable, fileId: string, used: Map<string, string>, written: { key: string; size: number; sha256: string }): Promise<string[]> {
    const row = (await tx.query<UploadRow>(`SELECT * FROM uploads WHERE file_id = $1 FOR UPDATE`, [fileId]))[0];
    if (!row || row.state !== 'committed') throw errors.noDataFound('upload', fileId);
    const now = await uploads.blocks(tx, fileId);
    if ([...used].some(([id, blob]) => now.get(id) !== blob)) throw errors.uploadRule('A block was put again during this block list; send the block list again.', 409);
    await tx.query(`DELETE FROM upload_blocks WHERE file_id = $1`, [fileId]);
    await tx.query(`UPDATE uploads SET blob = $2, size = $3, sha256 = $4 WHERE file_id = $1`, [fileId, written.key, written.size, written.sha256]);
    return [...[...now].filter(([id]) => !used.has(id)).map(([, blob]) => blob), ...(row.blob ? [row.blob] : [])];
  },

  /**
   * Removes what nobody will use: sessions left open and tokens never used for a day, cancelled rows after an hour,
   * consumed rows after an hour (their blob belongs to the version that consumed it). Returns the blobs to remove.
   */
  async sweep(tx: Queryable, now: Date): Promise<string[]> {
    const abandoned = new Date(now.getTime() - ABANDONED_AFTER);
    const forget = new Date(now.getTime() - FORGET_AFTER);
    const segs = await tx.query<{ blob: string }>(
      `DELETE FROM upload_segments s USING uploads u
        WHERE s.token = u.token AND (u.state = 'cancelled' OR (u.state = 'open' AND u.created_on < $1)) RETURNING s.blob`,
      [abandoned],
    );
    // Staged blocks go with their upload (Azure keeps uncommitted blocks 7 days; an upload here lives a day), and as
    // soon as the upload is used or cancelled; deleted here, not by the cascade, so their blobs are removed too.
    const blocks = await tx.query<{ blob: string }>(
      `DELETE FROM upload_blocks b USING uploads u WHERE b.file_id = u.file_id AND (u.state <> 'committed' OR u.created_on < $1) RETURNING b.blob`,
      [abandoned],
    );
    const ups = await tx.query<{ blob: string | null }>(
      `DELETE FROM uploads WHERE (state IN ('open', 'committed') AND created_on < $1) OR (state = 'cancelled' AND created_on < $2) RETURNING blob`,
      [abandoned, forget],
    );
    await tx.query(`DELETE FROM uploads WHERE state = 'consumed' AND consumed_on < $1`, [forget]);
    return [...segs.map((s) => s.blob), ...blocks.map((b) => b.blob), ...ups.map((u) => u.blob)].filter((b): b is string => !!b);
  },

  openTokens: async (db: Queryable) => new Set((await db.query<{ token: string }>(`SELECT token FROM uploads WHERE state = 'open'`)).map((r) => r.token)),
};
