// Files, file versions, additional files (renditions), previews and thumbnails as HAL resources, and the
// `/download` route that answers the bytes behind a signed download URI.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { userGuid } from '../../core/contract';
import type { EmulatorContext } from '../context';
import { core, load } from '../domain/model';
import {
  downloadUri,
  hasImage,
  imageBlob,
  imageOf,
  IMAGE_SIZES,
  fitWithin,
  loadFiles,
  masterFile,
  masterLatestVersion,
  materialised,
  recordImage,
  verifyDownload,
  type AdditionalFileRow,
  type FileRow,
  type FileVersionRow,
  type ImageRow,
} from '../domain/files';
import { derivedId, publicLinks, renditions, tenantObjects } from '../domain/publishing';
import { defineType, normaliseGuid, render, renderContext, type RenderContext } from '../hal';
import { Segment, route } from '../routeTable';
import { AdditionalFileSchema, FileSchema, FileVersionSchema, ImageSchema, list as listOf } from '../schemas';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** A seeded version whose bytes were not made yet has no size or checksum to show. */
const pending = (v: FileVersionRow) => !v.blob && v.generator !== null;

export const fileType = defineType<FileRow>({
  name: 'file',
  self: (f, rc) => `${core(rc)}/file/${f.id}`,
  attributes: (f) => ({
    id: f.id,
    recordId: f.record_id,
    isMaster: f.is_master,
    checkedOutBy: f.checked_out_by,
    // POST/DELETE /file/{id}/checkouts (aprimo-js `files`).
    checkedOut: f.checked_out_by !== null,
    checkedOutOn: f.checked_out_by !== null && f.checked_out_on ? iso(f.checked_out_on) : null,
    createdOn: iso(f.created_on),
    modifiedOn: iso(f.modified_on),
  }),
  relations: [
    {
      key: 'checkedoutby',
      type: 'user',
      many: false,
      href: (f, rc) => `${core(rc)}/user/${f.checked_out_by === null ? '' : userGuid(f.checked_out_by)}`,
      load: async (f, rc) => (f.checked_out_by === null ? null : ((await load.users(rc.ctx.store, [f.checked_out_by]))[0] ?? null)),
    },
    { key: 'fileversions', type: 'fileversion', many: true, href: (f, rc) => `${core(rc)}/file/${f.id}/fileversions`, load: (f, rc) => loadFiles.versionsOfFile(rc.ctx.store, f.id) },
    {
      key: 'latestversion',
      type: 'fileversion',
      many: false,
      href: (f, rc) => `${core(rc)}/file/${f.id}/latestversion`,
      load: async (f, rc) => (await loadFiles.latestOfFile(rc.ctx.store, f.id)) ?? null,
    },
    { key: 'record', type: 'record', many: false, href: (f, rc) => `${core(rc)}/record/${f.record_id}`, load: async (f, rc) => (await load.records(rc.ctx.store, [f.record_id]))[0] ?? null },
  ],
});

