// `dam tenant pull/diff/push` and `dam emulator --seed DIR`, against real emulators over HTTP on each backend: a pull
// seeds a second emulator that pulls back the same files; one changed file is one line of diff and one step of the
// plan; a push makes the target match and a second push plans nothing; a broken folder is refused with its file.
import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type EmulatorOptions } from '../../src/emulator/server';
import { EMULATOR_LIMITED_CLIENT } from '../../src/core/contract';
import { readFolder } from '../../src/cli/commands/tenant';
import { backends, describeEachBackend, failure, runDam } from './helpers';

describeEachBackend('dam tenant', { seed: 'demo' }, (env) => {
  let home: string;
  const started: (() => Promise<void>)[] = [];

  /** Another emulator on the same backend as the suite's. */
  async function another(options: EmulatorOptions): Promise<string> {
    const backend = backends().find((b) => b.name === env().backend)!;
    const storage = await backend.prepare();
    try {
      const emulator = await startEmulator({ ...options, port: 0, data: ':memory:', database: storage.database });
      started.push(async () => {
        await emulator.close();
        await storage.cleanup();
      });
      return emulator.url;
    } catch (err) {
      await storage.cleanup();
      throw err;
    }
  }

  before(async () => {
    home = await mkdtemp(join(tmpdir(), 'dam-tenant-'));
  });
  after(async () => {
    for (const stop of started) await stop();
    await rm(home, { recursive: true, force: true });
  });

  const pull = async (url: string, dir: string) => {
    const run = await runDam(['tenant', 'pull', dir, '--quiet'], { DAM_URL: url });
    assert.equal(run.code, 0, run.stderr);
    return readFolder(dir);
  };

  it('a pull seeds an emulator that pulls back the same files; its own fields are searchable', async () => {
    const first = await pull(env().url, join(home, 'a'));
    assert.ok(first.has('fields/UsageRights.json') && first.has('classifications.json') && first.has('.schema/field.schema.json'));
    assert.doesNotMatch(first.get('classifications.json')!, /createdOn|modifiedOn/, 'nothing volatile');
    const seeded = await another({ seedDir: join(home, 'a'), records: 200 });
    const second = await pull(seeded, join(home, 'b'));
    assert.deepEqual([...second.keys()].sort(), [...first.keys()].sort());
    for (const [path, text] of first) assert.equal(second.get(path), text, path);
    const hits = await runDam(['search', "FieldName('UsageRights').Option.Name = Licensed", '--json', '--page-size', '1'], { DAM_URL: seeded });
    assert.equal(hits.code, 0, hits.stderr);
    assert.equal(hits.stdout.trim().split('\n').length, 1, 'synthetic records carry the folder’s option values');
  });

  it('one changed file is one line of diff and one step of the plan; --apply makes the target match, then nothing is planned', async () => {
    const dir = join(home, 'a');
    const target = await another({ seedDir: dir });
    const file = join(dir, 'fields', 'UsageRights.json');
    const field = JSON.parse(await readFile(file, 'utf8')) as { options: { id: string; name: string }[] };
    field.options.push({ id: 'a0b0c0000000400080000000000000c9', name: 'Acme' });
    await writeFile(file, `${JSON.stringify(field, null, 2)}\n`);

    const diff = await runDam(['tenant', 'diff', target, dir]);
    assert.equal(diff.code, 0, diff.stderr);
    assert.deepEqual(diff.stdout.trim().split('\n'), ["field 'UsageRights' gained option 'Acme'"]);

    const plan = await runDam(['tenant', 'push', dir, '--to', target]);
    assert.equal(plan.code, 0, plan.stderr);
    assert.match(plan.stdout, /^Plan: 1 step\n1\. update field 'UsageRights'\n {5}field 'UsageRights' gained option 'Acme'\n/);
    assert.match(plan.stdout, /dry run: nothing was written/);
    assert.equal((await runDam(['tenant', 'diff', target, dir, '--exit-code'])).code, 1, 'the dry run wrote nothing');

    const apply = await runDam(['tenant', 'push', dir, '--to', target, '--apply']);
    assert.equal(apply.code, 0, apply.stderr);
    assert.match(apply.stdout, /Applied 1 step\./);
    assert.equal((await runDam(['tenant', 'diff', target, dir])).stdout, 'No differences.\n');
    assert.match((await runDam(['tenant', 'push', dir, '--to', target])).stdout, /^Plan: nothing to do/);
  });

  it('a pull refuses to replace files changed by hand since the last pull (exit 2, naming them) unless --force', async () => {
    const dir = join(home, 'edited');
    await pull(env().url, dir);
    assert.match(await readFile(join(dir, '.dam-pull.json'), 'utf8'), /"fields\/Keywords\.json": "[0-9a-f]{64}"/, 'the pull records what it wrote');
    await pull(env().url, dir);

    const file = join(dir, 'fields', 'Photographer.json');
    const edited = (await readFile(file, 'utf8')).replace('"isRequired": false', '"isRequired": true');
    await writeFile(file, edited);
    await writeFile(join(dir, 'fields', 'Mine.json'), '{ "name": "Mine" }\n');
    const refused = await runDam(['tenant', 'pull', dir, '--quiet'], { DAM_URL: env().url });
    assert.equal(refused.code, 2, refused.stdout + refused.stderr);
    assert.match(refused.stderr, /changed by hand since the last pull: fields\/Mine\.json \(added\), fields\/Photographer\.json\n/);
    assert.match(refused.stderr, /nothing was written.*--force/);
    assert.equal(await readFile(file, 'utf8'), edited, 'the edit is kept');
    assert.equal(await readFile(join(dir, 'fields', 'Mine.json'), 'utf8'), '{ "name": "Mine" }\n');

    const forced = await runDam(['tenant', 'pull', dir, '--quiet', '--force'], { DAM_URL: env().url });
    assert.equal(forced.code, 0, forced.stderr);
    assert.doesNotMatch(await readFile(file, 'utf8'), /"isRequired": true/);
    assert.equal((await readFolder(dir)).has('fields/Mine.json'), false);
    await pull(env().url, dir);
  });

  it('a new option written without an id is one gained option for diff and push; the tenant gives it its id', async () => {
    const dir = join(home, 'new-option');
    await pull(env().url, dir);
    const target = await another({ seedDir: dir });
    const file = join(dir, 'fields', 'UsageRights.json');
    const field = JSON.parse(await readFile(file, 'utf8')) as { options: { id?: string; name: string }[] };
    field.options.push({ name: 'Borrowed' });
    await writeFile(file, `${JSON.stringify(field, null, 2)}\n`);

    const diff = await runDam(['tenant', 'diff', target, dir]);
    assert.equal(diff.code, 0, diff.stderr);
    assert.deepEqual(diff.stdout.trim().split('\n'), ["field 'UsageRights' gained option 'Borrowed'"]);
    const apply = await runDam(['tenant', 'push', dir, '--to', target, '--apply']);
    assert.equal(apply.code, 0, apply.stdout + apply.stderr);
    assert.equal((await runDam(['tenant', 'diff', target, dir])).stdout, 'No differences.\n');
    const back = await pull(target, join(home, 'new-option-back'));
    const option = (JSON.parse(back.get('fields/UsageRights.json')!) as { options: { id?: string; name: string }[] }).options.find((o) => o.name === 'Borrowed');
    assert.match(option?.id ?? '', /^[0-9a-f]{32}$/);
  });

  it('a push onto an empty tenant creates everything in dependency order, and a second push plans nothing', async () => {
    const dir = join(home, 'a');
    const target = await another({ seed: 'empty' });
    const apply = await runDam(['tenant', 'push', dir, '--to', target, '--apply']);
    assert.equal(apply.code, 0, apply.stdout + apply.stderr);
    const order = [...apply.stderr.matchAll(/\] create (\w[\w ]*?) '/g)].map((m) => m[1]);
    assert.ok(order.indexOf('field group') < order.indexOf('field') && order.lastIndexOf('classification') < order.indexOf('field'), order.join(','));
    const again = await runDam(['tenant', 'push', dir, '--to', target]);
    assert.match(again.stdout, /^Plan: nothing to do/, again.stdout);
    assert.equal((await runDam(['tenant', 'diff', dir, target])).stdout, 'No differences.\n');
  });

  it('a refusal of the target stops the push with a report of what was applied; a refused plan writes nothing', async () => {
    const dir = join(home, 'a');
    const target = await another({ seed: 'empty' });
    const limited = { DAM_CLIENT_ID: EMULATOR_LIMITED_CLIENT.clientId, DAM_CLIENT_SECRET: EMULATOR_LIMITED_CLIENT.clientSecret };
    const refused = await runDam(['tenant', 'push', dir, '--to', target, '--apply'], limited);
    assert.equal(refused.code, 1, refused.stdout + refused.stderr);
    assert.match(refused.stdout, /Applied 0 of \d+ steps, then the target refused one:\n {2}create field group 'AssetInfo': /);
    assert.match(refused.stdout, /Not applied: /);

    const changed = join(home, 'changed-type');
    await pull(env().url, changed);
    const file = join(changed, 'fields', 'Photographer.json');
    await writeFile(file, (await readFile(file, 'utf8')).replace('"SingleLineText"', '"Numeric"'));
    const plan = await runDam(['tenant', 'push', changed, '--to', env().url, '--apply']);
    assert.equal(plan.code, 2);
    assert.match(plan.stdout, /refused: field 'Photographer' is SingleLineText on the target and Numeric in the folder/);
    assert.match(plan.stderr, /nothing was written/);
  });

  it('a broken or unknown file, or a reference to nothing, is refused with the file named', async () => {
    const dir = join(home, 'broken');
    await pull(env().url, dir);
    await writeFile(join(dir, 'fields', 'Keywords.json'), '{ "name": "Keywords", ');
    await writeFile(join(dir, 'notes.json'), '{}');
    const run = await runDam(['tenant', 'diff', dir, env().url]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /fields\/Keywords\.json: not valid JSON/);
    assert.match(run.stderr, /notes\.json: unknown file/);

    const dangling = join(home, 'dangling');
    await pull(env().url, dangling);
    const file = join(dangling, 'fields', 'Description.json');
    await writeFile(file, (await readFile(file, 'utf8')).replace('"group": "AssetInfo"', '"group": "Nowhere"'));
    const err = await failure(() => startEmulator({ seedDir: dangling, port: 0, data: ':memory:' }));
    assert.equal(err.name, 'TenantFolderError');
    assert.match(err.message, /fields\/Description\.json: field 'Description' names field group 'Nowhere'/);
  });

  it('the emulator answers the configuration writes a push needs, and keeps a definition’s other properties', async () => {
    const http = env().client().http;
    const post = async (path: string, json: unknown) => (await http.request<{ id: string }>({ method: 'POST', path, json, accept: 'application/json' })).data;
    const language = await post('/languages', { culture: 'nl-NL', name: 'Dutch' });
    assert.equal((await http.request<{ culture: string }>({ path: `/language/${language.id}`, accept: 'application/json' })).data.culture, 'nl-NL');
    const duplicate = await failure<{ status: number; exceptionMessage: string }>(() => post('/languages', { culture: 'nl-NL' }));
    assert.equal(duplicate.status, 400);
    await http.request({ method: 'DELETE', path: `/language/${language.id}`, responseType: 'none' });

    const type = await post('/contenttypes', { name: 'Audio', labels: [] });
    await http.request({ method: 'DELETE', path: `/contenttype/${type.id}`, responseType: 'none' });
    const used = await failure<{ status: number; exceptionMessage: string }>(() => http.request({ method: 'DELETE', path: '/contenttype/Image', responseType: 'none' }));
    assert.equal(used.status, 400);
    assert.match(used.exceptionMessage, /used by \d+ records/);

    await post('/settingdefinitions', { name: '.brandColour', dataType: 'Text', category: 'Brand', defaultValue: '#123456' });
    assert.equal((await http.request<{ value: string }>({ path: '/setting/.brandColour', accept: 'application/json' })).data.value, '#123456');

    const field = await post('/fielddefinitions', { name: 'Sku', dataType: 'SingleLineText', isReadOnly: true, regularExpression: '^[A-Z]{3}-\\d+$', maximumLength: 20 });
    const read = (await http.request<Record<string, unknown>>({ path: `/fielddefinition/${field.id}`, accept: 'application/json' })).data;
    assert.equal(read.isReadOnly, true);
    assert.equal(read.regularExpression, '^[A-Z]{3}-\\d+$');
    assert.equal(read.maximumLength, 20);
    await http.request({ method: 'PUT', path: `/fielddefinition/${field.id}`, json: { maximumLength: null }, responseType: 'none' });
    assert.equal((await http.request<Record<string, unknown>>({ path: `/fielddefinition/${field.id}`, accept: 'application/json' })).data.maximumLength, undefined);

    const check = await post('/checks', { name: 'Temporary', actionTypeId: '7a3c2e10c4b24f7e9d5a1b6c8e0f3d21', checkCategoryId: 'c4e0a1b2c3d44e5f8a9b0c1d2e3f4a01' });
    await http.request({ method: 'DELETE', path: `/checks/${check.id}`, responseType: 'none' });
    assert.equal((await failure<{ status: number }>(() => http.request({ path: `/checks/${check.id}` }))).status, 404);
  });
});
