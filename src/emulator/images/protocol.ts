// The messages between the emulator and its image worker processes, and the limits both sides apply.
/** The contract's cap ("Starting it"): an image whose header declares more pixels gets no derived image. */
export const MAX_IMAGE_PIXELS = 100_000_000;
/** Files larger than this are never read for decoding. */
export const MAX_DECODE_BYTES = 100 * 1024 * 1024;
/** What the probe reads of a file: enough for the headers of PNG, GIF, BMP, WebP, and JPEG with its EXIF. */
export const PROBE_BYTES = 1024 * 1024;

/** Why an image over the cap gets nothing derived, naming the size its header declares. */
export function tooLargeMessage(width: number, height: number): string {
  return `its header declares ${width}×${height} pixels (${(width * height).toLocaleString('en-US')}), more than the ${MAX_IMAGE_PIXELS.toLocaleString('en-US')} the emulator derives images from`;
}

/** A run of a blob's bytes in one file, inclusive (what BlobStore.pieces answers). */
export interface FilePiece {
  path: string;
  start: number;
  end: number;
}

export type ImageFormat = 'png' | 'jpg' | 'gif' | 'bmp' | 'tiff';

/** A demo picture's description (the `image` kind of domain/generatedFiles.ts's SeedFileGenerator). */
export interface PictureSpec {
  seed: number;
  width: number;
  height: number;
  format: 'png' | 'jpg';
  title: string;
}

export type ProbeResult =
  | { kind: 'image'; width: number; height: number }
  | { kind: 'tooLarge'; width: number; height: number }
  | { kind: 'notImage' };

export interface RenderRequest {
  /** The source file's extension, lower case (chooses the decoder). */
  extension: string;
  /** Longest side of the result; never enlarged. */
  box: number;
  format: ImageFormat;
  quality?: number;
  removeBackground?: boolean;
}

export interface RenderResult {
  bytes: Uint8Array;
  width: number;
  height: number;
  /** The engine that decoded it, in words with its version ('sharp 0.35.5 (libvips 8.17.3)', 'jimp (…)'). */
  engine: string;
}

export type ImageTask =
  | { op: 'probe'; pieces: FilePiece[] }
  | { op: 'render'; pieces: FilePiece[]; request: RenderRequest }
  | { op: 'picture'; generator: PictureSpec };

export interface TaskMessage {
  id: number;
  task: ImageTask;
}

export type ReplyMessage = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string };

/** Canonical output format for a preset's format name, or undefined when the emulator cannot write it. */
export function imageFormat(name: string): ImageFormat | undefined {
  switch (name.toLowerCase().replace(/^\./, '')) {
    case 'png':
      return 'png';
    case 'jpg':
    case 'jpeg':
      return 'jpg';
    case 'gif':
      return 'gif';
    case 'bmp':
      return 'bmp';
    case 'tif':
    case 'tiff':
      return 'tiff';
    default:
      return undefined;
  }
}