export const fileVersionType = defineType<FileVersionRow>({
  name: 'fileversion',
  self: (v, rc) => `${core(rc)}/fileversion/${v.id}`,
  attributes: (v) => ({
    id: v.id,
    fileId: v.file_id,
    recordId: v.record_id,
    version: v.version_number,
    // The name .NET models of the service read (a non-nullable long there).
    versionNumber: v.version_number,
    versionLabel: v.version_label,
    comment: v.comment,
    fileName: v.filename,
    extension: v.extension,
    mimeType: v.mime_type,
    // The size is left out, not null, until a seeded version's bytes are made: typed clients take a null size as an
    // error. The checksum is null until then, rather than absent: a member that appears once a version has been read
    // made two reads of one tenant differ (`dam tenant probe --compare` found it).
    ...(pending(v) ? { checksum: null } : { fileSize: Number(v.file_size), checksum: v.checksum }),
    fileExtension: v.extension,
    // Processing (hashing, the image probe) is done before a version is stored, so every version is ready.
    fileState: 'Available',
    preventDownload: false,
    hasImage: hasImage(v),
    // Only images have a size in pixels; left out, not null, for the rest.
    ...(v.width !== null && v.height !== null ? { width: v.width, height: v.height } : {}),
    createdOn: iso(v.created_on),
    fileCreatedOn: iso(v.created_on),
    fileModifiedOn: iso(v.created_on),
  }),
  relations: [
    // The download link is minted per read: it carries a fresh expiry and its signature.
    { key: 'download', type: 'download', many: false, href: (v, rc) => downloadUri(rc, 'fileversion', v.id), load: async (v, rc) => ({ href: downloadUri(rc, 'fileversion', v.id) }) },
    {
      key: 'additionalfiles',
      type: 'additionalfile',
      many: true,
      href: (v, rc) => `${core(rc)}/fileversion/${v.id}/additionalfiles`,
      load: (v, rc) => loadFiles.additionalOfVersion(rc.ctx.store, v.id),
    },
    { key: 'preview', type: 'image', many: false, href: (v, rc) => `${core(rc)}/fileversion/${v.id}/preview`, load: (v, rc) => imageOf(rc, 'preview', v) },
    { key: 'thumbnail', type: 'image', many: false, href: (v, rc) => `${core(rc)}/fileversion/${v.id}/thumbnail`, load: (v, rc) => imageOf(rc, 'thumbnail', v) },
    { key: 'file', type: 'file', many: false, href: (v, rc) => `${core(rc)}/file/${v.file_id}`, load: async (v, rc) => (await loadFiles.file(rc.ctx.store, v.file_id)) ?? null },
    // What public clients select besides (real-service-notes, second round). Public links are kept (POST /publiclinks);
    // the emulator publishes to no CDN of its own, so publicuris is an empty list, as on a tenant where none was made
    // (and `HasPublicUri` is false). The file type is the tenant's for the version's extension (GET /filetypes).
    {
      key: 'filetype',
      type: 'filetype',
      many: false,
      href: (v, rc) => `${core(rc)}/filetype/${derivedId('filetype', v.extension)}`,
      load: (v, rc) => tenantObjects.fileTypeOf(rc.ctx.store, v.extension, v.mime_type),
    },
    { key: 'publiclinks', type: 'publiclink', many: true, href: (v, rc) => `${core(rc)}/fileversion/${v.id}/publiclinks`, load: (v, rc) => publicLinks.byMember(rc.ctx.store, 'fileVersionId', v.id) },
    { key: 'publicuris', type: 'publicuri', many: true, href: (v, rc) => `${core(rc)}/fileversion/${v.id}/publicuris`, load: async () => [] },
    { key: 'renditions', type: 'rendition', many: true, href: (v, rc) => `${core(rc)}/fileversion/${v.id}/renditions`, load: (v, rc) => renditions.ofVersion(rc.ctx.store, v.id) },
  ],
});

export const additionalFileType = defineType<AdditionalFileRow>({
  name: 'additionalfile',
  self: (a, rc) => `${core(rc)}/additionalfile/${a.id}`,
  attributes: (a) => ({
    id: a.id,
    fileVersionId: a.file_version_id,
    name: a.name,
    label: a.label,
    // A rendition is named after its preset; a file added through a record's files section keeps its own name.
    fileName: a.preset ? `${a.name}.${a.format}` : a.name,
    extension: a.format,
    isManual: a.preset === null,
    preset: a.preset,
    format: a.format,
    mimeType: a.mime_type,
    usages: a.usages,
    ...(a.preset ? {} : { purposes: a.usages }),
    // A file added by a client has no measured size here: left out rather than null, which typed clients cannot read.
    ...(a.width === null ? {} : { width: a.width }),
    ...(a.height === null ? {} : { height: a.height }),
    fileSize: Number(a.file_size),
    createdOn: iso(a.created_on),
  }),
  // `select-additionalfile: uri, metadata` (real-service-notes): the rendition's download URI, and its preset and crop.
  optional: {
    uri: (a, rc) => downloadUri(rc, 'additionalfile', a.id),
    metadata: (a) => ({ preset: a.preset, format: a.format, width: a.width, height: a.height, crop: { x: 0, y: 0, width: a.width, height: a.height } }),
  },
  relations: [
    { key: 'download', type: 'download', many: false, href: (a, rc) => downloadUri(rc, 'additionalfile', a.id), load: async (a, rc) => ({ href: downloadUri(rc, 'additionalfile', a.id) }) },
    { key: 'fileversion', type: 'fileversion', many: false, href: (a, rc) => `${core(rc)}/fileversion/${a.file_version_id}`, load: async (a, rc) => (await loadFiles.version(rc.ctx.store, a.file_version_id)) ?? null },
    {
      key: 'publiclink',
      type: 'publiclink',
      many: false,
      href: (a, rc) => `${core(rc)}/additionalfile/${a.id}/publiclink`,
      load: async (a, rc) => (await publicLinks.byMember(rc.ctx.store, 'additionalFileId', a.id))[0] ?? null,
    },
  ],
});

