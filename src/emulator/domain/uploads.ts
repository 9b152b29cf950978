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
