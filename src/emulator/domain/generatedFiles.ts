// Generated files: the bytes of a file version described by a generator (the demo tenant's pictures and PDFs).
// Seeding stores only the description; domain/files.ts makes the bytes on first read, so a seeded store needs no
// blob folder and the same description always gives the same file.
import { drawSeedPicture } from '../images';

export type SeedFileGenerator =
  | { kind: 'image'; seed: number; width: number; height: number; format: 'png' | 'jpg'; title: string }
  | { kind: 'pdf'; title: string; lines: string[] };

/** Deterministic bytes for a generator description: the same description always gives the same file. */
export async function generateSeedFile(g: SeedFileGenerator): Promise<Uint8Array> {
  // Pictures are drawn and encoded in the image worker pool, off the event loop.
  return g.kind === 'image' ? drawSeedPicture(g) : generatePdf(g.title, g.lines);
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
