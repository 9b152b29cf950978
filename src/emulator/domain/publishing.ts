// What the SDK's content modules read beside records and files (issue 36): public links (kept), renditions (the
// additional files CreateRenditions made, read as renditions), download links (the download orders), and the file
// types and setting categories a tenant has for what it holds (one per extension of its file versions, one per
// category its setting definitions name) besides those created through the API.
import { createHash } from 'node:crypto';
import { errors } from '../errors';
import type { Queryable } from '../storage/store';
import { configurationObjects, type ObjectKind, type ObjectRow } from './configurationObjects';
import { EN_US } from './languages';
import { loadFiles, type AdditionalFileRow } from './files';
import type { OrderRow } from './orders';

/** The id of an object the emulator derives from what the tenant holds: the same on every read and every tenant. */
export function derivedId(kind: ObjectKind, key: string): string {
  return createHash('md5').update(`${kind}:${key.toLowerCase()}`).digest('hex');
}

const EPOCH = new Date(0);
const guid = (v: unknown) => (typeof v === 'string' ? v.replace(/[{}-]/g, '').toLowerCase() : undefined);

// ---- Public links

const TARGETS = ['recordId', 'fileVersionId', 'additionalFileId'] as const;

export const publicLinks = {
  byMember: (db: Queryable, member: (typeof TARGETS)[number], id: string) =>
    db.query<ObjectRow>("SELECT * FROM configuration_objects WHERE kind = 'publiclink' AND body->>$1 = $2 ORDER BY created_on, id", [member, id]),

  /**
   * A create's body made whole (the module: uri and provider, and exactly one target id): the target must exist, and
   * the record (and version) it belongs to are filled in, as the model's "id of the related record" reads.
   */
  async prepare(db: Queryable, body: Record<string, unknown>): Promise<Record<string, unknown>> {
    for (const name of ['uri', 'provider']) if (typeof body[name] !== 'string' || !(body[name] as string).trim()) throw errors.validation(`A public link needs ${name} (a text).`);
    const named = TARGETS.filter((t) => body[t] !== undefined && body[t] !== null && body[t] !== '');
    if (named.length !== 1) throw errors.validation(`A public link names exactly one target: recordId, fileVersionId or additionalFileId (got ${named.length ? named.join(', ') : 'none'}).`);
    if (body.fileSize !== undefined && body.fileSize !== null && !Number.isInteger(body.fileSize)) throw errors.validation('fileSize must be a whole number of bytes.');
    const out: Record<string, unknown> = { ...body, recordId: null, fileVersionId: null, additionalFileId: null };
    const id = guid(body[named[0]]) ?? '';
    if (named[0] === 'recordId') {
      if (!(await db.query('SELECT 1 FROM records WHERE id = $1', [id])).length) throw errors.validation(`No record with id '${String(body.recordId).slice(0, 100)}' exists.`);
      out.recordId = id;
    } else if (named[0] === 'fileVersionId') {
      const v = await loadFiles.version(db, id);
      if (!v) throw errors.validation(`No file version with id '${String(body.fileVersionId).slice(0, 100)}' exists.`);
      Object.assign(out, { fileVersionId: v.id, recordId: v.record_id });
    } else {
      const a = await loadFiles.additional(db, id);
      if (!a) throw errors.validation(`No additional file with id '${String(body.additionalFileId).slice(0, 100)}' exists.`);
      const v = await loadFiles.version(db, a.file_version_id);
      Object.assign(out, { additionalFileId: a.id, fileVersionId: a.file_version_id, recordId: v?.record_id ?? null });
    }
    return out;
  },

  /** An update's body: the target cannot change (the module), the rest as sent. */
  changes(row: ObjectRow, body: Record<string, unknown>): Record<string, unknown> {
    for (const t of TARGETS) {
      if (body[t] !== undefined && guid(body[t]) !== (row.body[t] ?? undefined)) throw errors.validation(`The ${t} of a public link cannot be changed after it is created.`);
    }
    const out = Object.fromEntries(Object.entries(body).filter(([k]) => !(TARGETS as readonly string[]).includes(k)));
    for (const name of ['uri', 'provider']) if (name in out && (typeof out[name] !== 'string' || !(out[name] as string).trim())) throw errors.validation(`A public link needs ${name} (a text).`);
    return out;
  },
};

