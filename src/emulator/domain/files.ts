// Files of records: versions made from upload tokens (the `files` section of a record body), the loaders the HAL
// types use, bytes of versions (seeded ones are made on first read), previews and thumbnails rendered on demand,
// and signed download URIs.
import { createHmac, createHash, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { BlobStore } from '../blobs';
import type { EmulatorContext } from '../context';
import { errors } from '../errors';
import { normaliseGuid, type RenderContext } from '../hal';
import type { Queryable } from '../storage/store';
import { consumeUpload } from './uploads';
import { generateSeedFile, type SeedFileGenerator } from './generatedFiles';
import { DECODABLE, ImageWorkError, MAX_DECODE_BYTES, probeImage, renderImage, tooLargeMessage } from '../images';

export interface FileRow {
  id: string;
  record_id: string;
  is_master: boolean;
  checked_out_by: number | null;
  checked_out_on: Date | null;
  created_on: Date;
  modified_on: Date;
}

export interface FileVersionRow {
  id: string;
  file_id: string;
  record_id: string;
  version_number: number;
  version_label: string | null;
  comment: string | null;
  filename: string;
  extension: string;
  mime_type: string;
  file_size: string | number;
  checksum: string | null;
  blob: string | null;
  generator: SeedFileGenerator | null;
  width: number | null;
  height: number | null;
  preview_blob: string | null;
  thumbnail_blob: string | null;
  created_on: Date;
  created_by: number;
}

export interface AdditionalFileRow {
  id: string;
  file_version_id: string;
  name: string;
  label: string | null;
  preset: string | null;
  format: string;
  mime_type: string;
  usages: string[];
  width: number | null;
  height: number | null;
  file_size: string | number;
  blob: string;
  job_id: string | null;
  created_on: Date;
}

/** A preview or thumbnail of a version; `version` without width/height is the HasImage=false case. */
export interface ImageRow {
  kind: 'preview' | 'thumbnail';
  version: FileVersionRow;
  /** Its size in bytes, once it has been rendered (left out before: it is not known, and null breaks typed clients). */
  size?: number;
}

/** A version's preview or thumbnail, with its size when it was rendered already; null when the version has none. */
export async function imageOf(rc: RenderContext, kind: ImageRow['kind'], version: FileVersionRow): Promise<ImageRow | null> {
  if (!hasImage(version)) return null;
  const blob = kind === 'preview' ? version.preview_blob : version.thumbnail_blob;
  const size = blob ? await rc.ctx.blobs.size(blob) : undefined;
  return size === undefined ? { kind, version } : { kind, version, size };
}

/** Longest side of a rendered preview and thumbnail (never upscaled). */
export const IMAGE_SIZES = { preview: 1024, thumbnail: 256 } as const;

export function fitWithin(width: number, height: number, box: number): { width: number; height: number } {
  const scale = Math.min(1, box / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** Media types by extension; a Map, since the extension comes from a client's file name (`x.constructor`). */
const MIME = new Map<string, string>([
  ['png', 'image/png'],
  ['jpg', 'image/jpeg'],
  ['jpeg', 'image/jpeg'],
  ['gif', 'image/gif'],
  ['bmp', 'image/bmp'],
  ['tif', 'image/tiff'],
  ['tiff', 'image/tiff'],
  ['webp', 'image/webp'],
  ['pdf', 'application/pdf'],
  ['txt', 'text/plain'],
  // Common text files, so a client can show them as text (a Markdown file was stored as application/octet-stream).
  ['md', 'text/markdown'],
  ['markdown', 'text/markdown'],
  ['csv', 'text/csv'],
  ['tsv', 'text/tab-separated-values'],
  ['html', 'text/html'],
  ['htm', 'text/html'],
  ['css', 'text/css'],
  ['xml', 'application/xml'],
  ['yaml', 'application/yaml'],
  ['yml', 'application/yaml'],
  ['log', 'text/plain'],
  ['rtf', 'application/rtf'],
  ['json', 'application/json'],
  ['mp4', 'video/mp4'],
  ['mov', 'video/quicktime'],
  ['zip', 'application/zip'],
]);

export function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot > 0 ? filename.slice(dot + 1).toLowerCase() : '';
}
export const mimeOf = (ext: string) => MIME.get(ext) ?? 'application/octet-stream';

// The spec's list; control characters are refused too, since they cannot travel in Content-Disposition.
const FORBIDDEN_NAME = /[<>:"/\\|?*]/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x1f]/;

const Ref = z.union([z.string().max(2000), z.object({ id: z.string().max(2000) }).loose()]);
// An additional file of a version, from an upload token (a new one) or by its id (an edit of its label).
const AdditionalFileEntry = z
  .object({
    id: z.string().min(1).max(2000),
    filename: z.string().max(500).nullish(),
    label: z.string().max(500).nullish(),
    extension: z.string().max(50).nullish(),
    purposes: z.array(z.string().max(200)).max(50).nullish(),
  })
  .loose();
const AdditionalFilesSection = z.object({ addOrUpdate: z.array(AdditionalFileEntry).max(100).optional(), remove: z.array(Ref).max(100).optional() }).loose();
// `previews` (a version's own preview images, .NET clients send `Previews`): `master` and `addOrUpdate` name upload tokens.
const PreviewsSection = z.object({ master: z.string().max(2000).nullish(), addOrUpdate: z.array(z.object({ id: z.string().min(1).max(2000), name: z.string().max(500).nullish() }).loose()).max(100).optional() }).loose();
const VersionEntry = z
  .object({
    id: z.string().min(1).max(2000),
    filename: z.string().max(500).nullish(),
    versionLabel: z.string().max(500).nullish(),
    comment: z.string().max(10_000).nullish(),
    additionalFiles: AdditionalFilesSection.nullish(),
    previews: PreviewsSection.nullish(),
  })
  .loose();
const FileEntry = z
  .object({
    id: z.string().max(2000).nullish(),
    isMaster: z.boolean().nullish(),
    versions: z.object({ addOrUpdate: z.array(VersionEntry).max(100).optional() }).loose().nullish(),
  })
  .loose();
export const FilesSection = z
  .object({
    master: z.string().max(2000).nullish(),
    addOrUpdate: z.array(FileEntry).max(100).optional(),
    remove: z.array(z.union([z.string().max(100), z.object({ id: z.string().max(100) }).loose()])).max(100).optional(),
  })
  .loose();
export type FilesSection = z.infer<typeof FilesSection>;

/**
 * Width and height when the blob is an image the emulator derives previews from; undefined otherwise (HasImage=false),
 * also when its header declares more pixels than the contract's cap: the file is kept, nothing is derived from it.
 * Only the header is read, in the probe worker: a decompression bomb is never decoded.
 */
async function probeVersion(blobs: BlobStore, key: string, filename: string, size: number): Promise<{ width: number; height: number } | undefined> {
  if (!DECODABLE.has(extensionOf(filename)) || size > MAX_DECODE_BYTES) return undefined;
  try {
    const probed = await probeImage(blobs, key, `the size of '${filename.slice(0, 200)}'`);
    return probed.kind === 'image' ? { width: probed.width, height: probed.height } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why a version has no preview, thumbnail or rendition, in words: not an image, too large a file, or a header that
 * declares more pixels than the cap (read again from the header, so the answer names the declared size).
 */
export async function whyNoImage(ctx: EmulatorContext, version: FileVersionRow): Promise<string> {
  const name = `'${version.filename}'`;
  if (!DECODABLE.has(version.extension)) return `${name} is not an image (HasImage=false)`;
  if (Number(version.file_size) > MAX_DECODE_BYTES) return `${name} is larger than ${MAX_DECODE_BYTES / 1048576} MB, more than the emulator decodes (HasImage=false)`;
  if (version.blob) {
    try {
      const probed = await probeImage(ctx.blobs, version.blob, `the size of ${name}`);
      if (probed.kind === 'tooLarge') return `${name} gets no derived images: ${tooLargeMessage(probed.width, probed.height)} (HasImage=false)`;
    } catch {
      // Unreadable as an image: the general answer below.
    }
  }
  return `${name} could not be read as an image (HasImage=false)`;
}

/**
 * Applies a record body's `files` section inside the record's transaction. A version entry names an upload token (a
 * new version) or the id of one of the record's versions (an edit of it: its label, comment, file name, additional
 * files and previews, as the spec's editing rule has addOrUpdate name existing elements by id); an entry without a
 * file id adds to the record's master file (made on first use), so the same section creates a record's first file on
 * POST and a new version on PUT. `master` alone is shorthand for one version.
 */
export async function applyFilesSection(tx: Queryable, blobs: BlobStore, recordId: string, section: FilesSection, userId: number, now: Date): Promise<void> {
  for (const ref of section.remove ?? []) {
    const id = normaliseGuid(typeof ref === 'string' ? ref : ref.id) ?? '';
    await tx.query('DELETE FROM files WHERE id = $1 AND record_id = $2', [id, recordId]);
  }
  const entries: { fileId?: string; versions: z.infer<typeof VersionEntry>[] }[] = [];
  for (const entry of section.addOrUpdate ?? []) {
    const fileId = entry.id ? normaliseGuid(entry.id) : undefined;
    if (entry.id && !fileId) throw errors.noDataFound('file', entry.id.slice(0, 100));
    entries.push({ fileId, versions: entry.versions?.addOrUpdate ?? [] });
  }
  const master = section.master ?? undefined;
  if (master && !entries.some((e) => e.versions.some((v) => v.id === master))) entries.unshift({ versions: [{ id: master }] });

  let masterFileId = (await tx.query<{ id: string }>('SELECT id FROM files WHERE record_id = $1 AND is_master ORDER BY created_on LIMIT 1', [recordId]))[0]?.id;
  for (const entry of entries) {
    if (!entry.versions.length) continue;
    let fileId = entry.fileId;
    if (fileId) {
      const found = await tx.query('SELECT 1 FROM files WHERE id = $1 AND record_id = $2', [fileId, recordId]);
      if (!found.length) throw errors.noDataFound('file', fileId);
    } else if (masterFileId) {
      fileId = masterFileId;
    } else {
      fileId = newId();
      await tx.query('INSERT INTO files (id, record_id, is_master, created_on, modified_on) VALUES ($1, $2, true, $3, $3)', [fileId, recordId, now.toISOString()]);
      masterFileId = fileId;
    }
    for (const v of entry.versions) {
      const existing = await versionOfRecord(tx, recordId, v.id);
      const versionId = existing ? await editVersion(tx, existing, v) : await createVersion(tx, blobs, recordId, fileId, v, userId, now);
      await applyVersionSections(tx, versionId, v, now);
    }
    await tx.query('UPDATE files SET modified_on = $2 WHERE id = $1', [fileId, now.toISOString()]);
  }
  await tx.query('UPDATE records SET file_count = (SELECT count(*) FROM files WHERE record_id = $1) WHERE id = $1', [recordId]);
}

function checkFileName(name: string | null | undefined): void {
  if (name && (FORBIDDEN_NAME.test(name) || CONTROL.test(name))) {
    throw errors.validation(`The file name '${name.slice(0, 100)}' contains a character that is not allowed (< > : " / \\ | ? *).`);
  }
}

/** The record's version with this id (32 hex digits, dashed or not), or undefined: then the id is an upload token. */
async function versionOfRecord(tx: Queryable, recordId: string, id: string): Promise<FileVersionRow | undefined> {
  const guid = normaliseGuid(id);
  if (!guid) return undefined;
  return (await tx.query<FileVersionRow>('SELECT * FROM file_versions WHERE id = $1 AND record_id = $2', [guid, recordId]))[0];
}

/** An entry naming an existing version edits what it sends of it; members it leaves out stay as they are. */
async function editVersion(tx: Queryable, version: FileVersionRow, entry: z.infer<typeof VersionEntry>): Promise<string> {
  checkFileName(entry.filename);
  const filename = entry.filename || version.filename;
  const ext = entry.filename ? extensionOf(filename) : version.extension;
  await tx.query('UPDATE file_versions SET version_label = $2, comment = $3, filename = $4, extension = $5, mime_type = $6 WHERE id = $1', [
    version.id,
    entry.versionLabel === undefined ? version.version_label : entry.versionLabel,
    entry.comment === undefined ? version.comment : entry.comment,
    filename,
    ext,
    entry.filename ? mimeOf(ext) : version.mime_type,
  ]);
  return version.id;
}

/**
 * A version's `additionalFiles` section: an entry with an upload token adds an additional file (named, labelled and
 * typed as sent), one with an additional file's id changes its label; `remove` takes ids. `previews` tokens are kept
 * as additional files used as previews (the record's own preview stays the one rendered from its master file).
 */
async function applyVersionSections(tx: Queryable, versionId: string, entry: z.infer<typeof VersionEntry>, now: Date): Promise<void> {
  for (const ref of entry.additionalFiles?.remove ?? []) {
    const id = normaliseGuid(typeof ref === 'string' ? ref : ref.id) ?? '';
    await tx.query('DELETE FROM additional_files WHERE id = $1 AND file_version_id = $2', [id, versionId]);
  }
  const added: { id: string; filename?: string | null; label?: string | null; extension?: string | null; usages: string[] }[] = [];
  for (const a of entry.additionalFiles?.addOrUpdate ?? []) added.push({ ...a, usages: a.purposes ?? [] });
  const previews = entry.previews;
  const previewTokens = [...(previews?.addOrUpdate ?? []).map((p) => ({ id: p.id, filename: p.name })), ...(previews?.master ? [{ id: previews.master, filename: undefined }] : [])];
  for (const p of previewTokens) if (!added.some((a) => a.id === p.id)) added.push({ ...p, usages: ['Preview'] });
  for (const a of added) {
    const guid = normaliseGuid(a.id);
    const own = guid ? await tx.query<{ id: string }>('SELECT id FROM additional_files WHERE id = $1 AND file_version_id = $2', [guid, versionId]) : [];
    if (own[0]) {
      if (a.label !== undefined) await tx.query('UPDATE additional_files SET label = $2 WHERE id = $1', [own[0].id, a.label]);
      continue;
    }
    checkFileName(a.filename);
    const upload = await consumeUpload(tx, a.id);
    const name = a.filename || upload.filename;
    const ext = (a.extension ?? '').replace(/^\./, '').toLowerCase() || extensionOf(name);
    const label = a.label ?? (name.lastIndexOf('.') > 0 ? name.slice(0, name.lastIndexOf('.')) : name);
    await tx.query(
      `INSERT INTO additional_files (id, file_version_id, name, label, preset, format, mime_type, usages, width, height, file_size, blob, job_id, created_on)
       VALUES ($1, $2, $3, $4, NULL, $5, $6, $7, NULL, NULL, $8, $9, NULL, $10)`,
      [newId(), versionId, name, label, ext, mimeOf(ext), JSON.stringify(a.usages), upload.size, upload.blob, now.toISOString()],
    );
  }
}

async function createVersion(tx: Queryable, blobs: BlobStore, recordId: string, fileId: string, entry: z.infer<typeof VersionEntry>, userId: number, now: Date): Promise<string> {
  checkFileName(entry.filename);
  const upload = await consumeUpload(tx, entry.id);
  const filename = entry.filename || upload.filename;
  const ext = extensionOf(filename);
  const image = await probeVersion(blobs, upload.blob, filename, upload.size);
  const next = await tx.query<{ n: number }>('SELECT coalesce(max(version_number), 0) + 1 AS n FROM file_versions WHERE file_id = $1', [fileId]);
  const id = newId();
  await tx.query(
    `INSERT INTO file_versions (id, file_id, record_id, version_number, version_label, comment, filename, extension, mime_type, file_size, checksum, blob,
       width, height, upload_token, created_on, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
    [
      id,
      fileId,
      recordId,
      Number(next[0].n),
      entry.versionLabel ?? null,
      entry.comment ?? null,
      filename,
      ext,
      mimeOf(ext),
      upload.size,
      upload.sha256,
      upload.blob,
      image?.width ?? null,
      image?.height ?? null,
      entry.id.slice(0, 500),
      now.toISOString(),
      userId,
    ],
  );
  return id;
}

export function newId(): string {
  return createHash('sha256').update(`${Date.now()}:${Math.random()}:${process.hrtime.bigint()}`).digest('hex').slice(0, 32);
}

// Loaders ---------------------------------------------------------------------------------------------------

const memo = async <T>(rc: RenderContext, key: string, fn: () => Promise<T>): Promise<T> => {
  if (rc.memo.has(key)) return rc.memo.get(key) as T;
  const value = await fn();
  rc.memo.set(key, value);
  return value;
};

export const loadFiles = {
  ofRecord: (db: Queryable, recordId: string) => db.query<FileRow>('SELECT * FROM files WHERE record_id = $1 ORDER BY is_master DESC, created_on, id', [recordId]),
  file: async (db: Queryable, id: string) => (await db.query<FileRow>('SELECT * FROM files WHERE id = $1', [id]))[0],
  versionsOfFile: (db: Queryable, fileId: string) => db.query<FileVersionRow>('SELECT * FROM file_versions WHERE file_id = $1 ORDER BY version_number', [fileId]),
  version: async (db: Queryable, id: string) => (await db.query<FileVersionRow>('SELECT * FROM file_versions WHERE id = $1', [id]))[0],
  latestOfFile: async (db: Queryable, fileId: string) =>
    (await db.query<FileVersionRow>('SELECT * FROM file_versions WHERE file_id = $1 ORDER BY version_number DESC LIMIT 1', [fileId]))[0],
  additionalOfVersion: (db: Queryable, versionId: string) =>
    db.query<AdditionalFileRow>('SELECT * FROM additional_files WHERE file_version_id = $1 ORDER BY created_on, name', [versionId]),
  additional: async (db: Queryable, id: string) => (await db.query<AdditionalFileRow>('SELECT * FROM additional_files WHERE id = $1', [id]))[0],
};

export async function masterFile(rc: RenderContext, recordId: string): Promise<FileRow | null> {
  return memo(rc, `masterfile:${recordId}`, async () => {
    const rows = await rc.ctx.store.query<FileRow>('SELECT * FROM files WHERE record_id = $1 AND is_master ORDER BY created_on LIMIT 1', [recordId]);
    return rows[0] ?? null;
  });
}

export async function masterLatestVersion(rc: RenderContext, recordId: string): Promise<FileVersionRow | null> {
  return memo(rc, `masterlatest:${recordId}`, async () => {
    const file = await masterFile(rc, recordId);
    if (!file) return null;
    return (await loadFiles.latestOfFile(rc.ctx.store, file.id)) ?? null;
  });
}

/** The record's preview/thumbnail: that of its master file's newest version, null when that is not an image. */
export async function recordImage(rc: RenderContext, recordId: string, kind: ImageRow['kind']): Promise<ImageRow | null> {
  const version = await masterLatestVersion(rc, recordId);
  return version && imageOf(rc, kind, version);
}

export const hasImage = (v: FileVersionRow) => v.width !== null && v.height !== null;

// Bytes -----------------------------------------------------------------------------------------------------

/**
 * Makes sure a version's bytes exist in the blob store: a seeded version (or one whose blob folder was lost, as in
 * an in-memory emulator started from the seeded template) is regenerated from its generator description.
 */
export async function materialised(ctx: EmulatorContext, version: FileVersionRow): Promise<FileVersionRow> {
  if (version.blob && (await ctx.blobs.size(version.blob)) !== undefined) return version;
  if (!version.generator) throw errors.noDataFound('file content of version', version.id);
  const bytes = await generateSeedFile(version.generator);
  const written = await ctx.blobs.put(bytes);
  // Two first reads at once both generate the same bytes; whichever update lands last wins, the other blob goes.
  await ctx.store.query('UPDATE file_versions SET blob = $2, file_size = $3, checksum = $4, preview_blob = NULL, thumbnail_blob = NULL WHERE id = $1', [
    version.id,
    written.key,
    written.size,
    written.sha256,
  ]);
  if (version.blob && version.blob !== written.key) await ctx.blobs.remove(version.blob);
  return { ...version, blob: written.key, file_size: written.size, checksum: written.sha256, preview_blob: null, thumbnail_blob: null };
}

/** Renders of previews and thumbnails under way, so that readers asking at once share one. */
const rendering = new Map<string, Promise<{ key: string; mime: string; width: number; height: number }>>();

/** The blob of a preview or thumbnail, rendered from the version's image (in the image worker pool) on first request and kept. */
export async function imageBlob(ctx: EmulatorContext, image: ImageRow): Promise<{ key: string; mime: string; width: number; height: number }> {
  const version = await materialised(ctx, image.version);
  if (!hasImage(version)) throw errors.noDataFound(image.kind, version.id);
  const column = image.kind === 'preview' ? 'preview_blob' : 'thumbnail_blob';
  const mime = image.kind === 'preview' ? 'image/jpeg' : 'image/png';
  const size = fitWithin(version.width!, version.height!, IMAGE_SIZES[image.kind]);
  const cached = version[column];
  if (cached && (await ctx.blobs.size(cached)) !== undefined) return { key: cached, mime, ...size };
  const key = `${version.id}:${image.kind}:${version.blob}`;
  let pending = rendering.get(key);
  if (!pending) {
    pending = (async () => {
      let rendered;
      try {
        rendered = await renderImage(
          ctx.blobs,
          version.blob!,
          { extension: version.extension, box: IMAGE_SIZES[image.kind], format: image.kind === 'preview' ? 'jpg' : 'png', quality: image.kind === 'preview' ? 82 : undefined },
          `the ${image.kind} of '${version.filename}'`,
          ctx.log,
        );
      } catch (err) {
        if (!(err instanceof ImageWorkError)) throw err;
        // A header that reads as an image over pixels that do not (a truncated or inconsistent file): the version has
        // no image from now on (HasImage=false, as its record then says), instead of a decode on every request.
        await ctx.store.query('UPDATE file_versions SET width = NULL, height = NULL WHERE id = $1', [version.id]);
        throw errors.noDataMatches(`${err.message.slice(0, 300)} (HasImage=false).`);
      }
      const written = await ctx.blobs.put(rendered.bytes);
      await ctx.store.query(`UPDATE file_versions SET ${column} = $2 WHERE id = $1`, [version.id, written.key]);
      return { key: written.key, mime, ...size };
    })().finally(() => rendering.delete(key));
    rendering.set(key, pending);
  }
  return pending;
}

// Download URIs ---------------------------------------------------------------------------------------------

/** Spec, Limits: download URIs expire after 30 hours with disk storage. */
export const DOWNLOAD_TTL_SECONDS = 30 * 3600;
export type DownloadKind = 'fileversion' | 'additionalfile' | 'preview' | 'thumbnail';
const KINDS: DownloadKind[] = ['fileversion', 'additionalfile', 'preview', 'thumbnail'];

function signature(secret: string, kind: string, id: string, expires: number): string {
  return createHmac('sha256', secret).update(`download\n${kind}\n${id}\n${expires}`).digest('base64url');
}

/** `/download?…` carrying what it grants (kind and id), until when, and an HMAC over both with the tenant secret. */
export function downloadUri(rc: RenderContext, kind: DownloadKind, id: string): string {
  const expires = Math.floor(rc.ctx.clock.now().getTime() / 1000) + DOWNLOAD_TTL_SECONDS;
  const params = new URLSearchParams({ kind, id, expires: String(expires), token: signature(rc.ctx.secret, kind, id, expires) });
  return `${rc.origin}/download?${params.toString()}`;
}

/** Checks a download URI's query; a missing, altered or expired token is 403 with a message saying which. */
export function verifyDownload(ctx: EmulatorContext, query: Record<string, unknown>): { kind: DownloadKind; id: string } {
  const text = (name: string) => (typeof query[name] === 'string' ? (query[name] as string) : '');
  const kind = text('kind') as DownloadKind;
  const id = text('id');
  const expires = Number(text('expires'));
  const token = text('token');
  if (!KINDS.includes(kind) || !id || !Number.isInteger(expires) || !token) throw errors.downloadDenied('The download URI is incomplete: it needs kind, id, expires and token.');
  const expected = Buffer.from(signature(ctx.secret, kind, id, expires));
  const given = Buffer.from(token);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw errors.downloadDenied('The security token of the download URI is not valid.');
  if (expires * 1000 < ctx.clock.now().getTime()) throw errors.downloadDenied('The download URI has expired; read the resource again for a fresh one.');
  return { kind, id };
}
