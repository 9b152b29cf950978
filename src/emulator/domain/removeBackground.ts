// The `removeBackground` AI action, done without AI: a border-seeded flood fill.
//
// Algorithm (for product shots and other pictures of one subject on a plain-ish background):
//  1. Background colour: the per-channel median of the pixels on the image's border (the subject rarely
//     touches all four edges, so the border is mostly background; the median ignores the parts it does touch).
//  2. Tolerance: how far border pixels stray from that colour (their 80th-percentile RGB distance) plus a
//     margin, clamped to [24, 120], so a noisy or gradient background still counts as one region.
//  3. Flood fill from every border pixel within tolerance, 4-connected, into neighbours within tolerance of
//     the background colour. Only pixels reachable from the edge are background: a subject that contains the
//     background colour inside it (a white logo on a white-background shot) keeps it.
//  4. Background pixels become fully transparent.
//  5. Feathering: a subject pixel next to the background gets partial alpha by how many of its 8 neighbours
//     are background, which softens the stair-stepped edge a hard mask would leave.

export interface Bitmap {
  width: number;
  height: number;
  /** RGBA, 4 bytes per pixel, row-major (what the image library's bitmap holds). */
  data: Uint8Array | Buffer;
}

export interface RemoveBackgroundResult {
  background: [number, number, number];
  tolerance: number;
  /** Pixels made fully transparent. */
  removed: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Makes the background of `bitmap` transparent in place (see the algorithm above). */
export function removeBackground(bitmap: Bitmap): RemoveBackgroundResult {
  const { width, height, data } = bitmap;
  const border: number[] = [];
  for (let x = 0; x < width; x++) border.push(x, (height - 1) * width + x);
  for (let y = 1; y < height - 1; y++) border.push(y * width, y * width + width - 1);

  const bg: [number, number, number] = [0, 1, 2].map((c) => median(border.map((p) => data[p * 4 + c]))) as [number, number, number];
  const distance = (p: number) => {
    const i = p * 4;
    const dr = data[i] - bg[0];
    const dg = data[i + 1] - bg[1];
    const db = data[i + 2] - bg[2];
    return Math.sqrt(dr * dr + dg * dg + db * db);
  };
  const spread = [...border.map(distance)].sort((a, b) => a - b)[Math.floor(border.length * 0.8)] ?? 0;
  const tolerance = Math.min(120, Math.max(24, spread + 16));

  const isBackground = new Uint8Array(width * height);
  const queue = new Int32Array(width * height);
  let head = 0;
  let tail = 0;
  for (const p of border) {
    if (!isBackground[p] && distance(p) <= tolerance) {
      isBackground[p] = 1;
      queue[tail++] = p;
    }
  }
  while (head < tail) {
    const p = queue[head++];
    const x = p % width;
    const y = (p - x) / width;
    const visit = (q: number) => {
      if (!isBackground[q] && distance(q) <= tolerance) {
        isBackground[q] = 1;
        queue[tail++] = q;
      }
    };
    if (x > 0) visit(p - 1);
    if (x < width - 1) visit(p + 1);
    if (y > 0) visit(p - width);
    if (y < height - 1) visit(p + width);
  }

  let removed = 0;
  for (let p = 0; p < width * height; p++) {
    if (isBackground[p]) {
      data[p * 4 + 3] = 0;
      removed++;
      continue;
    }
    let around = 0;
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        if (!dx && !dy) continue;
        const x = (p % width) + dx;
        const y = Math.floor(p / width) + dy;
        if (x >= 0 && y >= 0 && x < width && y < height && isBackground[y * width + x]) around++;
      }
    }
    if (around) data[p * 4 + 3] = Math.round(data[p * 4 + 3] * (1 - (around / 8) * 0.6));
  }
  return { background: bg, tolerance, removed };
}
