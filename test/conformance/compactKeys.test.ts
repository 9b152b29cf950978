// Migration 015 (issue 37, part 2) stores the ids of `field_values` and `record_classifications` as uuids. A data
// folder written before it must open and answer exactly as it did: the folder here is brought back to the schema
// before 015 in SQL (as 001-core and 007 made it: text ids, foreign keys to the text ids, the two dropped indexes),
// then opened again, which applies 015 to it, and vacuums the tables it rewrote.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator } from '../../src/emulator/server';
import { openStore } from '../../src/emulator/storage/open';
import { EMULATOR_CLIENT } from '../../src/api/endpoints';
import { backends } from './helpers';

/** The schema of the five tables before 015, with the rows 015 converted turned back into text ids. */
const BEFORE_015 = `
ALTER TABLE field_values
  DROP CONSTRAINT field_values_record_id_fkey, DROP CONSTRAINT field_values_field_id_fkey,
  ALTER COLUMN record_id TYPE text USING replace(record_id::text, '-', ''),
  ALTER COLUMN field_id TYPE text USING replace(field_id::text, '-', ''),
  ALTER COLUMN language_id TYPE text USING replace(language_id::text, '-', '');
ALTER TABLE record_classifications
  DROP CONSTRAINT record_classifications_record_id_fkey, DROP CONSTRAINT record_classifications_classification_id_fkey,
  ALTER COLUMN record_id TYPE text USING replace(record_id::text, '-', ''),
  ALTER COLUMN classification_id TYPE text USING replace(classification_id::text, '-', '');
ALTER TABLE records DROP COLUMN uid;
ALTER TABLE classifications DROP COLUMN uid;
ALTER TABLE field_definitions DROP COLUMN uid;
DROP FUNCTION dam_uid(text);
ALTER TABLE field_values
  ADD CONSTRAINT field_values_record_id_fkey FOREIGN KEY (record_id) REFERENCES records(id) ON DELETE CASCADE,
  ADD CONSTRAINT field_values_field_id_fkey FOREIGN KEY (field_id) REFERENCES field_definitions(id) ON DELETE CASCADE;
ALTER TABLE record_classifications
  ADD CONSTRAINT record_classifications_record_id_fkey FOREIGN KEY (record_id) REFERENCES records(id) ON DELETE CASCADE,
  ADD CONSTRAINT record_classifications_classification_id_fkey FOREIGN KEY (classification_id) REFERENCES classifications(id) ON DELETE CASCADE;
DROP INDEX field_values_field_date;
CREATE INDEX field_values_field_date ON field_values(field_id, value_date);
CREATE INDEX field_values_field_text ON field_values(field_id, value_text);
DELETE FROM schema_migrations WHERE id = '015-compact-keys';
`;

const HEADERS = { accept: 'application/hal+json', 'api-version': '1', 'user-agent': 'dam-compact-keys-test', 'content-type': 'application/json' };

