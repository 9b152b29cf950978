// Generated files: the bytes of a file version described by a generator (the demo tenant's pictures and PDFs).
// Seeding stores only the description; domain/files.ts makes the bytes on first read, so a seeded store needs no
// blob folder and the same description always gives the same file.
import { createRng } from '../rng';

export type SeedFileGenerator =
  | { kind: 'image'; seed: number; width: number; height: number; format: 'png' | 'jpg'; title: string }
  | { kind: 'pdf'; title: string; lines: string[] };

/** Deterministic bytes for a generator description: the same description always gives the same file. */
export async function generateSeedFile(g: SeedFileGenerator): Promise<Uint8Array> {
  return g.kind === 'image' ? generateImage(g) : generatePdf(g.title, g.lines);
}

/** A sky-to-ground gradient with a sun and a few hills: a picture with a subject, so previews look like something. */
async function generateImage(g: Extract<SeedFileGenerator, { kind: 'image' }>): Promise<Uint8Array> {
  const { Jimp } = await import('jimp');
  const rng = createRng(g.seed);
  const { width, height } = g;
  const image = new Jimp({ width, height, color: 0x000000ff });
  const data = image.bitmap.data;
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
  return g.format === 'png' ? await image.getBuffer('image/png') : await image.getBuffer('image/jpeg', { quality: 85 });
}

/** A one-page PDF 1.4 with a title and lines of text in Helvetica; offsets in the xref table are computed. */
export function generatePdf(title: string, lines: string[]): Uint8Array {
  const esc = (s: string) => s.replace(/[\\()]/g, (m) => `\\${m}`).replace(/[^\x20-\x7e]/g, '?');
  const text = [`BT /F1 22 Tf 72 760 Td (${esc(title)}) Tj ET`, ...lines.map((l, i) => `BT /F1 12 Tf 72 ${720 - i * 18} Td (${esc(l)}) Tj ET`)].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${Buffer.byteLength(text, 'latin1')} >>\nstream\n${text}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, 'latin1'));
}