// ---- Renditions

/** An additional file read as a rendition, with the public links made for it. */
export interface RenditionRow extends AdditionalFileRow {
  links: ObjectRow[];
}

async function withLinks(db: Queryable, a: AdditionalFileRow): Promise<RenditionRow> {
  const ofVersion = await publicLinks.byMember(db, 'fileVersionId', a.file_version_id);
  const name = (a.preset ?? a.name).toLowerCase();
  const links = ofVersion.filter((l) => l.body.additionalFileId === a.id || String(l.body.renditionName ?? '').toLowerCase() === name);
  return { ...a, links };
}

export const renditions = {
  async ofVersion(db: Queryable, versionId: string): Promise<RenditionRow[]> {
    return Promise.all((await loadFiles.additionalOfVersion(db, versionId)).map((a) => withLinks(db, a)));
  },
  async find(db: Queryable, id: string): Promise<RenditionRow> {
    const a = await loadFiles.additional(db, guid(id) ?? '');
    if (!a) throw errors.noDataFound('rendition', id.slice(0, 100));
    return withLinks(db, a);
  },
};

// ---- Download links

export const downloadLinks = {
  list: (db: Queryable) => db.query<OrderRow>("SELECT * FROM orders WHERE type = 'download' ORDER BY created_on DESC, id LIMIT 200"),
  async find(db: Queryable, id: string): Promise<OrderRow> {
    const row = (await db.query<OrderRow>("SELECT * FROM orders WHERE type = 'download' AND id = $1", [guid(id) ?? '']))[0];
    if (!row) throw errors.noDataFound('download link', id.slice(0, 100));
    return row;
  },
};

// ---- File types and setting categories: derived ones, and those kept

/** What a type of file is, by its MIME type's top level (the model's `kind`). */
function fileKind(mime: string): string {
  const top = mime.split('/')[0];
  if (top === 'image' || top === 'video' || top === 'audio') return top.charAt(0).toUpperCase() + top.slice(1);
  return 'Document';
}

function derivedFileType(extension: string, mime: string, createdOn: Date): ObjectRow {
  const name = extension.toUpperCase();
  const kind = fileKind(mime);
  const body = {
    name,
    extension,
    mimeType: mime,
    kind,
    engineFormat: extension,
    labels: [{ languageId: EN_US, value: name }],
    isCatalogable: true,
    preferredExtension: true,
    previewFormat: kind === 'Image' && extension === 'png' ? 'Png' : 'Jpg',
    previewRequired: kind === 'Image' || kind === 'Video',
    supportAssetResize: kind === 'Image',
    supportAssetWatermark: kind === 'Image',
  };
  return { kind: 'filetype', id: derivedId('filetype', extension), body, created_on: createdOn, modified_on: createdOn, created_by: null, modified_by: null };
}

function derivedCategory(name: string): ObjectRow {
  const body = { name, labels: [{ languageId: EN_US, value: name }] };
  return { kind: 'settingcategory', id: derivedId('settingcategory', name), body, created_on: EPOCH, modified_on: EPOCH, created_by: null, modified_by: null };
}

interface Derived {
  /** Every object the tenant's data implies. */
  all(db: Queryable): Promise<ObjectRow[]>;
  /** The value that makes two objects the same one (an extension, a name). */
  key(row: ObjectRow): string;
  /** Why a derived object cannot be deleted. */
  inUse(row: ObjectRow): string;
}