/** What a client reads of the tenant's records: values, classifications, searches on both, facets and a trail. */
async function answers(url: string): Promise<string[]> {
  const tokenRes = await fetch(`${url}/login/connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'api', client_id: EMULATOR_CLIENT.clientId, client_secret: EMULATOR_CLIENT.clientSecret }),
  });
  const auth = { ...HEADERS, authorization: `Bearer ${((await tokenRes.json()) as { access_token: string }).access_token}` };
  const read = async (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) => {
    const res = await fetch(`${url}/api/core${path}`, { method: init.method ?? 'GET', headers: { ...auth, ...init.headers }, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
    const text = await res.text();
    assert.equal(res.status, 200, `${path}: ${text.slice(0, 300)}`);
    // The two emulators listen on different ports: links are compared without their origin.
    return text.replaceAll(url, 'EMULATOR');
  };
  const search = (expression: string, extra: Record<string, unknown> = {}) => read('/search/records?pageSize=20', { method: 'POST', body: { searchExpression: { expression }, ...extra } });
  const out: string[] = [];
  const page = await read('/records?pageSize=12&sort=Title', { headers: { 'select-record': 'fields, classifications' } });
  out.push(page);
  const ids = (JSON.parse(page) as { items: { id: string }[] }).items.map((r) => r.id);
  assert.ok(ids.length >= 10, 'the demo tenant has records');
  for (const id of ids.slice(0, 4)) {
    out.push(await read(`/record/${id}`, { headers: { 'select-record': 'fields, classifications', languages: '*' } }));
    out.push(await read(`/record/${id}/classifications`));
    out.push(await read(`/record/${id}/trail`));
  }
  out.push(await search(`FieldName('UsageRights').Option.Name = InternalOnly`));
  out.push(await search(`FieldName('Photographer') <> ""`));
  out.push(await search(`Classification.NamePath = "/Products/*" OR Classification.Name = "Spring 2025"`));
  out.push(await search(`Keywords = "forest"`));
  out.push(await search(`Title contains a`, { facets: [{ name: 'usage', type: 'textField', fieldId: 'f1e1d0000000400080000000000000a2' }] }));
  return out;
}

for (const backend of backends()) {
  describe(`a data folder from before migration 015 [${backend.name}]`, function () {
    this.timeout(600_000);

    it('opens with its ids as uuids and answers records, searches and trails byte for byte as before', async () => {
      const storage = await backend.prepare();
      const data = mkdtempSync(join(tmpdir(), 'dam-compact-keys-'));
      try {
        let emulator = await startEmulator({ data, database: storage.database, port: 0 });
        const before = await answers(emulator.url);
        await emulator.close();

        const store = await openStore({ data, database: storage.database });
        try {
          await store.exec(BEFORE_015);
          const [old] = await store.query<{ t: string }>(`SELECT data_type AS t FROM information_schema.columns WHERE table_name = 'field_values' AND column_name = 'record_id' AND table_schema = current_schema()`);
          assert.equal(old.t, 'text');
        } finally {
          await store.close();
        }

        const lines: string[] = [];
        emulator = await startEmulator({ data, database: storage.database, port: 0, log: (line) => lines.push(line) });
        try {
          assert.ok(lines.some((l) => l.includes('015-compact-keys')), `015 applied on open: ${lines.join(' | ')}`);
          assert.deepEqual(await answers(emulator.url), before);
        } finally {
          await emulator.close();
        }
        const opened = await openStore({ data, database: storage.database });
        try {
          const types = await opened.query<{ c: string; t: string }>(
            `SELECT table_name || '.' || column_name AS c, data_type AS t FROM information_schema.columns
              WHERE table_schema = current_schema() AND table_name IN ('field_values', 'record_classifications') AND column_name LIKE '%_id' ORDER BY 1`,
          );
          assert.deepEqual(
            types.map((r) => `${r.c} ${r.t}`),
            ['field_values.field_id uuid', 'field_values.language_id uuid', 'field_values.record_id uuid', 'record_classifications.classification_id uuid', 'record_classifications.record_id uuid'],
          );
          // Ids that are not 32 hex digits (a tenant folder may name a field or classification so) get the uuid of their md5.
          const [u] = await opened.query<{ hex: string; other: string }>(`SELECT dam_uid('ffffffff000000000000000000000001')::text AS hex, dam_uid('Not-A-Guid')::text AS other`);
          assert.equal(u.hex, 'ffffffff-0000-0000-0000-000000000001');
          assert.notEqual(u.other, null);
          // The rewritten tables were vacuumed when the folder opened: their visibility map is set again, so a search's
          // index-only scan does not read the heap row by row (issue 37: 920 ms for one page at a million records).
          assert.ok(lines.some((l) => l.startsWith('vacuumed the searched tables')), `vacuumed on open: ${lines.join(' | ')}`);
          const visible = await opened.query<{ relname: string; relallvisible: number }>(
            `SELECT relname, relallvisible FROM pg_class WHERE relnamespace = current_schema()::regnamespace AND relname IN ('records', 'field_values', 'record_classifications') ORDER BY relname`,
          );
          assert.deepEqual(visible.map((r) => `${r.relname} ${r.relallvisible > 0}`), ['field_values true', 'record_classifications true', 'records true']);
        } finally {
          await opened.close();
        }
      } finally {
        rmSync(data, { recursive: true, force: true });
        await storage.cleanup();
      }
    });
  });
}
