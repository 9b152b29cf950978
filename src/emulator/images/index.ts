// What the emulator's domain asks of images: a header probe, a rendered (resized, encoded) image, a demo picture.
// Each runs in the worker pool (pool.ts); only file paths go out and encoded results come back.
import type { BlobStore } from '../blobs';
import { imagePools } from './pool';
import type { PictureSpec, ProbeResult, RenderRequest, RenderResult } from './protocol';

export { ImageWorkError, imagePools } from './pool';
export { MAX_DECODE_BYTES, MAX_IMAGE_PIXELS, imageFormat, tooLargeMessage, type ImageFormat, type ProbeResult, type RenderRequest } from './protocol';

/** Formats whose pixels the emulator derives images from; only these get width/height (HasImage). */
export const DECODABLE = new Set(['png', 'jpg', 'jpeg', 'gif', 'bmp', 'tif', 'tiff']);

/** The size an image's header declares (not decoding it), whether it is over the pixel cap, or not an image. */
export async function probeImage(blobs: BlobStore, key: string, what: string): Promise<ProbeResult> {
  return imagePools().probe.run<ProbeResult>({ op: 'probe', pieces: await blobs.pieces(key) }, what);
}

/** The logs that were told which engine decodes (each is told once per engine). */
const toldEngine = new WeakMap<(line: string) => void, Set<string>>();

/**
 * The blob decoded, fitted into `request.box` and encoded; fails with an ImageWorkError saying why. The first image
 * an engine makes is logged with the engine's name and version (sharp, or jimp and why not sharp) and how long it took.
 */
export async function renderImage(blobs: BlobStore, key: string, request: RenderRequest, what: string, log?: (line: string) => void): Promise<RenderResult> {
  const started = performance.now();
  const result = await imagePools().render.run<RenderResult>({ op: 'render', pieces: await blobs.pieces(key), request }, what);
  if (log) {
    const told = toldEngine.get(log) ?? new Set<string>();
    toldEngine.set(log, told);
    if (!told.has(result.engine)) {
      told.add(result.engine);
      log(`images: ${what} was made with ${result.engine} in ${Math.round(performance.now() - started)} ms`);
    }
  }
  return { ...result, bytes: Buffer.from(result.bytes.buffer, result.bytes.byteOffset, result.bytes.byteLength) };
}

/** A demo-tenant picture's bytes, drawn and encoded in a worker. */
export async function drawSeedPicture(generator: PictureSpec): Promise<Uint8Array> {
  return imagePools().render.run<Uint8Array>({ op: 'picture', generator }, `the picture of '${generator.title.slice(0, 100)}'`);
}
