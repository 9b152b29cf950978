// The upload service ({upload_url}/uploads): single-request uploads, segmented upload sessions through the
// spec's state table, the signed blob URL (`sasUrl`) that takes the file body by PUT, and the sweep that
// removes what nobody will use any more. Bytes stream into the blob store; no file is ever held whole in memory.
import multipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { BlobTooLargeError, type BlobInProgress, type Composition, type WriteOptions, type WrittenBlob } from '../blobs';
import type { EmulatorContext } from '../context';
import { ApiError } from '../errors';
import { normaliseGuid } from '../hal';

/** A single upload may be 512 MB and more (the bench sends 512 MB); the spec shows no maximum. */
const MAX_FILE_BYTES = 4 * 1024 ** 3;
/** One segment; clients send a few MB to a few hundred MB each. */
const MAX_SEGMENT_BYTES = 1024 ** 3;
const MAX_SEGMENTS = 100_000;
const FORBIDDEN = /[<>:"/\\|?*]/g;
const HOUR = 3_600_000;
/** Unfinished sessions and never-used tokens live this long; consumed and cancelled rows a little. */
const ABANDONED_AFTER = 24 * HOUR;
const FORGET_AFTER = HOUR;

interface UploadRow {
  token: string;
  file_id: string;
  filename: string;
  kind: 'single' | 'segmented';
  state: 'open' | 'committed' | 'consumed' | 'cancelled';
  blob: string | null;
  size: string | number | null;
}

interface SegmentRow {
  index: number;
  blob: string;
  size: string | number;
}

const SetupBody = z.looseObject({ filename: z.string().optional(), FileName: z.string().optional(), fileName: z.string().optional() });
const CommitBody = z.looseObject({ filename: z.unknown().optional(), segmentcount: z.unknown().optional() });

/** Case-insensitive member access: the live service binds JSON names without regard to case. */
function member(body: Record<string, unknown>, name: string): unknown {
  const key = Object.keys(body).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : body[key];
}

function listIndexes(indexes: number[]): string {
  return indexes.length > 20 ? `${indexes.slice(0, 20).join(', ')} … (${indexes.length} in all)` : indexes.join(', ');
}

export async function register(app: FastifyInstance, ctx: EmulatorContext): Promise<void> {
  const { store, errors, blobs } = ctx;

  function checkFilename(raw: unknown, where: string): string {
    if (typeof raw !== 'string' || raw.trim() === '') throw errors.uploadRule(`${where} needs a file name ('filename').`);
    if (raw.length > 255) throw errors.uploadRule(`The file name is longer than 255 characters.`);
    const bad = [...new Set(raw.match(FORBIDDEN) ?? [])];
    if (bad.length) {
      throw errors.uploadRule(`The file name '${raw.slice(0, 200)}' contains characters that are not allowed (${bad.join(' ')}); file names cannot contain < > : " / \\ | ? *`);
    }
    // Control characters would break Content-Disposition on download.
    if ([...raw].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) throw errors.uploadRule('The file name contains control characters.');
    return raw;
  }

  function signature(fileId: string, expires: number): string {
    return createHmac('sha256', ctx.secret).update(`PUT\n/uploads/blobs/${fileId}\n${expires}`).digest('base64url');
  }

  /** The blob URL that takes the file body by PUT; valid as long as an access token issued now would be. */
  function sasUrl(request: FastifyRequest, fileId: string): string {
    const expires = Math.floor(ctx.clock.now().getTime() / 1000) + ctx.config.tokenTtl;
    return `${ctx.origin(request)}/uploads/blobs/${fileId}?sv=1&sp=w&se=${expires}&sig=${signature(fileId, expires)}`;
  }

  const answer = (request: FastifyRequest, row: { token: string; file_id: string }) => ({
    token: row.token,
    sasUrl: sasUrl(request, row.file_id),
    fileId: row.file_id,
  });

  async function removeBlobs(keys: (string | null | undefined)[]): Promise<void> {
    await Promise.all(keys.filter((k): k is string => !!k).map((k) => blobs.remove(k).catch((err) => ctx.log(`could not remove blob ${k}: ${String(err)}`))));
  }

  /**
   * Streams the request's one file part into a new blob. A second file part is drained and refused, so the
   * answer is a clean 400 rather than a reset connection.
   */
  async function receiveOneFile(
    request: FastifyRequest,
    maxBytes: number,
    options: Pick<WriteOptions, 'checksum' | 'started'> = {},
  ): Promise<{ written: WrittenBlob; filename: string; fieldname: string }> {
    if (!request.isMultipart()) throw errors.unsupportedMediaType(String(request.headers['content-type'] ?? 'none'));
    let first: { written: WrittenBlob; filename: string; fieldname: string } | undefined;
    let extra = 0;
    try {
      // preservePath: busboy would otherwise strip 'dir/' from a name and hide a forbidden '/'.
      for await (const part of request.parts({ preservePath: true, fileHwm: 1 << 20, limits: { fileSize: maxBytes, files: 2, fields: 50, parts: 60 } })) {
        if (part.type !== 'file') continue;
        const file = part as MultipartFile;
        if (first) {
          extra++;
          file.file.resume();
          continue;
        }
        let filename: string;
        try {
          filename = checkFilename(file.filename, 'The file part');
        } catch (err) {
          file.file.resume();
          throw err;
        }
        const written = await blobs.write(file.file, { ...options, maxBytes });
        if (file.file.truncated) {
          await blobs.remove(written.key);
          throw errors.payloadTooLarge(`The file is larger than ${maxBytes} bytes.`);
        }
        first = { written, filename, fieldname: file.fieldname };
      }
    } catch (err) {
      if (first) await removeBlobs([first.written.key]);
      if (err instanceof ApiError) throw err;
      const code = (err as { code?: string }).code;
      if (err instanceof BlobTooLargeError || code === 'FST_REQ_FILE_TOO_LARGE') throw errors.payloadTooLarge(`The file is larger than ${maxBytes} bytes.`);
      if (code === 'FST_FILES_LIMIT') throw errors.uploadRule('An upload request carries exactly one file part.');
      if (typeof code === 'string' && code.startsWith('FST_')) throw errors.malformedBody(`Malformed multipart body: ${(err as Error).message}`);
      if (err instanceof Error && /multipart|boundary|terminated early|Unexpected end/i.test(err.message)) throw errors.malformedBody(`Malformed multipart body: ${err.message}`);
      throw err;
    }
    if (!first) throw errors.uploadRule('The request has no file part; send the file as multipart/form-data (part "file1").');
    if (extra) {
      await removeBlobs([first.written.key]);
      throw errors.uploadRule(`An upload request carries exactly one file part; this one had ${extra + 1}.`);
    }
    return first;
  }

  const newToken = () => randomBytes(24).toString('base64url');
  const newGuid = () => randomBytes(16).toString('hex');

  /**
   * A segmented upload's checksum is taken while its segments arrive: each open session keeps a composition that
   * reads the segments in index order, the next one while it is still being written (Composition.follow), so its
   * commit has little left to read. Memory only: after a restart, or when a segment is sent again or fails after
   * some of it was read, the commit starts over from the first segment.
   */
  interface Arrival {
    /** Set once the segment's file exists. */
    blob?: BlobInProgress;
    /** Settles when the segment's row is stored, or fails if it will not be. */
    stored: Promise<WrittenBlob>;
  }
  interface Run {
    composition: Composition;
    arrivals: Map<number, Arrival>;
    work: Promise<void>;
    /** The index being read, while one is. */
    reading?: number;
  }
  /** What the segment route tells the run about one segment: its file exists, its row is stored, or it failed. */
  interface SegmentTracker {
    started(blob: BlobInProgress): void;
    kept(blob: WrittenBlob): void;
    lost(): void;
  }
  const running = new Map<string, Run>();
  // Segments read for a checksum belong to the state they were sent to.
  ctx.state.onReplaced(() => {
    for (const token of [...running.keys()]) forgetRun(token);
  });

  function forgetRun(token: string): void {
    running.get(token)?.composition.discard();
    running.delete(token);
  }

  /** Reads the segments that are next in order, as far as they have begun to arrive. */
  function readOn(token: string, run: Run): void {
    run.work = run.work
      .then(async () => {
        for (let next = run.composition.keys.length; running.get(token) === run; next++) {
          const arrival = run.arrivals.get(next);
          if (!arrival?.blob) return;
          run.reading = next;
          await run.composition.follow(arrival.blob, arrival.stored);
          run.reading = undefined;
        }
      })
      .catch(() => {
        run.reading = undefined;
        if (running.get(token) === run) forgetRun(token);
      });
  }

  /** A segment begins to arrive; `undefined` when it cannot count towards the running checksum. */
  function segmentStarted(token: string, index: number): SegmentTracker | undefined {
    let run = running.get(token);
    if (run?.arrivals.has(index)) {
      // A segment sent again: what was read of the earlier copy no longer counts.
      forgetRun(token);
      return undefined;
    }
    if (!run) {
      run = { composition: blobs.composition(), arrivals: new Map(), work: Promise.resolve() };
      running.set(token, run);
    }
    const current = run;
    let keep!: (blob: WrittenBlob) => void;
    let fail!: (err: Error) => void;
    const arrival: Arrival = { stored: new Promise<WrittenBlob>((resolve, reject) => ((keep = resolve), (fail = reject))) };
    // Awaited only when its turn comes, which a segment that fails first never has.
    arrival.stored.catch(() => undefined);
    current.arrivals.set(index, arrival);
    return {
      started(blob) {
        arrival.blob = blob;
        if (running.get(token) === current) readOn(token, current);
      },
      kept: keep,
      lost() {
        // Not read yet: it just leaves the list, for a copy sent again to take its place. Being read: the read
        // fails, and with it the run.
        if (current.reading !== index && current.composition.keys.length <= index) current.arrivals.delete(index);
        fail(new Error(`segment ${index} was not stored`));
      },
    };
  }

  /** The composition of a commit: the running one when it read exactly the first segments, else a new one. */
  async function compositionFor(token: string, segments: SegmentRow[]): Promise<Composition> {
    const run = running.get(token);
    running.delete(token);
    if (run) {
      // A segment beyond the commit's count may still be arriving: not worth waiting for.
      if (run.reading === undefined || run.reading < segments.length) await run.work;
      const { keys } = run.composition;
      if (run.reading === undefined && keys.length <= segments.length && keys.every((key, i) => key === segments[i].blob)) return run.composition;
      run.composition.discard();
    }
    return blobs.composition();
  }

  async function openUpload(token: string): Promise<UploadRow> {
    const row = (await store.query<UploadRow>(`SELECT * FROM uploads WHERE token = $1`, [token]))[0];
    if (!row || row.state === 'consumed' || row.state === 'cancelled') throw errors.noDataFound('upload token', token.slice(0, 200));
    return row;
  }

  async function sweep(): Promise<void> {
    const now = ctx.clock.now().getTime();
    const abandoned = new Date(now - ABANDONED_AFTER);
    const forget = new Date(now - FORGET_AFTER);
    const doomed = await store.transaction(async (tx) => {
      const segs = await tx.query<{ blob: string }>(
        `DELETE FROM upload_segments s USING uploads u
          WHERE s.token = u.token AND (u.state = 'cancelled' OR (u.state = 'open' AND u.created_on < $1)) RETURNING s.blob`,
        [abandoned],
      );
      const ups = await tx.query<{ blob: string | null }>(
        `DELETE FROM uploads WHERE (state IN ('open', 'committed') AND created_on < $1) OR (state = 'cancelled' AND created_on < $2) RETURNING blob`,
        [abandoned, forget],
      );
      // A consumed upload's blob belongs to the version that consumed it: only the row goes.
      await tx.query(`DELETE FROM uploads WHERE state = 'consumed' AND consumed_on < $1`, [forget]);
      return [...segs.map((s) => s.blob), ...ups.map((u) => u.blob)];
    });
    // Sessions that will not be committed any more (their rows are gone or were never opened here) are forgotten.
    if (running.size) {
      const open = await store.query<{ token: string }>(`SELECT token FROM uploads WHERE state = 'open'`);
      const keep = new Set(open.map((r) => r.token));
      for (const token of running.keys()) if (!keep.has(token)) forgetRun(token);
    }
    await removeBlobs(doomed);
    if (doomed.length) ctx.log(`upload sweep removed ${doomed.length} blob(s)`);
  }

  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: MAX_FILE_BYTES } });
    // Spec: raw binary bodies are not accepted; say which type came, before a byte of it is read.
    scope.addContentTypeParser('*', (request, _payload, done) => done(errors.unsupportedMediaType(String(request.headers['content-type']).slice(0, 100)), undefined));

    scope.post('/uploads', { schema: { summary: 'Upload one file (multipart/form-data, one file part, e.g. "file1")', tags: ['Uploads'] } }, async (request) => {
      const caller = ctx.auth.caller(request);
      const { written, filename } = await receiveOneFile(request, MAX_FILE_BYTES);
      const row = { token: newToken(), file_id: newGuid() };
      try {
        await store.query(
          `INSERT INTO uploads (token, file_id, filename, kind, state, blob, size, sha256, user_id, created_on, committed_on)
           VALUES ($1, $2, $3, 'single', 'committed', $4, $5, $6, $7, $8, $8)`,
          [row.token, row.file_id, filename, written.key, written.size, written.sha256, caller.userId, ctx.clock.now()],
        );
      } catch (err) {
        await removeBlobs([written.key]);
        throw err;
      }
      return answer(request, row);
    });

    scope.post('/uploads/segments', { schema: { summary: 'Open a segmented upload (JSON `filename`)', tags: ['Uploads'] } }, async (request) => {
      const caller = ctx.auth.caller(request);
      const body = SetupBody.safeParse(request.body);
      if (!body.success) throw errors.malformedBody('The body must be a JSON object with a "filename".');
      const filename = checkFilename(member(body.data, 'filename'), 'A segmented upload');
      const token = newToken();
      await store.query(
        `INSERT INTO uploads (token, file_id, filename, kind, state, user_id, created_on) VALUES ($1, $2, $3, 'segmented', 'open', $4, $5)`,
        [token, newGuid(), filename, caller.userId, ctx.clock.now()],
      );
      return { uri: `/uploads/segments/${encodeURIComponent(token)}`, token };
    });

    scope.post<{ Params: { token: string }; Querystring: Record<string, string | undefined> }>(
      '/uploads/segments/:token',
      { schema: { summary: 'Upload segment `index` (multipart part "segment<index>")', tags: ['Uploads'] } },
      async (request, reply) => {
        ctx.auth.caller(request);
        const { token } = request.params;
        const rawIndex = request.query.index ?? member(request.query, 'index');
        if (typeof rawIndex !== 'string' || !/^\d{1,6}$/.test(rawIndex) || Number(rawIndex) >= MAX_SEGMENTS) {
          throw errors.uploadRule(`The query parameter 'index' must be a zero-based segment number below ${MAX_SEGMENTS}.`);
        }
        const index = Number(rawIndex);
        const upload = await openUpload(token);
        if (upload.kind !== 'segmented' || upload.state !== 'open') throw errors.uploadRule('This upload is not an open segmented upload.', 409);
        // A segment's own checksum would be thrown away: the file's is taken over all of them (segmentStarted).
        const tracker = segmentStarted(token, index);
        let replaced: string | undefined;
        try {
          const { written } = await receiveOneFile(request, MAX_SEGMENT_BYTES, { checksum: false, started: tracker?.started });
          try {
            await store.transaction(async (tx) => {
              const state = (await tx.query<{ state: string }>(`SELECT state FROM uploads WHERE token = $1 FOR UPDATE`, [token]))[0]?.state;
              if (state !== 'open') throw errors.uploadRule(`The upload was ${state ?? 'removed'} while segment ${index} was being received.`, 409);
              replaced = (await tx.query<{ blob: string }>(`SELECT blob FROM upload_segments WHERE token = $1 AND index = $2`, [token, index]))[0]?.blob;
              // A segment sent again (a client's retry) replaces the earlier copy.
              await tx.query(
                `INSERT INTO upload_segments (token, index, blob, size) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (token, index) DO UPDATE SET blob = EXCLUDED.blob, size = EXCLUDED.size`,
                [token, index, written.key, written.size],
              );
            });
          } catch (err) {
            await removeBlobs([written.key]);
            throw err;
          }
          tracker?.kept(written);
        } catch (err) {
          tracker?.lost();
          throw err;
        }
        // An earlier copy from before this run (a restart): the run's reading did not see it replaced.
        if (replaced) forgetRun(token);
        await removeBlobs([replaced]);
        return reply.code(202).send();
      },
    );

    scope.post<{ Params: { token: string } }>(
      '/uploads/segments/:token/commit',
      { schema: { summary: 'Commit a segmented upload (JSON `filename`, `segmentcount`)', tags: ['Uploads'] } },
      async (request) => {
        ctx.auth.caller(request);
        const { token } = request.params;
        const body = CommitBody.safeParse(request.body ?? {});
        if (!body.success) throw errors.malformedBody('The body must be a JSON object with "filename" and "segmentcount".');
        const countRaw = member(body.data, 'segmentcount');
        const count = typeof countRaw === 'string' && /^\d+$/.test(countRaw) ? Number(countRaw) : countRaw;
        if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_SEGMENTS) {
          throw errors.uploadRule(`'segmentcount' must be a whole number from 1 to ${MAX_SEGMENTS}.`);
        }
        const nameRaw = member(body.data, 'filename');
        const upload = await openUpload(token);
        if (upload.kind !== 'segmented') throw errors.uploadRule('This upload was not opened as a segmented upload.', 409);
        const filename = nameRaw === undefined || nameRaw === null ? upload.filename : checkFilename(nameRaw, 'The commit');
        // A commit sent again after its answer was lost gets the same answer: the client cannot tell otherwise.
        if (upload.state === 'committed') return answer(request, upload);

        const segments = await store.query<SegmentRow>(`SELECT index, blob, size FROM upload_segments WHERE token = $1 ORDER BY index`, [token]);
        const present = new Set(segments.map((s) => s.index));
        const missing: number[] = [];
        for (let i = 0; i < count && missing.length <= 1000; i++) if (!present.has(i)) missing.push(i);
        const extra = segments.filter((s) => s.index >= count).map((s) => s.index);
        if (missing.length || extra.length) {
          const parts = [];
          if (missing.length) parts.push(`segment index(es) ${listIndexes(missing)} missing`);
          if (extra.length) parts.push(`segment index(es) ${listIndexes(extra)} beyond segmentcount ${count}`);
          throw errors.uploadRule(`Cannot commit: ${parts.join('; ')} (segmentcount ${count}, segments received: ${segments.length}).`);
        }

        // The file is composed of the segments' blobs in order (their bytes are read once, for the checksum, and
        // never copied), outside any transaction; it becomes visible only through the row update below, so a crash
        // leaves no half file, and until then the segments still belong to their rows.
        let assembled: WrittenBlob;
        try {
          const composed = await compositionFor(token, segments);
          for (const segment of segments.slice(composed.keys.length)) await composed.append(segment.blob);
          assembled = await composed.finish();
        } catch (err) {
          if ((err as { code?: string }).code === 'ENOENT') throw errors.uploadRule('The upload was changed or cancelled during its commit.', 409);
          throw err;
        }

        try {
          await store.transaction(async (tx) => {
            const now = (await tx.query<UploadRow>(`SELECT * FROM uploads WHERE token = $1 FOR UPDATE`, [token]))[0];
            const again = await tx.query<SegmentRow>(`SELECT index, blob, size FROM upload_segments WHERE token = $1 ORDER BY index`, [token]);
            const same = again.length === segments.length && again.every((s, i) => s.blob === segments[i].blob);
            if (!now || now.state !== 'open' || !same) throw errors.uploadRule('The upload was changed, committed or cancelled during this commit; commit again.', 409);
            await tx.query(
              `UPDATE uploads SET state = 'committed', filename = $2, blob = $3, size = $4, sha256 = $5, committed_on = $6 WHERE token = $1`,
              [token, filename, assembled.key, assembled.size, assembled.sha256, ctx.clock.now()],
            );
            // The segments' blobs are now the parts of the assembled one.
            await tx.query(`DELETE FROM upload_segments WHERE token = $1`, [token]);
          });
        } catch (err) {
          await blobs.release(assembled.key);
          throw err;
        }
        return answer(request, upload);
      },
    );

    async function cancel(token: string, segmentedOnly: boolean): Promise<void> {
      const doomed = await store.transaction(async (tx) => {
        const row = (await tx.query<UploadRow>(`SELECT * FROM uploads WHERE token = $1 FOR UPDATE`, [token]))[0];
        if (!row || row.state === 'consumed' || row.state === 'cancelled') throw errors.noDataFound('upload token', token.slice(0, 200));
        if (segmentedOnly && row.kind !== 'segmented') throw errors.uploadRule('This upload is not a segmented upload; discard it with DELETE /uploads/{token}.', 409);
        await tx.query(`UPDATE uploads SET state = 'cancelled', blob = NULL WHERE token = $1`, [token]);
        forgetRun(token);
        const segs = await tx.query<{ blob: string }>(`DELETE FROM upload_segments WHERE token = $1 RETURNING blob`, [token]);
        return [row.blob, ...segs.map((s) => s.blob)];
      });
      await removeBlobs(doomed);
    }

    scope.delete<{ Params: { token: string } }>(
      '/uploads/segments/:token',
      { schema: { summary: 'Cancel a segmented upload', tags: ['Uploads'] } },
      async (request, reply) => {
        ctx.auth.caller(request);
        await cancel(request.params.token, true);
        return reply.code(204).send();
      },
    );

    scope.delete<{ Params: { token: string } }>(
      '/uploads/:token',
      { schema: { summary: 'Discard an upload whose token was not used', tags: ['Uploads'] } },
      async (request, reply) => {
        ctx.auth.caller(request);
        await cancel(request.params.token, false);
        return reply.code(204).send();
      },
    );
  });

  // The blob endpoint stands for a storage account, not the API: the signature in the URL is the only credential,
  // so it asks for none of the API headers. It takes any body as raw bytes, which the API routes refuse.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    scope.put<{ Params: { fileId: string }; Querystring: Record<string, string | undefined> }>(
      '/uploads/blobs/:fileId',
      { config: { headers: 'docs' }, schema: { summary: 'Write the file body of an upload through its signed sasUrl', tags: ['Uploads'] } },
      async (request, reply) => {
        const source = (request.body as Readable | undefined) ?? request.raw;
        const fileId = normaliseGuid(request.params.fileId);
        const { se, sig } = request.query;
        const expires = Number(se);
        const expected = fileId && Number.isInteger(expires) ? Buffer.from(signature(fileId, expires)) : undefined;
        const given = Buffer.from(String(sig ?? ''));
        if (!fileId || !expected || given.length !== expected.length || !timingSafeEqual(given, expected)) {
          source.resume();
          throw errors.invalidSignature('The signature of this blob URL is missing or does not match.');
        }
        if (expires * 1000 <= ctx.clock.now().getTime()) {
          source.resume();
          throw errors.invalidSignature('This blob URL has expired; upload again for a fresh sasUrl.');
        }
        let written: WrittenBlob;
        try {
          written = await blobs.write(source, { maxBytes: MAX_FILE_BYTES });
        } catch (err) {
          if (err instanceof BlobTooLargeError) throw errors.payloadTooLarge(`The file is larger than ${MAX_FILE_BYTES} bytes.`);
          throw err;
        }
        let old: string | null = null;
        try {
          await store.transaction(async (tx) => {
            const row = (await tx.query<UploadRow>(`SELECT * FROM uploads WHERE file_id = $1 FOR UPDATE`, [fileId]))[0];
            if (!row || row.state !== 'committed') throw errors.noDataFound('upload', fileId);
            old = row.blob;
            await tx.query(`UPDATE uploads SET blob = $2, size = $3, sha256 = $4 WHERE file_id = $1`, [fileId, written.key, written.size, written.sha256]);
          });
        } catch (err) {
          await removeBlobs([written.key]);
          throw err;
        }
        await removeBlobs([old]);
        return reply.code(201).send();
      },
    );
  });

  // The sweep runs once at start (what a kill -9 left behind) and then hourly; the timer stops with the app.
  ctx.background(sweep);
  const timer = setInterval(() => ctx.background(sweep), HOUR);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
