// The border-seeded flood fill behind the `removeBackground` AI action, on bitmaps drawn pixel by pixel.
import { strict as assert } from 'node:assert';
import { removeBackground, type Bitmap } from '../../../src/emulator/domain/removeBackground';

type RGB = [number, number, number];

function bitmap(width: number, height: number, paint: (x: number, y: number) => RGB): Bitmap {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [r, g, b] = paint(x, y);
      data.set([r, g, b, 255], (y * width + x) * 4);
    }
  }
  return { width, height, data };
}
const alpha = (b: Bitmap, x: number, y: number) => b.data[(y * b.width + x) * 4 + 3];

/** A little noise that a real photo's background has, deterministic so the test is too. */
const noise = (x: number, y: number) => ((x * 7 + y * 13) % 9) - 4;

describe('removeBackground (border flood fill)', () => {
  it('makes a noisy light background transparent and keeps a dark subject opaque', () => {
    const b = bitmap(60, 40, (x, y) => (x >= 20 && x < 40 && y >= 10 && y < 30 ? [30, 40, 160] : [235 + noise(x, y), 235 + noise(y, x), 230]));
    const result = removeBackground(b);
    assert.ok(Math.abs(result.background[0] - 235) <= 5, `background estimated near the border colour, got ${result.background}`);
    for (let x = 0; x < 60; x++) {
      assert.equal(alpha(b, x, 0), 0);
      assert.equal(alpha(b, x, 39), 0);
    }
    for (let y = 0; y < 40; y++) {
      assert.equal(alpha(b, 0, y), 0);
      assert.equal(alpha(b, 59, y), 0);
    }
    assert.equal(alpha(b, 30, 20), 255, 'the centre of the subject is opaque');
    assert.equal(result.removed, 60 * 40 - 20 * 20);
  });

  it('feathers the edge: subject pixels touching the background get partial alpha', () => {
    const b = bitmap(30, 30, (x, y) => (x >= 10 && x < 20 && y >= 10 && y < 20 ? [0, 0, 0] : [255, 255, 255]));
    removeBackground(b);
    const edge = alpha(b, 10, 15);
    const corner = alpha(b, 10, 10);
    assert.ok(edge > 0 && edge < 255, `an edge pixel is partly transparent (${edge})`);
    assert.ok(corner < edge, 'a corner touches more background than an edge, so it is more transparent');
    assert.equal(alpha(b, 12, 12), 255);
  });

  it('keeps background-coloured pixels enclosed by the subject (only what the edge reaches is removed)', () => {
    // A dark ring with a white hole in the middle, on white.
    const b = bitmap(40, 40, (x, y) => {
      const d = Math.hypot(x - 20, y - 20);
      return d < 12 && d > 5 ? [20, 20, 20] : [255, 255, 255];
    });
    removeBackground(b);
    assert.equal(alpha(b, 20, 20), 255, 'the hole inside the ring is not reachable from the border');
    assert.equal(alpha(b, 2, 2), 0);
  });

  it('takes the median of the border, so a subject touching one edge does not become the background', () => {
    // A green subject that covers the whole left edge and a third of the top and bottom.
    const b = bitmap(60, 30, (x) => (x < 18 ? [20, 200, 40] : [250, 250, 250]));
    const result = removeBackground(b);
    assert.deepEqual(result.background, [250, 250, 250]);
    assert.equal(alpha(b, 5, 15), 255, 'the subject on the edge stays');
    assert.equal(alpha(b, 50, 15), 0);
  });

  it('a picture that is all one colour becomes fully transparent', () => {
    const b = bitmap(8, 8, () => [10, 10, 10]);
    assert.equal(removeBackground(b).removed, 64);
  });
});
