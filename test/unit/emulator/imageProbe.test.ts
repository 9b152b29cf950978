// The header probe of the image worker: sizes read from headers of each format the emulator stores, without decoding,
// and the contract's 100-million-pixel cap.
import { strict as assert } from 'node:assert';
import { Jimp } from 'jimp';
import { probeHeader } from '../../../src/emulator/images/imageWork';
import { MAX_IMAGE_PIXELS } from '../../../src/emulator/images/protocol';

/** A WebP (VP8X) header declaring width × height: the probe reads only the canvas size. */
function webpHeader(width: number, height: number): Buffer {
  const chunk = Buffer.alloc(18);
  chunk.write('VP8X', 0, 'latin1');
  chunk.writeUInt32LE(10, 4);
  chunk.writeUIntLE(width - 1, 12, 3);
  chunk.writeUIntLE(height - 1, 15, 3);
  const riff = Buffer.alloc(12);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(4 + chunk.length, 4);
  riff.write('WEBP', 8, 'latin1');
  return Buffer.concat([riff, chunk]);
}

describe('image header probe', () => {
  it('reads width and height of PNG, JPEG, GIF, BMP and TIFF files', async () => {
    const image = new Jimp({ width: 120, height: 80, color: 0x336699ff });
    for (const mime of ['image/png', 'image/jpeg', 'image/gif', 'image/bmp', 'image/tiff'] as const) {
      assert.deepEqual(probeHeader(await image.getBuffer(mime)), { kind: 'image', width: 120, height: 80 }, mime);
    }
  });

  it('reads a WebP header, and only the start of a file is needed', async () => {
    assert.deepEqual(probeHeader(webpHeader(640, 480)), { kind: 'image', width: 640, height: 480 });
    const png = await new Jimp({ width: 300, height: 200 }).getBuffer('image/png');
    assert.deepEqual(probeHeader(png.subarray(0, 64)), { kind: 'image', width: 300, height: 200 });
  });

  it('reports a header above the cap as too large, with the size it declares', () => {
    assert.deepEqual(probeHeader(webpHeader(16384, 16384)), { kind: 'tooLarge', width: 16384, height: 16384 });
    const side = Math.floor(Math.sqrt(MAX_IMAGE_PIXELS));
    assert.equal(probeHeader(webpHeader(side, side)).kind, 'image');
  });

  it('answers notImage for formats it does not decode, whatever the file is named: SVG, HEIF, ICO', () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="9900" height="9900"></svg>');
    const heif = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic'), Buffer.alloc(4), Buffer.from('mif1heic')]);
    const ico = Buffer.from([0, 0, 1, 0, 1, 0, 32, 32, 0, 0, 1, 0, 32, 0, 0, 0, 0, 0, 22, 0, 0, 0]);
    for (const bytes of [svg, heif, ico]) assert.deepEqual(probeHeader(bytes), { kind: 'notImage' });
  });

  it('answers notImage for text, PDF and truncated headers', () => {
    for (const bytes of [Buffer.from('hello'), Buffer.from('%PDF-1.4\n'), Buffer.alloc(0), Buffer.from([0x89, 0x50, 0x4e, 0x47])]) {
      assert.deepEqual(probeHeader(bytes), { kind: 'notImage' });
    }
  });
});
