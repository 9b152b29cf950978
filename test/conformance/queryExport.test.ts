// The query export (src/extension/query/exporter.ts) against the emulator's demo tenant: a CSV is read by people
// in a spreadsheet, so ids a field value holds are written by their names (an option by its label, a
// classification by its path), and a classification export has every property, not six fixed columns.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeEachBackend } from './helpers';
import { exportResults } from '../../src/extension/query/exporter';

describeEachBackend('query export', { seed: 'demo' }, (env) => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'dam-export-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** The rows of a CSV (RFC 4180: quoted cells may hold commas, doubled quotes and line breaks) by column name. */
  function read(file: string): Record<string, string>[] {
    const lines: string[][] = [[]];
    const cells = /("(?:[^"]|"")*"|[^,\r\n]*)(,|\r\n|$)/g;
    const text = readFileSync(file, 'utf8');
    for (let m = cells.exec(text); m && m.index < text.length; m = cells.exec(text)) {
      lines.at(-1)!.push(m[1].startsWith('"') ? m[1].slice(1, -1).replace(/""/g, '"') : m[1]);
      if (m[2] === '\r\n') lines.push([]);
    }
    const [header, ...rows] = lines.filter((l) => l.length > 0);
    return rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ''])));
  }

  it('writes option-list values by their labels and classification-list values by their paths', async () => {
    const file = join(dir, 'internal.csv');
    const written = await exportResults(env().client(), { name: 'Internal', target: 'records', expression: "FieldName('UsageRights') = InternalOnly" }, 'csv', file);
    const rows = read(file);
    assert.equal(rows.length, written);
    assert.ok(written > 0, 'the demo tenant has no InternalOnly record');
    // The option's id (a0b0c0…c2) was written before.
    assert.deepEqual([...new Set(rows.map((r) => r['field: UsageRights']))], ['Internal only']);
    const lines = rows.map((r) => r['field: ProductLine']).filter((v) => v);
    assert.ok(lines.length > 0 && lines.every((v) => v.split('; ').every((p) => p.startsWith('/Products/'))), lines.join(' | '));
  });

  it('writes every property of a classification, its labels as text', async () => {
    const file = join(dir, 'outdoor.csv');
    await exportResults(env().client(), { name: 'Outdoor', target: 'classifications', expression: 'Name = Outdoor' }, 'csv', file);
    const [row] = read(file);
    const header = Object.keys(row);
    assert.deepEqual(header.slice(0, 5), ['id', 'name', 'namePath', 'createdOn', 'modifiedOn']);
    assert.ok(header.length > 6, header.join(','));
    assert.equal(row.namePath, '/Products/Outdoor');
    assert.equal(row.labels, 'Outdoor');
  });
});