const DERIVED: Partial<Record<ObjectKind, Derived>> = {
  filetype: {
    async all(db) {
      const rows = await db.query<{ extension: string; mime_type: string; created_on: Date }>(
        "SELECT lower(extension) AS extension, min(mime_type) AS mime_type, min(created_on) AS created_on FROM file_versions WHERE extension <> '' GROUP BY lower(extension) ORDER BY 1",
      );
      return rows.map((r) => derivedFileType(r.extension, r.mime_type, new Date(r.created_on)));
    },
    key: (row) => String(row.body.extension ?? '').toLowerCase(),
    inUse: (row) => `The file type '${String(row.body.name)}' is the type of file versions the tenant holds; it cannot be deleted.`,
  },
  settingcategory: {
    async all(db) {
      const rows = await db.query<{ category: string }>("SELECT DISTINCT category FROM setting_definitions WHERE category <> '' ORDER BY category");
      return rows.map((r) => derivedCategory(r.category));
    },
    key: (row) => String(row.body.name ?? '').toLowerCase(),
    inUse: (row) => `The setting category '${String(row.body.name)}' is named by setting definitions; it cannot be deleted.`,
  },
};

/** Objects of a kind the tenant has: those kept, and those its data implies that no kept one stands for. */
export const tenantObjects = {
  async list(db: Queryable, kind: 'filetype' | 'settingcategory'): Promise<ObjectRow[]> {
    const kept = await configurationObjects.list(db, kind);
    const derived = DERIVED[kind]!;
    const keys = new Set(kept.map((k) => derived.key(k)));
    const ids = new Set(kept.map((k) => k.id));
    return [...(await derived.all(db)).filter((d) => !ids.has(d.id) && !keys.has(derived.key(d))), ...kept];
  },

  async find(db: Queryable, kind: 'filetype' | 'settingcategory', id: string): Promise<{ row: ObjectRow; kept: boolean }> {
    const kept = await configurationObjects.get(db, kind, id);
    if (kept) return { row: kept, kept: true };
    const row = (await DERIVED[kind]!.all(db)).find((d) => d.id === guid(id));
    if (!row) await configurationObjects.find(db, kind, id);
    return { row: row!, kept: false };
  },

  /** A create whose key (an extension, a name) the tenant already has is refused. */
  async create(db: Queryable, kind: 'filetype' | 'settingcategory', body: Record<string, unknown>, userId: string): Promise<string> {
    const derived = DERIVED[kind]!;
    const probe: ObjectRow = { kind, id: '', body, created_on: EPOCH, modified_on: EPOCH, created_by: null, modified_by: null };
    const key = derived.key(probe);
    if (key && (await tenantObjects.list(db, kind)).some((o) => derived.key(o) === key)) throw errors.conflict(`A ${kind === 'filetype' ? 'file type for that extension' : 'setting category of that name'} exists.`);
    return configurationObjects.create(db, kind, body, userId);
  },

  /** A change to a derived object keeps it, with the members sent over the derived ones. */
  async update(db: Queryable, kind: 'filetype' | 'settingcategory', id: string, body: Record<string, unknown>, userId: string): Promise<void> {
    const { row, kept } = await tenantObjects.find(db, kind, id);
    if (kept) return configurationObjects.update(db, row, body, userId);
    await configurationObjects.create(db, kind, { ...row.body, ...body }, userId, row.id);
  },

  async remove(db: Queryable, kind: 'filetype' | 'settingcategory', id: string): Promise<void> {
    const { row, kept } = await tenantObjects.find(db, kind, id);
    if (!kept) throw errors.validation(DERIVED[kind]!.inUse(row));
    await configurationObjects.remove(db, row);
  },

  /** The file type of a version's extension: a kept one for it, else the derived one (as the list shows it). */
  async fileTypeOf(db: Queryable, extension: string, mime: string): Promise<ObjectRow> {
    const ext = extension.toLowerCase();
    const kept = (await configurationObjects.list(db, 'filetype')).find((k) => String(k.body.extension ?? '').toLowerCase() === ext);
    if (kept) return kept;
    const first = (await db.query<{ created_on: Date }>('SELECT min(created_on) AS created_on FROM file_versions WHERE lower(extension) = $1', [ext]))[0]?.created_on;
    return derivedFileType(ext, mime, first ? new Date(first) : EPOCH);
  },
};

/** The id of the setting category a setting definition names (the empty guid for none). */
export const categoryIdOf = (category: string) => (category ? derivedId('settingcategory', category) : '00000000000000000000000000000000');
