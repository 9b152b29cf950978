// What the image worker process does with an image: read its size from the header, resize and encode it (with
// sharp/libvips when its prebuilt binary loads, else with pure-JS jimp), remove its background, draw the demo
// tenant's pictures. Runs only inside the worker (imageWorker.ts); the emulator's event loop never decodes a pixel.
import { open } from 'node:fs/promises';
import { disableTypes, imageSize, types } from 'image-size';
import { removeBackground } from '../domain/removeBackground';
import { drawPicture } from './picture';
import { MAX_IMAGE_PIXELS, MAX_DECODE_BYTES, type FilePiece, type PictureSpec, type ImageFormat, type ProbeResult, type RenderRequest, type RenderResult, tooLargeMessage } from './protocol';

// The header reader knows twenty formats by their content. Only those the emulator decodes, and WebP (a bounded
// header), may be recognised: a file named .png that is HEIF or SVG inside is not an image here, since HEIF's box
// scan and SVG's rendering have no bound.
disableTypes(types.filter((t) => !['bmp', 'gif', 'jpg', 'png', 'tiff', 'webp'].includes(t)));

type Sharp = typeof import('sharp');

/** Formats sharp's prebuilt libvips reads; BMP is not among them and goes through jimp. */
const SHARP_READS = new Set(['png', 'jpg', 'jpeg', 'gif', 'tif', 'tiff', 'webp']);

let sharpModule: Sharp | null | undefined;
/** Why sharp did not load (its error's first line), for the engine's description. */
let sharpMissing: string | undefined;

/**
 * sharp when it loads (an npm install on a platform with a prebuilt binary), else null: the .vsix carries no native
 * module, and a platform without a binary has none, so both fall back to jimp. `DAM_IMAGE_ENGINE=jimp` forces that.
 */
export function loadSharp(): Sharp | null {
  if (sharpModule !== undefined) return sharpModule;
  sharpModule = null;
  if (process.env.DAM_IMAGE_ENGINE === 'jimp') return null;
  try {
    // Not bundled (esbuild marks it external): resolved at run time from node_modules beside the package.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const loaded = require('sharp') as Sharp;
    // One image at a time per worker, and no cache of decoded images between jobs: memory stays per job.
    loaded.cache(false);
    loaded.concurrency(1);
    sharpModule = loaded;
  } catch (err) {
    sharpModule = null;
    sharpMissing = (err instanceof Error ? err.message : String(err)).split('\n')[0].slice(0, 200);
  }
  return sharpModule;
}

export function engineName(): 'sharp' | 'jimp' {
  return loadSharp() ? 'sharp' : 'jimp';
}

/**
 * The engine in words, with versions: 'sharp 0.35.5 (libvips 8.17.3)', or 'jimp' and why sharp did not load. The
 * emulator's log says it once, so a user (and CI's smoke test of the packaged extension) can tell which one runs.
 */
export function engineDescription(): string {
  const sharp = loadSharp();
  if (sharp) return `sharp ${sharp.versions.sharp} (libvips ${sharp.versions.vips})`;
  if (process.env.DAM_IMAGE_ENGINE === 'jimp') return 'jimp (DAM_IMAGE_ENGINE=jimp)';
  return `jimp (sharp did not load: ${sharpMissing ?? 'not installed'})`;
}

const jimp = () => import('jimp');
type JimpModule = Awaited<ReturnType<typeof jimp>>;

/** Reads the bytes of `pieces` (a blob's files and byte ranges), refusing more than `limit` bytes in all. */
export async function readPieces(pieces: FilePiece[], limit = MAX_DECODE_BYTES): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (const piece of pieces) {
    const file = await open(piece.path, 'r');
    try {
      const size = (await file.stat()).size;
      const end = Math.min(piece.end, size - 1);
      const length = Math.max(0, end - piece.start + 1);
      if (total + length > limit) throw new Error(`the file is larger than ${limit} bytes, more than the emulator decodes`);
      const buffer = Buffer.allocUnsafe(length);
      let read = 0;
      while (read < length) {
        const { bytesRead } = await file.read(buffer, read, length - read, piece.start + read);
        if (bytesRead === 0) break;
        read += bytesRead;
      }
      chunks.push(read === length ? buffer : buffer.subarray(0, read));
      total += read;
    } finally {
      await file.close();
    }
  }
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
}

/**
 * Width and height as the header declares them, without decoding: an image whose header is in `bytes` (the
 * start of the file) or nothing. Above the pixel cap it is reported as too large, never decoded.
 */
export function probeHeader(bytes: Uint8Array): ProbeResult {
  let size: { width?: number; height?: number; orientation?: number };
  try {
    size = imageSize(bytes);
  } catch {
    return { kind: 'notImage' };
  }
  const { width, height } = size;
  if (!width || !height || !Number.isFinite(width) || !Number.isFinite(height)) return { kind: 'notImage' };
  // EXIF orientations 5-8 turn the picture a quarter: the decoded image is height × width.
  const turned = size.orientation !== undefined && size.orientation >= 5 && size.orientation <= 8;
  const w = turned ? height : width;
  const h = turned ? width : height;
  return w * h > MAX_IMAGE_PIXELS ? { kind: 'tooLarge', width: w, height: h } : { kind: 'image', width: w, height: h };
}

