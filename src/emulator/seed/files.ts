// Demo files: every Image record gets a generated picture and every Document record a generated PDF, as the
// master file with one or two versions. Seeding writes only rows with a generator description; the bytes are made
// on first read (domain/files.ts `materialised`), so seeding stays quick and an in-memory emulator started from the
// seeded template (which has no blob folder) can still serve them.
import { createRng } from './rng';
import type { Seeder } from './index';

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

const slug = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

export const demoFilesSeeder: Seeder = {
  name: 'demo-files',
  kind: 'demo',
  async run(db, rng) {
    const records = await db.query<{ id: string; title: string; content_type: string; created_on: Date; created_by: number }>(
      `SELECT id, title, content_type, created_on, created_by FROM records WHERE content_type IN ('Image', 'Document') ORDER BY id`,
    );
    const files: unknown[][] = [];
    const versions: unknown[][] = [];
    for (const r of records) {
      const fileId = rng.guid();
      const created = new Date(r.created_on);
      files.push([fileId, r.id, created.toISOString()]);
      const count = rng.chance(0.25) ? 2 : 1;
      for (let n = 1; n <= count; n++) {
        const on = new Date(created.getTime() + (n - 1) * 86_400_000 * rng.int(1, 20)).toISOString();
        let generator: SeedFileGenerator;
        let filename: string;
        let width: number | null = null;
        let height: number | null = null;
        if (r.content_type === 'Image') {
          const landscape = rng.chance(0.7);
          width = landscape ? 640 : 427;
          height = landscape ? 427 : 640;
          const format = rng.chance(0.75) ? 'jpg' : 'png';
          generator = { kind: 'image', seed: rng.int(1, 2 ** 31), width, height, format, title: r.title };
          filename = `${slug(r.title)}.${format}`;
        } else {
          generator = { kind: 'pdf', title: r.title, lines: [`Version ${n}`, `Record ${r.id}`, 'Generated for the DAM Workbench demo tenant.'] };
          filename = `${slug(r.title)}.pdf`;
        }
        const ext = filename.slice(filename.lastIndexOf('.') + 1);
        versions.push([rng.guid(), fileId, r.id, n, n === 1 ? 'Original' : `Revision ${n - 1}`, null, filename, ext, ext === 'pdf' ? 'application/pdf' : ext === 'png' ? 'image/png' : 'image/jpeg', JSON.stringify(generator), width, height, on, r.created_by]);
      }
    }
    // Multi-row inserts in chunks: one statement per row would cost seconds at first start.
    for (let i = 0; i < files.length; i += 500) {
      const chunk = files.slice(i, i + 500);
      await db.query(
        `INSERT INTO files (id, record_id, is_master, created_on, modified_on) SELECT f.id, f.rec, true, f.created::timestamptz, f.created::timestamptz
         FROM unnest($1::text[], $2::text[], $3::text[]) AS f(id, rec, created)`,
        [chunk.map((c) => c[0] as string), chunk.map((c) => c[1] as string), chunk.map((c) => c[2] as string)],
      );
    }
    for (let i = 0; i < versions.length; i += 500) {
      const chunk = versions.slice(i, i + 500);
      const col = (k: number) => chunk.map((c) => (c[k] === null ? null : String(c[k])));
      await db.query(
        `INSERT INTO file_versions (id, file_id, record_id, version_number, version_label, comment, filename, extension, mime_type, generator, width, height, created_on, created_by)
         SELECT v.id, v.file_id, v.rec, v.n::int, v.label, v.comment, v.filename, v.ext, v.mime, v.gen::jsonb, v.w::int, v.h::int, v.created::timestamptz, v.creator::int
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[])
           AS v(id, file_id, rec, n, label, comment, filename, ext, mime, gen, w, h, created, creator)`,
        [col(0), col(1), col(2), col(3), col(4), col(5), col(6), col(7), col(8), col(9), col(10), col(11), col(12), col(13)] as never[],
      );
    }
    await db.query(`UPDATE records r SET file_count = 1 WHERE EXISTS (SELECT 1 FROM files f WHERE f.record_id = r.id)`);
  },
};
