// The demo tenant's pictures, drawn pixel by pixel in the image worker (domain/generatedFiles.ts describes them).
import { createRng } from '../rng';
import type { PictureSpec } from './protocol';

/**
 * A sky-to-ground gradient with a sun and a few hills, into `data` (RGBA, width × height): a picture with a subject,
 * so previews look like something. The same description always gives the same pixels.
 */
export function drawPicture(g: PictureSpec, data: Uint8Array): void {
  const rng = createRng(g.seed);
  const { width, height } = g;
  const sky = [rng.int(60, 140), rng.int(110, 190), rng.int(180, 255)];
  const ground = [rng.int(40, 120), rng.int(90, 160), rng.int(30, 90)];
  const sun = { x: rng.int(width / 5, (4 * width) / 5), y: rng.int(height / 8, height / 3), r: rng.int(height / 12, height / 6) };
  const hills = Array.from({ length: 3 }, () => ({ phase: rng.next() * 6.28, amp: rng.int(height / 20, height / 8), freq: 1 + rng.next() * 3, base: rng.int(height / 2, (3 * height) / 4) }));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const t = y / height;
      let c = [sky[0] + (255 - sky[0]) * t * 0.5, sky[1] + (255 - sky[1]) * t * 0.4, sky[2]];
      const dx = x - sun.x;
      const dy = y - sun.y;
      if (dx * dx + dy * dy < sun.r * sun.r) c = [255, 220, 90];
      for (let h = 0; h < hills.length; h++) {
        const hill = hills[h];
        const top = hill.base + h * 12 + hill.amp * Math.sin(hill.phase + (x / width) * hill.freq * 6.28);
        if (y > top) c = [ground[0] * (1 - h * 0.2), ground[1] * (1 - h * 0.2), ground[2] * (1 - h * 0.2)];
      }
      data[i] = c[0];
      data[i + 1] = c[1];
      data[i + 2] = c[2];
      data[i + 3] = 255;
    }
  }
}