/** Decodes, fits into the box (never enlarging), optionally removes the background, and encodes. */
export async function render(bytes: Buffer, request: RenderRequest): Promise<RenderResult> {
  // The header is checked again where the decoding happens, whatever the caller believed about the file.
  const probed = probeHeader(bytes);
  if (probed.kind === 'notImage') throw new Error('the file is not an image the emulator can read');
  if (probed.kind === 'tooLarge') throw new Error(tooLargeMessage(probed.width, probed.height));
  const sharp = loadSharp();
  if (sharp && SHARP_READS.has(request.extension)) return { ...(await renderWithSharp(sharp, bytes, request)), engine: engineDescription() };
  return { ...(await renderWithJimp(bytes, request)), engine: sharp ? `jimp (sharp reads no ${request.extension})` : engineDescription() };
}

function targetSize(width: number, height: number, box: number): { width: number; height: number } {
  const scale = Math.min(1, box / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

async function renderWithSharp(sharp: Sharp, bytes: Buffer, request: RenderRequest): Promise<Omit<RenderResult, 'engine'>> {
  // limitInputPixels: libvips refuses from the header too; autoOrient as jimp does, so both engines agree on size.
  const source = sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'none', animated: false }).autoOrient();
  const meta = await source.metadata();
  const oriented = (meta.orientation ?? 1) >= 5 ? { width: meta.height!, height: meta.width! } : { width: meta.width!, height: meta.height! };
  const size = targetSize(oriented.width, oriented.height, request.box);
  const resized = source.resize(size.width, size.height, { fit: 'fill' });
  if (request.removeBackground) {
    const raw = await resized.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const bitmap = { width: raw.info.width, height: raw.info.height, data: raw.data };
    removeBackground(bitmap);
    const again = sharp(raw.data, { raw: { width: raw.info.width, height: raw.info.height, channels: 4 } });
    return { bytes: await encodeSharp(again, request.format, request.quality), ...size };
  }
  return { bytes: await encodeSharp(resized, request.format, request.quality), ...size };
}

async function encodeSharp(image: import('sharp').Sharp, format: ImageFormat, quality: number | undefined): Promise<Buffer> {
  switch (format) {
    case 'jpg':
      return image.flatten({ background: '#ffffff' }).jpeg({ quality: quality ?? 85 }).toBuffer();
    case 'png':
      return image.png().toBuffer();
    case 'gif':
      return image.gif().toBuffer();
    case 'tiff':
      return image.tiff().toBuffer();
    case 'bmp':
      return encodeJimpRaw(await image.ensureAlpha().raw().toBuffer({ resolveWithObject: true }), 'bmp', quality);
  }
}

async function encodeJimpRaw(raw: { data: Buffer; info: { width: number; height: number } }, format: ImageFormat, quality: number | undefined): Promise<Buffer> {
  const { Jimp } = await jimp();
  const image = new Jimp({ width: raw.info.width, height: raw.info.height });
  raw.data.copy(image.bitmap.data);
  return encodeJimp(image, format, quality);
}

/** What encoding needs of a jimp image (a decoded one and a new one differ in their type parameters). */
type JimpImage = Pick<InstanceType<JimpModule['Jimp']>, 'getBuffer'>;

async function encodeJimp(image: JimpImage, format: ImageFormat, quality: number | undefined): Promise<Buffer> {
  switch (format) {
    case 'jpg':
      return image.getBuffer('image/jpeg', { quality: quality ?? 85 });
    case 'png':
      return image.getBuffer('image/png');
    case 'gif':
      return image.getBuffer('image/gif');
    case 'bmp':
      return image.getBuffer('image/bmp');
    case 'tiff':
      return image.getBuffer('image/tiff');
  }
}

async function renderWithJimp(bytes: Buffer, request: RenderRequest): Promise<Omit<RenderResult, 'engine'>> {
  const { Jimp } = await jimp();
  const image = await Jimp.read(bytes);
  const size = targetSize(image.width, image.height, request.box);
  if (size.width !== image.width || size.height !== image.height) image.resize({ w: size.width, h: size.height });
  if (request.removeBackground) removeBackground(image.bitmap);
  return { bytes: await encodeJimp(image as unknown as JimpImage, request.format, request.quality), ...size };
}

/** A demo-tenant picture: drawn pixel by pixel (deterministic), then encoded by the engine in use. */
export async function picture(generator: PictureSpec): Promise<Buffer> {
  const { width, height } = generator;
  if (width * height > MAX_IMAGE_PIXELS) throw new Error(tooLargeMessage(width, height));
  const data = Buffer.alloc(width * height * 4);
  drawPicture(generator, data);
  const sharp = loadSharp();
  if (sharp) {
    const image = sharp(data, { raw: { width, height, channels: 4 } });
    return generator.format === 'png' ? image.png().toBuffer() : image.jpeg({ quality: 85 }).toBuffer();
  }
  return encodeJimpRaw({ data, info: { width, height } }, generator.format, 85);
}