/** Preview or thumbnail: its size follows from the version's and the fixed box; `uri` is its download URI. */
export const imageType = defineType<ImageRow>({
  name: 'image',
  self: (i, rc) => `${core(rc)}/image/${i.kind}?fileVersionId=${i.version.id}`,
  attributes: (i, rc) => {
    const size = fitWithin(i.version.width ?? 1, i.version.height ?? 1, IMAGE_SIZES[i.kind]);
    return {
      id: `${i.version.id}-${i.kind}`,
      kind: i.kind,
      fileVersionId: i.version.id,
      hasImage: hasImage(i.version),
      width: size.width,
      height: size.height,
      format: i.kind === 'preview' ? 'jpg' : 'png',
      extension: i.kind === 'preview' ? 'jpg' : 'png',
      ...(i.size === undefined ? {} : { size: i.size }),
      uri: downloadUri(rc, i.kind, i.version.id),
    };
  },
  relations: [
    { key: 'download', type: 'download', many: false, href: (i, rc) => downloadUri(rc, i.kind, i.version.id), load: async (i, rc) => ({ href: downloadUri(rc, i.kind, i.version.id) }) },
    { key: 'fileversion', type: 'fileversion', many: false, href: (i, rc) => `${core(rc)}/fileversion/${i.version.id}`, load: async (i) => i.version },
  ],
});

const IdParams = z.object({ id: Segment });
const ImageQuery = z.object({ fileVersionId: z.string().max(100).optional(), recordId: z.string().max(100).optional() }).loose();

