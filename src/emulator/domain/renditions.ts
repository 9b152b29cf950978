// Renditions (additional files) of a file version, made for a CreateRenditions maintenance job: the version's image
// fitted into the preset's size (never enlarged), its AI actions applied, encoded in the preset's format. The pixels
// are handled in the image worker pool; this module keeps the rows and blobs.
import type { EmulatorContext } from '../context';
import { imageFormat, renderImage } from '../images';
import { newId, type FileVersionRow } from './files';

export interface RenditionPreset {
  name: string;
  format: string;
  size?: number;
  usages?: string[];
  aiActions?: string[];
}

const MIME = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif', bmp: 'image/bmp', tiff: 'image/tiff' } as const;
const DEFAULT_SIZE = 1024;

/** Makes (or replaces) the version's rendition of one preset; throws an Error whose message says why it could not. */
export async function createRendition(ctx: EmulatorContext, version: FileVersionRow, preset: RenditionPreset, jobId: string): Promise<void> {
  const format = imageFormat(preset.format);
  if (!format) throw new Error(`the preset '${preset.name}' asks for the format '${preset.format}', which cannot be written`);
  const actions = (preset.aiActions ?? []).map((a) => a.toLowerCase());
  const rendered = await renderImage(
    ctx.blobs,
    version.blob!,
    { extension: version.extension, box: preset.size ?? DEFAULT_SIZE, format, quality: 85, removeBackground: actions.includes('removebackground') },
    `the '${preset.name}' rendition of '${version.filename}'`,
    ctx.log,
  );
  const written = await ctx.blobs.put(rendered.bytes);
  const stored = preset.format.toLowerCase().replace(/^\./, '');
  const replaced = await ctx.store.transaction(async (tx) => {
    const old = await tx.query<{ blob: string }>('DELETE FROM additional_files WHERE file_version_id = $1 AND preset = $2 RETURNING blob', [version.id, preset.name]);
    await tx.query(
      `INSERT INTO additional_files (id, file_version_id, name, label, preset, format, mime_type, usages, width, height, file_size, blob, job_id, created_on)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
      [newId(), version.id, preset.name, preset.name, preset.name, stored, MIME[format], JSON.stringify(preset.usages ?? []), rendered.width, rendered.height, written.size, written.key, jobId, ctx.clock.now().toISOString()],
    );
    return old;
  });
  for (const old of replaced) await ctx.blobs.remove(old.blob);
}
