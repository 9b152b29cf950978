// Demo files: every Image record gets a generated picture and every Document record a generated PDF, as the
// master file with one or two versions. Seeding writes only rows with a generator description; the bytes are made
// on first read (domain/files.ts `materialised`), so seeding stays quick and an in-memory emulator started from the
// seeded template (which has no blob folder) can still serve them.
import type { SeedFileGenerator } from '../domain/generatedFiles';
import type { Seeder } from './seeder';

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
