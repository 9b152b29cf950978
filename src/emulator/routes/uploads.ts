// The upload service ({upload_url}/uploads): single-request uploads, segmented upload sessions through the
// spec's state table, the signed blob URL (`sasUrl`) that takes the file body by PUT, and the sweep that
// removes what nobody will use any more. Bytes stream into the blob store; no file is ever held whole in memory.
import multipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { BlobTooLargeError, type WriteOptions, type WrittenBlob } from '../blobs';
import type { EmulatorContext } from '../context';
import { ApiError } from '../errors';
import { SegmentRuns } from '../domain/segmentRuns';
import { uploads } from '../domain/uploads';
import { normaliseGuid } from '../hal';
import { noContent, route } from '../routeTable';
import { SegmentedSetupSchema, UploadResultSchema } from '../schemas';

/** A single upload may be 512 MB and more (the bench sends 512 MB); the spec shows no maximum. */
const MAX_FILE_BYTES = 4 * 1024 ** 3;
/** The legacy content-host upload takes small files only ("about 1 MB"): larger ones go to the upload service. */
const LEGACY_MAX_BYTES = 1024 ** 2;
/** One segment; clients send a few MB to a few hundred MB each. */
const MAX_SEGMENT_BYTES = 1024 ** 3;
const MAX_SEGMENTS = 100_000;
const FORBIDDEN = /[<>:"/\\|?*]/g;
const HOUR = 3_600_000;

const SetupBody = z.looseObject({ filename: z.string().max(10_000).describe('The file name (FileName is accepted too)') });
const CommitBody = z.looseObject({
  filename: z.string().max(10_000).nullish(),
  segmentcount: z.union([z.number(), z.string().max(20)]).describe('How many segments were sent'),
});
const TokenParams = z.object({ token: z.string().min(1).max(500) });
const UploadBody = z.looseObject({
  file1: z.string().optional().describe('multipart/form-data: the file, one part (binary)'),
  fileName: z.string().max(10_000).optional().describe('JSON: the name of the file whose bytes go to the sasUrl'),
  fileSize: z.number().optional(),
  mimeType: z.string().max(200).optional(),
});

function listIndexes(indexes: number[]): string {
  return indexes.length > 20 ? `${indexes.slice(0, 20).join(', ')} … (${indexes.length} in all)` : indexes.join(', ');
}

export async function register(app: FastifyInstance, ctx: EmulatorContext): Promise<void> {
  const { store, errors, blobs } = ctx;
  const tag = 'Uploads';

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

  /** One file in one request: under `--tenant-limits` at most the tenant's 20 MB, refused (not throttled) above it. */
  async function receiveSingleUpload(request: FastifyRequest): ReturnType<typeof receiveOneFile> {
    const limits = ctx.config.limits;
    if (!limits.enforce) return receiveOneFile(request, MAX_FILE_BYTES);
    try {
      return await receiveOneFile(request, limits.singleUploadMax);
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 413) throw err;
      throw errors.payloadTooLarge(
        `A single-request upload takes at most ${Math.round(limits.singleUploadMax / 1024 / 1024)} MB (${limits.singleUploadMax.toLocaleString('en')} bytes); send a larger file as a segmented upload: POST /uploads/segments, then each segment, then commit.`,
      );
    }
  }

  const newToken = () => randomBytes(24).toString('base64url');
  const newGuid = () => randomBytes(16).toString('hex');
  const runs = new SegmentRuns(blobs);
  // Segments read for a checksum belong to the state they were sent to.
  ctx.state.onReplaced(() => {
    for (const token of [...runs.tokens()]) runs.forget(token);
  });

  async function sweep(): Promise<void> {
    const doomed = await store.transaction((tx) => uploads.sweep(tx, ctx.clock.now()));
    // Sessions that will not be committed any more (their rows are gone or were never opened here) are forgotten.
    if (runs.size) {
      const open = await uploads.openTokens(store);
      for (const token of [...runs.tokens()]) if (!open.has(token)) runs.forget(token);
    }
    await removeBlobs(doomed);
    if (doomed.length) ctx.log(`upload sweep removed ${doomed.length} blob(s)`);
  }

  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: MAX_FILE_BYTES } });
    // Spec: raw binary bodies are not accepted; say which type came, before a byte of it is read.
    scope.addContentTypeParser('*', (request, _payload, done) => done(errors.unsupportedMediaType(String(request.headers['content-type']).slice(0, 100), ['multipart', 'json']), undefined));

    route(scope, ctx, {
      method: 'POST',
      url: '/uploads',
      summary:
        'Upload one file: multipart/form-data with one file part (e.g. "file1"), below 20 MB; or JSON { fileName } for a ' +
        'writable blob location, whose sasUrl then takes the bytes by PUT',
      tag,
      body: UploadBody,
      bodyOptional: true,
      consumes: ['multipart', 'json'],
      responses: { 200: { description: 'The single-use token, a sasUrl and the fileId', schema: UploadResultSchema } },
      handler: async ({ request, body, caller }) => {
        const userId = caller().userId;
        if (!request.isMultipart()) {
          // The spec's third way: the bytes go to the blob location (sasUrl) afterwards; the token works once they arrived.
          const filename = checkFilename(body?.fileName, 'An upload to a blob location');
          const row = { token: newToken(), file_id: newGuid() };
          await uploads.awaitBytes(store, { token: row.token, fileId: row.file_id, filename, userId, now: ctx.clock.now() });
          return answer(request, row);
        }
        const { written, filename } = await receiveSingleUpload(request);
        const row = { token: newToken(), file_id: newGuid() };
        try {
          await uploads.insertSingle(store, { token: row.token, fileId: row.file_id, filename, blob: written.key, size: written.size, sha256: written.sha256, userId, now: ctx.clock.now() });
        } catch (err) {
          await removeBlobs([written.key]);
          throw err;
        }
        return answer(request, row);
      },
    });

    // The legacy small-file upload on the content host (real-service-notes, second round): multipart, part `file`,
    // about 1 MB at most; the token it answers is used as any other upload token.
    route(scope, ctx, {
      method: 'POST',
      url: '/api/core/uploads',
      summary: `Legacy small-file upload on the content host: multipart/form-data with one file part ("file"), at most ${LEGACY_MAX_BYTES} bytes`,
      tag,
      consumes: ['multipart'],
      responses: { 200: { description: 'The single-use token', schema: UploadResultSchema } },
      handler: async ({ request, caller }) => {
        const { written, filename } = await receiveOneFile(request, LEGACY_MAX_BYTES);
        const row = { token: newToken(), file_id: newGuid() };
        try {
          await uploads.insertSingle(store, { token: row.token, fileId: row.file_id, filename, blob: written.key, size: written.size, sha256: written.sha256, userId: caller().userId, now: ctx.clock.now() });
        } catch (err) {
          await removeBlobs([written.key]);
          throw err;
        }
        return answer(request, row);
      },
    });

    route(scope, ctx, {
      method: 'POST',
      url: '/uploads/segments',
      summary: 'Open a segmented upload (JSON `filename`); answers the upload\'s absolute `uri` and its token',
      tag,
      body: SetupBody,
      responses: { 200: { description: 'Where to send the segments', schema: SegmentedSetupSchema } },
      handler: async ({ body, request, caller }) => {
        const filename = checkFilename(body.filename, 'A segmented upload');
        const token = newToken();
        await uploads.openSegmented(store, { token, fileId: newGuid(), filename, userId: caller().userId, now: ctx.clock.now() });
        // Absolute (real-service-notes): clients pass it to `new URL(uri)` or straight to their HTTP call.
        return { uri: `${ctx.origin(request)}/uploads/segments/${encodeURIComponent(token)}`, token };
      },
    });

    route(scope, ctx, {
      method: 'POST',
      url: '/uploads/segments/:token',
      summary: 'Upload segment `index` (zero-based; multipart part "segment<index>", file name "<name>.segment<index>")',
      tag,
      params: TokenParams,
      query: z.object({ index: z.string().max(20) }).loose(),
      body: z.object({ segment0: z.string().describe('The segment\'s bytes (binary), in a part named segment<index>') }),
      consumes: ['multipart'],
      responses: { 202: { description: 'Received' }, 409: { description: 'The upload is not an open segmented upload' } },
      handler: async ({ params, query, request, reply }) => {
        const { token } = params;
        if (!/^\d{1,6}$/.test(query.index) || Number(query.index) >= MAX_SEGMENTS) {
          throw errors.uploadRule(`The query parameter 'index' must be a zero-based segment number below ${MAX_SEGMENTS}.`);
        }
        const index = Number(query.index);
        const upload = await uploads.usable(store, token);
        if (upload.kind !== 'segmented' || upload.state !== 'open') throw errors.uploadRule('This upload is not an open segmented upload.', 409);
        // A segment's own checksum would be thrown away: the file's is taken over all of them (SegmentRuns).
        const tracker = runs.segmentStarted(token, index);
        let replaced: string | undefined;
        let size: number | undefined;
        try {
          const { written } = await receiveOneFile(request, MAX_SEGMENT_BYTES, { checksum: false, started: tracker?.started });
          size = written.size;
          try {
            replaced = await store.transaction((tx) => uploads.storeSegment(tx, token, index, written.key, written.size));
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
        if (replaced) runs.forget(token);
        await removeBlobs([replaced]);
        // A body, though the spec shows none: public clients parse every answer as JSON.
        return reply.code(202).send({ index, size: size ?? null });
      },
    });

    route(scope, ctx, {
      method: 'POST',
      url: '/uploads/segments/:token/commit',
      summary: 'Commit a segmented upload (JSON `filename`, `segmentcount`): all segments 0…count-1 must be there',
      tag,
      params: TokenParams,
      body: CommitBody,
      responses: { 200: { description: 'The single-use token, a sasUrl and the fileId', schema: UploadResultSchema }, 409: { description: 'The upload changed during the commit' } },
      handler: async ({ params, body, request }) => {
        const { token } = params;
        const count = typeof body.segmentcount === 'string' && /^\d+$/.test(body.segmentcount) ? Number(body.segmentcount) : body.segmentcount;
        if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_SEGMENTS) {
          throw errors.uploadRule(`'segmentcount' must be a whole number from 1 to ${MAX_SEGMENTS}.`);
        }
        const upload = await uploads.usable(store, token);
        if (upload.kind !== 'segmented') throw errors.uploadRule('This upload was not opened as a segmented upload.', 409);
        const filename = body.filename === undefined || body.filename === null ? upload.filename : checkFilename(body.filename, 'The commit');
        // A commit sent again after its answer was lost gets the same answer: the client cannot tell otherwise.
        if (upload.state === 'committed') return answer(request, upload);

        const segments = await uploads.segments(store, token);
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
        // never copied), outside any transaction; it becomes visible only through the row update, so a crash
        // leaves no half file, and until then the segments still belong to their rows.
        let assembled: WrittenBlob;
        try {
          const composed = await runs.compositionFor(token, segments);
          for (const segment of segments.slice(composed.keys.length)) await composed.append(segment.blob);
          assembled = await composed.finish();
        } catch (err) {
          if ((err as { code?: string }).code === 'ENOENT') throw errors.uploadRule('The upload was changed or cancelled during its commit.', 409);
          throw err;
        }
        try {
          await store.transaction((tx) => uploads.commit(tx, token, segments, filename, assembled, ctx.clock.now()));
        } catch (err) {
          await blobs.release(assembled.key);
          throw err;
        }
        return answer(request, upload);
      },
    });

    async function cancel(token: string, segmentedOnly: boolean): Promise<void> {
      const doomed = await store.transaction(async (tx) => {
        const blobsOf = await uploads.cancel(tx, token, segmentedOnly);
        runs.forget(token);
        return blobsOf;
      });
      await removeBlobs(doomed);
    }

    route(scope, ctx, {
      method: 'DELETE',
      url: '/uploads/segments/:token',
      summary: 'Cancel a segmented upload (its segments are removed)',
      tag,
      params: TokenParams,
      responses: { 204: { description: 'Cancelled' } },
      handler: async ({ params, reply }) => {
        await cancel(params.token, true);
        return noContent(reply);
      },
    });
    route(scope, ctx, {
      method: 'DELETE',
      url: '/uploads/:token',
      summary: 'Discard an upload whose token was not used',
      tag,
      params: TokenParams,
      responses: { 204: { description: 'Discarded' } },
      handler: async ({ params, reply }) => {
        await cancel(params.token, false);
        return noContent(reply);
      },
    });
  });

  /** The block ids of a Put Block List body (`<BlockList><Latest>id</Latest>…</BlockList>`), in order. */
  async function blockListOf(source: Readable): Promise<string[]> {
    let text = '';
    for await (const chunk of source) {
      text += String(chunk);
      if (text.length > 4_000_000) throw errors.payloadTooLarge('The block list is too long.');
    }
    return [...text.matchAll(/<(Latest|Committed|Uncommitted)>\s*([^<]*?)\s*<\/\1>/g)].map((m) => m[2]);
  }

  /**
   * The file becomes its staged blocks in the order listed; blocks the list leaves out are dropped, as Azure does.
   * The blocks are rows (upload_blocks), so a restart between the blocks and the list loses none of them.
   */
  async function commitBlockList(fileId: string, ids: string[]): Promise<void> {
    const blocks = await uploads.blocks(store, fileId);
    const missing = ids.find((id) => !blocks.has(id));
    if (missing !== undefined || !ids.length) throw errors.badRequest(missing === undefined ? 'The block list names no block.' : `The block list names a block that was not put: '${missing.slice(0, 100)}'.`);
    if (new Set(ids).size !== ids.length) throw errors.badRequest('The block list names a block twice.');
    const used = new Map(ids.map((id) => [id, blocks.get(id)!]));
    let written: WrittenBlob;
    try {
      const composition = blobs.composition();
      for (const key of used.values()) await composition.append(key);
      written = await composition.finish();
    } catch (err) {
      if ((err as { code?: string }).code === 'ENOENT') throw errors.uploadRule('A block was put again or removed during this block list; send the block list again.', 409);
      throw err;
    }
    let doomed: string[];
    try {
      doomed = await store.transaction((tx) => uploads.commitBlocks(tx, fileId, used, written));
    } catch (err) {
      await blobs.release(written.key);
      throw err;
    }
    await removeBlobs(doomed);
  }

  // The blob endpoint stands for a storage account, not the API: the signature in the URL is the only credential,
  // so it asks for none of the API headers. It takes any body as raw bytes, which the API routes refuse.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    route(scope, ctx, {
      method: 'PUT',
      url: '/uploads/blobs/:fileId',
      summary: 'Write the file body of an upload through its signed sasUrl',
      tag,
      policy: 'blob',
      params: z.object({ fileId: z.string().max(100) }),
      query: z
        .object({ se: z.string().max(20).optional(), sig: z.string().max(200).optional(), sv: z.string().optional(), sp: z.string().optional(), comp: z.string().max(20).optional(), blockid: z.string().max(200).optional() })
        .loose(),
      responses: { 201: { description: 'Written' }, 400: { description: 'A block list naming a block that was not put' }, 403: { description: 'The signature is missing, wrong or expired' } },
      handler: async ({ params, query, request, reply }) => {
        const source = (request.body as Readable | undefined) ?? request.raw;
        const fileId = normaliseGuid(params.fileId);
        const expires = Number(query.se);
        const expected = fileId && Number.isInteger(expires) ? Buffer.from(signature(fileId, expires)) : undefined;
        const given = Buffer.from(String(query.sig ?? ''));
        if (!fileId || !expected || given.length !== expected.length || !timingSafeEqual(given, expected)) {
          source.resume();
          throw errors.invalidSignature('The signature of this blob URL is missing or does not match.');
        }
        if (expires * 1000 <= ctx.clock.now().getTime()) {
          source.resume();
          throw errors.invalidSignature('This blob URL has expired; upload again for a fresh sasUrl.');
        }
        const comp = query.comp?.toLowerCase();
        if (comp !== undefined && comp !== 'block' && comp !== 'blocklist') {
          source.resume();
          throw errors.badRequest(`The emulator's blob endpoint takes a whole file, Put Block (comp=block) and Put Block List (comp=blocklist); not comp=${comp.slice(0, 20)}.`);
        }
        if (comp === 'blocklist') {
          await commitBlockList(fileId, await blockListOf(source));
          return reply.code(201).send();
        }
        if (comp === 'block' && !query.blockid) {
          source.resume();
          throw errors.badRequest('Put Block needs a blockid.');
        }
        let written: WrittenBlob;
        try {
          written = await blobs.write(source, { maxBytes: MAX_FILE_BYTES });
        } catch (err) {
          if (err instanceof BlobTooLargeError) throw errors.payloadTooLarge(`The file is larger than ${MAX_FILE_BYTES} bytes.`);
          throw err;
        }
        if (comp === 'block') {
          // Azure's Put Block (what azcopy sends for a file over its block size): staged until a block list names it.
          let replaced: string | undefined;
          try {
            replaced = await store.transaction((tx) => uploads.stageBlock(tx, fileId, query.blockid!, written, ctx.clock.now()));
          } catch (err) {
            await removeBlobs([written.key]);
            throw err;
          }
          await removeBlobs([replaced]);
          return reply.code(201).send();
        }
        let old: string | null;
        try {
          old = await store.transaction((tx) => uploads.replaceBytes(tx, fileId, written));
        } catch (err) {
          await removeBlobs([written.key]);
          throw err;
        }
        await removeBlobs([old]);
        return reply.code(201).send();
      },
    });
  });

  // The sweep runs once at start (what a kill -9 left behind) and then hourly; the timer stops with the app.
  ctx.background(sweep);
  const timer = setInterval(() => ctx.background(sweep), HOUR);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
