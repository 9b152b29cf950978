// `dam tenant pull` and `dam emulator --seed DIR` on a large configuration (500 fields, 2,000 classifications), each
// beside a baseline from the same run: the pull beside the bare GETs of the same lists, the seeded start beside a
// start of the empty seed (what --seed DIR adds on top).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toFiles, type TenantConfig } from '../src/core/tenant';
import { pullTenant } from '../src/api/tenant';
import { DamClient } from '../src/api/client';
import { EMULATOR_CLIENT, emulatorProfile } from '../src/api/endpoints';
import { startEmulator } from '../src/emulator/server';
import { readTenantFolder } from '../src/emulator/seed/tenantFolder';
import { median, printRow, emulatorToken } from './stats';


const FIELDS = 500;
const CLASSIFICATIONS = 2000;
const ROUNDS = 5;

function largeConfig(): TenantConfig {
  const hex = (n: number, prefix: string) => `${prefix}${n.toString(16).padStart(32 - prefix.length, '0')}`;
  const languages = [
    { id: '00000000000000000000000000000000', culture: '', name: 'Neutral', isNeutral: true },
    { id: 'c2bd4f9bbb954bcb80c31e924c9c26dc', culture: 'en-US', name: 'English (United States)', isNeutral: false },
  ];
  const classifications = [];
  // 20 roots × 10 children × 9 grandchildren + the 20 roots and their 200 children = 2,000 nodes, three levels.
  let n = 0;
  for (let r = 0; r < 20 && n < CLASSIFICATIONS; r++) {
    const root = `/Root ${r}`;
    classifications.push({ namePath: root, id: hex(n++, 'c1'), identifier: `root-${r}`, labels: { 'en-US': `Root ${r}` }, sortIndex: r, sortOrder: 'SortIndex' });
    for (let c = 0; c < 10 && n < CLASSIFICATIONS; c++) {
      const child = `${root}/Child ${c}`;
      classifications.push({ namePath: child, id: hex(n++, 'c1'), identifier: `r${r}-c${c}`, labels: { 'en-US': `Child ${c}` }, sortIndex: c, sortOrder: 'SortIndex' });
      for (let g = 0; g < 9 && n < CLASSIFICATIONS; g++) {
        classifications.push({ namePath: `${child}/Leaf ${g}`, id: hex(n++, 'c1'), identifier: `r${r}-c${c}-l${g}`, labels: { 'en-US': `Leaf ${g}` }, sortIndex: g, sortOrder: 'SortIndex' });
      }
    }
  }
  const types = ['SingleLineText', 'MultiLineText', 'Numeric', 'Date', 'OptionList', 'ClassificationList', 'TextList'];
  const fields = Array.from({ length: FIELDS }, (_, i) => {
    const dataType = types[i % types.length];
    return {
      id: hex(i, 'f1'),
      name: `Field${String(i).padStart(3, '0')}`,
      dataType,
      labels: { 'en-US': `Field ${i}` },
      group: i % 2 ? 'Main' : 'Extra',
      isRequired: i % 10 === 0,
      isLocalizable: dataType === 'SingleLineText',
      sortIndex: i,
      ...(dataType === 'OptionList' ? { options: Array.from({ length: 8 }, (_, k) => ({ id: hex(i * 100 + k, 'a0'), name: `Option${k}` })) } : {}),
      ...(dataType === 'ClassificationList' ? { rootClassification: `/Root ${i % 20}` } : {}),
      ...(dataType === 'SingleLineText' ? { properties: { maximumLength: 200, isReadOnly: false } } : {}),
    };
  });
  return {
    languages,
    contentTypes: [{ id: 'a1b2c3d4e5f6478899aabbccddee0001', name: 'Image', labels: {} }],
    checkCategories: [{ id: 'c4e0a1b2c3d44e5f8a9b0c1d2e3f4a01', name: 'Risk & Compliance' }],
    checks: [],
    fieldGroups: [
      { id: hex(1, 'fa'), name: 'Main', labels: {}, sortIndex: 0 },
      { id: hex(2, 'fa'), name: 'Extra', labels: {}, sortIndex: 1 },
    ],
    fields,
    classifications,
    settingDefinitions: [],
    settings: {},
    users: [],
    userGroups: [],
  };
}

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const value = await fn();
  return [performance.now() - t0, value];
}

async function main() {
  const home = await mkdtemp(join(tmpdir(), 'dam-tenant-bench-'));
  const dir = join(home, 'large');
  for (const [path, text] of toFiles(largeConfig())) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  const seeded: number[] = [];
  const empty: number[] = [];
  const read: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const [e, plain] = await timed(() => startEmulator({ seed: 'empty', port: 0, data: ':memory:' }));
    empty.push(e);
    await plain.close();
    const [s, emulator] = await timed(async () => startEmulator({ seedDir: dir, port: 0, data: ':memory:' }));
    seeded.push(s);
    const [r] = await timed(() => readTenantFolder(dir));
    read.push(r);
    if (i < ROUNDS - 1) await emulator.close();
    else {
      const client = new DamClient({ profile: emulatorProfile(emulator.url), secrets: { clientSecret: EMULATOR_CLIENT.clientSecret }, userAgent: 'dam-bench' });
      const token = await emulatorToken(emulator.url);
      const pulls: number[] = [];
      const bare: number[] = [];
      for (let k = 0; k < ROUNDS; k++) {
        const [p, result] = await timed(() => pullTenant(client));
        pulls.push(p);
        if (result.config.fields.length !== FIELDS || result.config.classifications.length !== CLASSIFICATIONS) throw new Error('the pull is incomplete');
        const [b] = await timed(async () => {
          for (const path of ['languages', 'contenttypes', 'checkcategories', 'checks', 'fieldgroups', 'fielddefinitions', 'classifications', 'settingdefinitions', 'settings', 'users', 'usergroups']) {
            for (let page = 1; page <= (path === 'classifications' ? 2 : 1); page++) {
              const res = await fetch(`${emulator.url}/api/core/${path}?page=${page}&pageSize=1000`, {
                headers: { authorization: `Bearer ${token}`, 'api-version': '1', accept: 'application/json', 'user-agent': 'dam-bench', languages: '*' },
              });
              await res.json();
            }
          }
        });
        bare.push(b);
      }
      printRow(`pull ${FIELDS} fields, ${CLASSIFICATIONS} classifications`, `${median(pulls).toFixed(0)} ms`, `bare GETs ${median(bare).toFixed(0)} ms`, `${(median(pulls) / median(bare)).toFixed(2)}x, median of ${ROUNDS}`);
      await emulator.close();
    }
  }
  printRow('emulator start with --seed DIR (same tenant)', `${median(seeded).toFixed(0)} ms`, `--seed empty ${median(empty).toFixed(0)} ms`, `+${(median(seeded) - median(empty)).toFixed(0)} ms, reading the folder ${median(read).toFixed(0)} ms`);
  await rm(home, { recursive: true, force: true });
}

void main();