export function register(app: FastifyInstance, ctx: EmulatorContext) {
  const base = '/api/core';
  const tag = 'Files';
  const { errors } = ctx;

  const guidOr404 = (what: string, id: string) => {
    const guid = normaliseGuid(id);
    if (!guid) throw errors.noDataFound(what, id.slice(0, 100));
    return guid;
  };
  async function record(id: string) {
    const guid = guidOr404('record', id);
    if (!(await load.records(ctx.store, [guid])).length) throw errors.noDataFound('record', id.slice(0, 100));
    return guid;
  }
  async function file(id: string) {
    const row = await loadFiles.file(ctx.store, guidOr404('file', id));
    if (!row) throw errors.noDataFound('file', id.slice(0, 100));
    return row;
  }
  async function versionRow(id: string) {
    const row = await loadFiles.version(ctx.store, guidOr404('file version', id));
    if (!row) throw errors.noDataFound('file version', id.slice(0, 100));
    return row;
  }
  /** A version with its bytes made, so size and checksum are real when it is read on its own. */
  async function version(id: string) {
    return materialised(ctx, await versionRow(id));
  }
  async function additional(id: string) {
    const row = await loadFiles.additional(ctx.store, guidOr404('additional file', id));
    if (!row) throw errors.noDataFound('additional file', id.slice(0, 100));
    return row;
  }
  const list = async <T>(rc: RenderContext, type: Parameters<typeof render<T>>[0], rows: T[], self: string) => ({
    items: await Promise.all(rows.map((r) => render(type, r, rc))),
    totalCount: rows.length,
    _links: { self: { href: self } },
  });
  /** HasImage=false (or no file at all) answers 404 with a message when the relation is followed. */
  const image = (row: ImageRow | null, kind: string, owner: string) => {
    if (!row) throw errors.notFound(`The ${kind} of '${owner}' does not exist: it has no image (HasImage=false).`);
    return row;
  };

  route(app, ctx, {
    method: 'GET',
    url: `${base}/record/:id/files`,
    summary: 'Files of a record',
    tag,
    params: IdParams,
    responses: { 200: { description: 'The files', schema: listOf(FileSchema) } },
    handler: async ({ params, request }) => {
      const id = await record(params.id);
      const rc = renderContext(ctx, request);
      return list(rc, fileType, await loadFiles.ofRecord(ctx.store, id), `${core(rc)}/record/${id}/files`);
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/record/:id/masterfile`,
    summary: 'Master file of a record (404 when it has none)',
    tag,
    params: IdParams,
    responses: { 200: { description: 'The master file', schema: FileSchema } },
    handler: async ({ params, request }) => {
      const id = await record(params.id);
      const rc = renderContext(ctx, request);
      const row = await masterFile(rc, id);
      if (!row) throw errors.noDataFound('master file of record', id);
      return render(fileType, row, rc);
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/record/:id/masterfilelatestversion`,
    summary: 'Newest version of the master file (404 when none)',
    tag,
    params: IdParams,
    responses: { 200: { description: 'The version', schema: FileVersionSchema } },
    handler: async ({ params, request }) => {
      const id = await record(params.id);
      const rc = renderContext(ctx, request);
      const row = await masterLatestVersion(rc, id);
      if (!row) throw errors.noDataFound('master file version of record', id);
      return render(fileVersionType, await materialised(ctx, row), rc);
    },
  });
  for (const kind of ['preview', 'thumbnail'] as const) {
    route(app, ctx, {
      method: 'GET',
      url: `${base}/record/:id/${kind}`,
      summary: `The ${kind} of a record (404 when it has no image)`,
      tag,
      params: IdParams,
      responses: { 200: { description: `The ${kind}, with its download URI`, schema: ImageSchema } },
      handler: async ({ params, request }) => {
        const id = await record(params.id);
        const rc = renderContext(ctx, request);
        return render(imageType, image(await recordImage(rc, id, kind), kind, id), rc);
      },
    });
    // Public clients also read a record's images at `/record/{id}/image/{kind}` (JSON with its `uri`) and their bytes
    // at `…/download` (`/image/Thumbnail/download`: paths match in any case).
    route(app, ctx, {
      method: 'GET',
      url: `${base}/record/:id/image/${kind}`,
      summary: `The ${kind} of a record, as at /record/{id}/${kind}`,
      tag,
      params: IdParams,
      responses: { 200: { description: `The ${kind}, with its download URI`, schema: ImageSchema } },
      handler: async ({ params, request }) => {
        const id = await record(params.id);
        const rc = renderContext(ctx, request);
        return render(imageType, image(await recordImage(rc, id, kind), kind, id), rc);
      },
    });
    route(app, ctx, {
      method: 'GET',
      url: `${base}/record/:id/image/${kind}/download`,
      summary: `The bytes of a record's ${kind}`,
      tag,
      params: IdParams,
      responses: { 200: { description: `The ${kind}'s bytes`, contentType: kind === 'preview' ? 'image/jpeg' : 'image/png' } },
      handler: async ({ params, request, reply }) => {
        const id = await record(params.id);
        const row = image(await recordImage(renderContext(ctx, request), id, kind), kind, id);
        const v = await materialised(ctx, row.version);
        const img = await imageBlob(ctx, { kind, version: v });
        return sendBlob(ctx, request, reply, img.key, `${v.filename.replace(/\.[^.]*$/, '')}_${kind}.${img.mime === 'image/png' ? 'png' : 'jpg'}`, img.mime);
      },
    });
    route(app, ctx, {
      method: 'GET',
      url: `${base}/fileversion/:id/${kind}`,
      summary: `The ${kind} of a file version (404 when HasImage=false)`,
      tag,
      params: IdParams,
      responses: { 200: { description: `The ${kind}, with its download URI`, schema: ImageSchema } },
      handler: async ({ params, request }) => {
        const v = await version(params.id);
        return render(imageType, image(hasImage(v) ? { kind, version: v } : null, kind, v.id), renderContext(ctx, request));
      },
    });
    route(app, ctx, {
      method: 'GET',
      url: `${base}/image/${kind}`,
      summary: `The ${kind} of a file version or record (?fileVersionId= or ?recordId=)`,
      tag,
      query: ImageQuery,
      responses: { 200: { description: `The ${kind}, with its download URI`, schema: ImageSchema } },
      handler: async ({ query, request }) => {
        const rc = renderContext(ctx, request);
        if (query.fileVersionId) {
          const v = await version(query.fileVersionId);
          return render(imageType, image(hasImage(v) ? { kind, version: v } : null, kind, v.id), rc);
        }
        if (query.recordId) {
          const id = await record(query.recordId);
          return render(imageType, image(await recordImage(rc, id, kind), kind, id), rc);
        }
        throw errors.badRequest(`GET /image/${kind} needs the query parameter fileVersionId or recordId.`);
      },
    });
  }

  route(app, ctx, {
    method: 'GET',
    url: `${base}/file/:id`,
    summary: 'Read a file',
    tag,
    params: IdParams,
    responses: { 200: { description: 'The file', schema: FileSchema } },
    handler: async ({ params, request }) => render(fileType, await file(params.id), renderContext(ctx, request)),
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/file/:id/fileversions`,
    summary: 'Versions of a file, oldest first',
    tag,
    params: IdParams,
    responses: { 200: { description: 'The versions', schema: listOf(FileVersionSchema) } },
    handler: async ({ params, request }) => {
      const f = await file(params.id);
      const rc = renderContext(ctx, request);
      return list(rc, fileVersionType, await loadFiles.versionsOfFile(ctx.store, f.id), `${core(rc)}/file/${f.id}/fileversions`);
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/file/:id/latestversion`,
    summary: 'Newest version of a file',
    tag,
    params: IdParams,
    responses: { 200: { description: 'The version', schema: FileVersionSchema } },
    handler: async ({ params, request }) => {
      const f = await file(params.id);
      const latest = await loadFiles.latestOfFile(ctx.store, f.id);
      if (!latest) throw errors.noDataFound('version of file', f.id);
      return render(fileVersionType, await materialised(ctx, latest), renderContext(ctx, request));
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/fileversion/:id`,
    summary: 'Read a file version (its download link carries a signed, expiring URI)',
    tag,
    params: IdParams,
    responses: { 200: { description: 'The version', schema: FileVersionSchema } },
    handler: async ({ params, request }) => render(fileVersionType, await version(params.id), renderContext(ctx, request)),
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/fileversion/:id/additionalfiles`,
    summary: 'Renditions of a file version',
    tag,
    params: IdParams,
    responses: { 200: { description: 'The renditions', schema: listOf(AdditionalFileSchema) } },
    handler: async ({ params, request }) => {
      const row = await versionRow(params.id);
      const rc = renderContext(ctx, request);
      return list(rc, additionalFileType, await loadFiles.additionalOfVersion(ctx.store, row.id), `${core(rc)}/fileversion/${row.id}/additionalfiles`);
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/additionalfile/:id`,
    summary: 'Read an additional file (rendition)',
    tag,
    params: IdParams,
    responses: { 200: { description: 'The rendition', schema: AdditionalFileSchema } },
    handler: async ({ params, request }) => render(additionalFileType, await additional(params.id), renderContext(ctx, request)),
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/additionalfile`,
    summary: 'Additional files of a file version (?fileVersionId=)',
    tag,
    query: z.object({ fileVersionId: z.string().max(100).optional() }).loose(),
    responses: { 200: { description: 'The renditions', schema: listOf(AdditionalFileSchema) } },
    handler: async ({ query, request }) => {
      if (!query.fileVersionId) throw errors.badRequest('GET /additionalfile needs the query parameter fileVersionId (or use /additionalfile/{id}).');
      const row = await versionRow(query.fileVersionId);
      const rc = renderContext(ctx, request);
      return list(rc, additionalFileType, await loadFiles.additionalOfVersion(ctx.store, row.id), `${core(rc)}/additionalfile?fileVersionId=${row.id}`);
    },
  });

  // The download URI: no bearer token (the URI carries its own), only User-Agent is required (spec header table). The
  // spec lists /download among the content API's paths ({core_url}/download) as it does /docs: both are served.
  route(app, ctx, {
    method: 'GET',
    url: ['/download', '/api/core/download'],
    summary: 'Bytes behind a download URI (Content-Disposition, Range, Location-Alias)',
    tag,
    policy: 'download',
    query: z.object({ kind: z.string().optional(), id: z.string().optional(), expires: z.string().optional(), token: z.string().optional() }).loose(),
    responses: {
      200: { description: 'The bytes, with Content-Disposition', contentType: 'application/octet-stream' },
      206: { description: 'The requested range', contentType: 'application/octet-stream' },
      403: { description: 'The URI\'s token is missing, altered or expired' },
      416: { description: 'The range is outside the file' },
    },
    handler: async ({ request, reply }) => {
      const alias = request.headers['location-alias'];
      if (alias !== undefined && !['us1', 'eu2', 'au1', 'cn1'].includes(String(alias).toLowerCase())) {
        throw errors.badRequest(`Location-Alias must be one of us1, eu2, au1, cn1; got '${String(alias).slice(0, 20)}'.`);
      }
      const grant = verifyDownload(ctx, request.query as Record<string, unknown>);
      let key: string;
      let filename: string;
      let mime: string;
      if (grant.kind === 'fileversion') {
        const v = await version(grant.id);
        key = v.blob!;
        filename = v.filename;
        mime = v.mime_type;
      } else if (grant.kind === 'additionalfile') {
        const a = await additional(grant.id);
        key = a.blob;
        const v = await loadFiles.version(ctx.store, a.file_version_id);
        const stem = v ? v.filename.replace(/\.[^.]*$/, '') : a.id;
        filename = `${stem}_${a.name}.${a.format}`;
        mime = a.mime_type;
      } else {
        const v = await version(grant.id);
        if (!hasImage(v)) throw errors.notFound(`The ${grant.kind} of '${v.id}' does not exist: it has no image (HasImage=false).`);
        const img = await imageBlob(ctx, { kind: grant.kind, version: v });
        key = img.key;
        filename = `${v.filename.replace(/\.[^.]*$/, '')}_${grant.kind}.${img.mime === 'image/png' ? 'png' : 'jpg'}`;
        mime = img.mime;
      }
      return sendBlob(ctx, request, reply, key, filename, mime);
    },
  });
}

function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** Streams a blob, honouring one `bytes=a-b` range (206) and answering 416 for one outside the file. */
async function sendBlob(ctx: EmulatorContext, request: FastifyRequest, reply: FastifyReply, key: string, filename: string, mime: string) {
  const size = await ctx.blobs.size(key);
  if (size === undefined) throw ctx.errors.noDataFound('file content', key);
  reply.header('Content-Disposition', contentDisposition(filename)).header('Accept-Ranges', 'bytes').type(mime);
  const range = typeof request.headers.range === 'string' ? /^bytes=(\d*)-(\d*)$/.exec(request.headers.range.trim()) : null;
  if (range && (range[1] || range[2])) {
    let start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]));
    let end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
    if (!range[1]) end = size - 1;
    if (start >= size || start > end) {
      throw ctx.errors.rangeNotSatisfiable(`The range '${request.headers.range}' is outside the file (${size} bytes).`, size);
    }
    start = Math.max(0, start);
    end = Math.max(start, end);
    reply.code(206).header('Content-Range', `bytes ${start}-${end}/${size}`).header('Content-Length', String(end - start + 1));
    return reply.send(ctx.blobs.read(key, { start, end }));
  }
  reply.header('Content-Length', String(size));
  return reply.send(ctx.blobs.read(key));
}
