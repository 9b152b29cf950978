// `dam records get|update|delete` against a real emulator: fields by name, the dry run, applying by ids and by
// query, option values by name or label, refused plans (exit 2, nothing written), failed records (exit 1, named),
// and delete's confirmation rule.
import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeEachBackend, runDam } from './helpers';
import { buildRecordTenant, type RecordTenant } from './recordFixture';
import { RecordSchema } from '../../src/api/schemas';
import { EMULATOR_LIMITED_CLIENT } from '../../src/core/contract';
import type { RecordDocument } from '../../src/core/records';

const MISSING = '0123456789abcdef0123456789abcdef';

describeEachBackend('dam records', { seed: 'empty' }, (env) => {
  const vars = () => ({ DAM_URL: env().url });
  const client = () => env().client();
  let tenant: RecordTenant;
  const create = async (title: string, fields: Record<string, unknown> = {}) => {
    const addOrUpdate = Object.entries(fields).map(([name, v]) => ({ name, localizedValues: [Array.isArray(v) ? { values: v } : { value: v }] }));
    const res = await client().http.request({ method: 'POST', path: '/record', json: { title, status: 'Draft', contentType: 'Image', fields: { addOrUpdate } }, schema: RecordSchema });
    return res.data.id;
  };
  const doc = async (id: string) => (await client().recordEdits.open(id)).document;
  const bulk: string[] = [];

  let home: string;
  before(async () => {
    home = await mkdtemp(join(tmpdir(), 'dam-records-cli-'));
    tenant = await buildRecordTenant(client());
    for (let i = 0; i < 6; i++) bulk.push(await create(`Bulk item ${i}`, { UsageRights: [i < 2 ? 'Licensed' : 'Unrestricted'], Owner: 'Ana' }));
  });

  after(async () => {
    await rm(home, { recursive: true, force: true });
  });

  describe('get', () => {
    it('shows fields by name, classifications by path and the read-only part', async () => {
      const id = await create('Get me', { Photographer: 'Kenji Sato', Keywords: ['sea', 'boat'], UsageRights: ['InternalOnly'] });
      await client().http.request({ method: 'PUT', path: `/record/${id}`, json: { classifications: { addOrUpdate: [{ id: tenant.classifications['/Products/Hats'] }] } }, responseType: 'none' });
      const run = await runDam(['records', 'get', id], vars());
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /^title: +Get me$/m);
      assert.match(run.stdout, /^ {2}Photographer: Kenji Sato$/m);
      assert.match(run.stdout, /^ {2}Keywords: sea, boat$/m);
      assert.match(run.stdout, /^ {2}UsageRights: InternalOnly$/m);
      assert.match(run.stdout, /^classifications: \/Products\/Hats$/m);
      assert.match(run.stdout, /^read-only:$/m);
    });

    it('--json prints the record document', async () => {
      const run = await runDam(['records', 'get', bulk[0], '--json'], vars());
      assert.equal(run.code, 0, run.stderr);
      const printed = JSON.parse(run.stdout) as RecordDocument;
      assert.equal(printed.id, bulk[0]);
      assert.deepEqual(printed.fields.UsageRights, ['Licensed']);
      assert.ok('Checksum' in (printed.readOnly.fields ?? {}));
    });

    it('a record that does not exist exits 1 with the reason', async () => {
      const run = await runDam(['records', 'get', MISSING], vars());
      assert.equal(run.code, 1);
      assert.match(run.stderr, /404/);
    });
  });

  describe('update', () => {
    it('by id: sets fields (an option by its label, list items by repeating --set), status and a classification', async () => {
      const id = await create('Update me', { Owner: 'Ana' });
      const run = await runDam(
        ['records', 'update', id, '--set', 'UsageRights=Internal only', '--set', 'Keywords=red', '--set', 'Keywords=blue', '--set', 'Pages=12', '--status', 'released', '--add-classification', '/Products/Shoes'],
        vars(),
      );
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /^1 record: 1 changed, 0 unchanged, 0 failed/);
      const after = await doc(id);
      assert.deepEqual(after.fields.UsageRights, ['InternalOnly']);
      assert.deepEqual(after.fields.Keywords, ['red', 'blue']);
      assert.equal(after.fields.Pages, 12);
      assert.equal(after.status, 'Released');
      assert.deepEqual(after.classifications, ['/Products/Shoes']);
    });

    it('a list field takes its items separated by commas (\\, inside one), and the help says so', async () => {
      const id = await create('Keywords by commas', { Owner: 'Ana' });
      const run = await runDam(['records', 'update', id, '--set', 'Keywords=cli, changed,Smith\\, Anna'], vars());
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual((await doc(id)).fields.Keywords, ['cli', 'changed', 'Smith, Anna']);
      const help = await runDam(['records', 'update', '--help'], vars());
      assert.match(help.stdout + help.stderr, /--set NAME=a,b gives a list field .* the items a and b \(\\, is a comma inside an item/);
    });

    it('a localized field needs --language, and then changes only that language', async () => {
      const id = await create('Localized', { Owner: 'Ana' });
      const refused = await runDam(['records', 'update', id, '--set', 'Description=Hallo'], vars());
      assert.equal(refused.code, 2);
      assert.match(refused.stderr, /localized.*--language/);
      const run = await runDam(['records', 'update', id, '--set', 'Description=Hallo', '--language', 'de-DE'], vars());
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual((await doc(id)).fields.Description, { 'de-DE': 'Hallo' });
    });

    it('--clear empties a field', async () => {
      const id = await create('Clear me', { Photographer: 'Omar Haddad', Owner: 'Ana' });
      const run = await runDam(['records', 'update', id, '--clear', 'Photographer'], vars());
      assert.equal(run.code, 0, run.stderr);
      assert.equal((await doc(id)).fields.Photographer, null);
    });

    it('--query --dry-run shows how many records change and writes nothing', async () => {
      const before = await Promise.all(bulk.map(doc));
      const run = await runDam(['records', 'update', '--query', "Title = 'Bulk item*'", '--set', 'UsageRights=Licensed', '--dry-run'], vars());
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /^6 records: 4 would change, 2 already as asked, 0 refused\./m);
      assert.match(run.stdout, /^ {2}UsageRights: 4 records$/m);
      assert.match(run.stdout, /Dry run: nothing was written\./);
      const after = await Promise.all(bulk.map(doc));
      assert.deepEqual(after.map((d) => d.readOnly.modifiedOn), before.map((d) => d.readOnly.modifiedOn));
    });

    it('--query applies to every hit; --json reports changed and unchanged records', async () => {
      const run = await runDam(['records', 'update', '--query', "Title = 'Bulk item*'", '--set', 'UsageRights=Licensed', '--json'], vars());
      assert.equal(run.code, 0, run.stderr);
      const report = JSON.parse(run.stdout) as { total: number; changed: { recordId: string }[]; unchanged: { recordId: string }[]; failed: unknown[] };
      assert.equal(report.total, 6);
      assert.equal(report.changed.length, 4);
      assert.deepEqual(report.unchanged.map((u) => u.recordId).sort(), bulk.slice(0, 2).sort());
      assert.deepEqual(report.failed, []);
      for (const d of await Promise.all(bulk.map(doc))) assert.deepEqual(d.fields.UsageRights, ['Licensed']);
    });

    const refusals: [string, string[], RegExp][] = [
      ['an option value that does not exist', ['--set', 'UsageRights=Secret'], /'Secret' is not an option of 'UsageRights'/],
      ['an unknown field', ['--set', 'Colour=red'], /no field 'Colour'/],
      ['a read-only field', ['--set', 'Checksum=abc'], /'Checksum' cannot be changed/],
      ['a classification that does not exist', ['--add-classification', '/Products/Socks'], /no classification '\/Products\/Socks'/],
      ['a status that does not exist', ['--status', 'Gone'], /'Gone' is not a status/],
      ['a required field cleared', ['--clear', 'Owner'], /'Owner' is required/],
    ];
    for (const [title, args, message] of refusals) {
      it(`refuses the plan for ${title}: exit 2, nothing written`, async () => {
        const before = await doc(bulk[3]);
        const run = await runDam(['records', 'update', '--query', "Title = 'Bulk item*'", '--status', 'Archived', ...args], vars());
        assert.equal(run.code, 2, run.stdout + run.stderr);
        assert.match(run.stderr, message);
        assert.match(run.stderr, /nothing was written/);
        assert.equal((await doc(bulk[3])).readOnly.modifiedOn, before.readOnly.modifiedOn);
      });
    }

    it('an id that does not exist fails alone (exit 1, named); the others are changed', async () => {
      const run = await runDam(['records', 'update', bulk[4], MISSING, '--set', 'Photographer=Lena Berg'], vars());
      assert.equal(run.code, 1);
      assert.match(run.stderr, new RegExp(`failed ${MISSING}: the record does not exist`));
      assert.equal((await doc(bulk[4])).fields.Photographer, 'Lena Berg');
    });

    it('a record the caller may not change fails with the service’s reason', async () => {
      const run = await runDam(['records', 'update', bulk[5], '--set', 'Photographer=Nobody'], {
        ...vars(),
        DAM_CLIENT_ID: EMULATOR_LIMITED_CLIENT.clientId,
        DAM_CLIENT_SECRET: EMULATOR_LIMITED_CLIENT.clientSecret,
      });
      assert.equal(run.code, 1);
      assert.match(run.stderr, new RegExp(`failed ${bulk[5]} \\(Bulk item 5\\): .*right`));
      assert.equal((await doc(bulk[5])).fields.Photographer, null);
    });

    const usage: [string, string[]][] = [
      ['neither ids nor --query', ['--status', 'Draft']],
      ['ids and --query', [MISSING, '--query', '*', '--status', 'Draft']],
      ['nothing to change', [MISSING]],
      ['--set without =', [MISSING, '--set', 'Photographer']],
    ];
    for (const [title, args] of usage) {
      it(`bad usage (${title}) exits 2`, async () => {
        assert.equal((await runDam(['records', 'update', ...args], vars())).code, 2);
      });
    }
  });

  describe('undo', () => {
    it('--report keeps each record’s values before the change; undo --dry-run plans, undo puts them back and skips a record changed since', async () => {
      const ids = [
        await create('Undo item 0', { UsageRights: ['Licensed'], Photographer: 'Ana Lima', Owner: 'Ana' }),
        await create('Undo item 1', { UsageRights: ['Unrestricted'], Owner: 'Ana' }),
        await create('Undo item 2', { UsageRights: ['Licensed'], Photographer: 'Omar Haddad', Owner: 'Ana' }),
      ];
      const file = join(home, 'undo-report.json');
      const update = await runDam(
        ['records', 'update', '--query', "Title = 'Undo item*'", '--set', 'UsageRights=Internal only', '--set', 'Photographer=Bulk', '--status', 'Released', '--add-classification', '/Products/Shoes', '--report', file],
        vars(),
      );
      assert.equal(update.code, 0, update.stderr);
      assert.match(update.stderr, /dam records undo .*undo-report\.json` puts back the 3 changed records/);
      const saved = JSON.parse(await readFile(file, 'utf8')) as { format: string; undo: { recordId: string; changes: { fields: { field: string; before: unknown }[] } }[] };
      assert.equal(saved.format, 'dam-records-update-report');
      const first = saved.undo.find((u) => u.recordId === ids[0])!;
      assert.deepEqual(first.changes.fields.find((f) => f.field === 'Photographer')?.before, 'Ana Lima', 'the report keeps the value before');

      // Someone else changes one record after the update: undo must leave that record alone.
      await runDam(['records', 'update', ids[2], '--set', 'Photographer=Someone else'], vars());
      const before = await Promise.all(ids.map(doc));

      const dry = await runDam(['records', 'undo', file, '--dry-run'], vars());
      assert.equal(dry.code, 1, dry.stderr);
      assert.match(dry.stdout, /^3 records in the report: 2 would be restored, 1 skipped\./m);
      assert.match(dry.stdout, new RegExp(`${ids[0]} Undo item 0: .*Photographer: "Bulk" → "Ana Lima"`));
      assert.match(dry.stdout, new RegExp(`skipped ${ids[2]} Undo item 2: changed since the update`));
      assert.deepEqual((await Promise.all(ids.map(doc))).map((d) => d.readOnly.modifiedOn), before.map((d) => d.readOnly.modifiedOn), 'the dry run wrote nothing');

      const undo = await runDam(['records', 'undo', file], vars());
      assert.equal(undo.code, 1, undo.stdout + undo.stderr);
      assert.match(undo.stdout, /^3 records: 2 restored, 1 skipped, 0 failed/);
      assert.match(undo.stderr, new RegExp(`skipped ${ids[2]} \\(Undo item 2\\): changed since the update`));
      const [a, b, c] = await Promise.all(ids.map(doc));
      assert.deepEqual([a.fields.UsageRights, a.fields.Photographer, a.status, a.classifications], [['Licensed'], 'Ana Lima', 'Draft', []]);
      assert.deepEqual([b.fields.UsageRights, b.fields.Photographer, b.status], [['Unrestricted'], null, 'Draft']);
      assert.deepEqual([c.fields.Photographer, c.status], ['Someone else', 'Released'], 'the record changed since keeps its change');

      const again = await runDam(['records', 'undo', file], vars());
      assert.equal(again.code, 1, 'a second undo finds every record changed since (by the first undo) and restores nothing');
      assert.match(again.stdout, /0 restored, 3 skipped/);
    });

    it('every record restored exits 0; a file that is not a report exits 2', async () => {
      const id = await create('Undo all', { Photographer: 'Kim', Owner: 'Ana' });
      const file = join(home, 'undo-all.json');
      assert.equal((await runDam(['records', 'update', id, '--clear', 'Photographer', '--report', file], vars())).code, 0);
      const undo = await runDam(['records', 'undo', file, '--json'], vars());
      assert.equal(undo.code, 0, undo.stderr);
      assert.equal((JSON.parse(undo.stdout) as { changed: unknown[] }).changed.length, 1);
      assert.equal((await doc(id)).fields.Photographer, 'Kim');

      await writeFile(join(home, 'not-a-report.json'), '{"total": 1}');
      const bad = await runDam(['records', 'undo', join(home, 'not-a-report.json')], vars());
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /not the report of a bulk update/);
      assert.equal((await runDam(['records', 'undo', join(home, 'missing.json')], vars())).code, 2);
    });
  });

  describe('delete', () => {
    it('refuses without --yes when there is no terminal to ask on, and deletes nothing', async () => {
      const id = await create('Keep me');
      const run = await runDam(['records', 'delete', id], vars());
      assert.equal(run.code, 2);
      assert.match(run.stderr, /--yes/);
      assert.equal((await doc(id)).id, id);
    });

    it('--yes deletes; an id that does not exist is a named failure (exit 1)', async () => {
      const id = await create('Delete me');
      const run = await runDam(['records', 'delete', id, MISSING, '--yes'], vars());
      assert.equal(run.code, 1);
      assert.match(run.stdout, /^2 records: 1 deleted, 1 failed/);
      assert.match(run.stderr, new RegExp(`failed ${MISSING}: the record does not exist`));
      assert.equal((await runDam(['records', 'get', id], vars())).code, 1);
    });
  });
});
