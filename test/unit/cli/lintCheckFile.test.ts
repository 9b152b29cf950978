// `dam lint brand.dam-check.json` parsed a check file as a query (11 bogus DQ2001 errors): check files get their
// own validation, the category among it (issue 27, item 7).
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import { main } from '../../../src/cli/main';
import { checkFileJsonSchema } from '../../../src/api/checkFile';

async function dam(...argv: string[]): Promise<{ code: number; stdout: string }> {
  const stdout = new PassThrough();
  const out: Buffer[] = [];
  stdout.on('data', (c: Buffer) => out.push(c));
  const code = await main(argv, { stdout, stderr: new PassThrough(), env: process.env, signal: new AbortController().signal });
  return { code, stdout: Buffer.concat(out).toString('utf8') };
}

describe('dam lint on .dam-check.json', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dam-lint-check-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('a good check file lints clean, by name or by category id', async () => {
    const good = file('brand.dam-check.json', JSON.stringify({ check: 'Brand voice', category: 'Brand Consistency', outcome: 'pass', description: 'All good.' }, null, 2));
    assert.deepEqual(await dam('lint', good), { code: 0, stdout: '' });
    const byId = file('id.dam-check.json', JSON.stringify({ check: 'Brand voice', category: '7a3c2e10-c4b2-4f7e-9d5a-1b6c8e0f3d21', outcome: 'pass', description: 'ok' }));
    assert.equal((await dam('lint', byId)).code, 0);
  });

  it('"Compliance" is a problem on the category\'s line that names the four', async () => {
    const text = '{\n  "check": "Legal",\n  "category": "Compliance",\n  "outcome": "fail",\n  "description": "x"\n}\n';
    const run = await dam('lint', file('legal.dam-check.json', text));
    assert.equal(run.code, 1);
    assert.equal(
      run.stdout.trim(),
      `${join(dir, 'legal.dam-check.json')}:3:15: error DC2001 category: The category is one of the four: Risk & Compliance, Brand Consistency, Message Clarity, Channel Readiness (or a category id)`,
    );
    assert.doesNotMatch(run.stdout, /DQ\d/);
  });

  it('a missing description, an unknown field, broken JSON and a result with neither outcome nor findings', async () => {
    const missing = await dam('lint', file('a.dam-check.json', '{ "check": "x", "outcome": "pass", "colour": 1 }'));
    assert.match(missing.stdout, /DC2001 description: /);
    assert.match(missing.stdout, /DC2001 .*colour/);
    assert.match((await dam('lint', file('b.dam-check.json', '{ "check": '))).stdout, /:1:\d+: error DC1001 Invalid JSON/);
    assert.match((await dam('lint', file('c.dam-check.json', '{ "check": "x", "description": "d" }'))).stdout, /DC2002 A result without findings needs an outcome/);
  });

  it('the editor\'s JSON Schema offers the four names and says them for a value that is none', () => {
    const category = (checkFileJsonSchema() as { properties: { category: { anyOf: { enum?: string[]; errorMessage?: string }[] } } }).properties.category;
    assert.deepEqual(category.anyOf[0]!.enum, ['Risk & Compliance', 'Brand Consistency', 'Message Clarity', 'Channel Readiness']);
    assert.match(category.anyOf[0]!.errorMessage ?? '', /one of the four: Risk & Compliance/);
  });
});

describe('dam lint on a misspelt status (issue 27, item 8)', () => {
  it('warns with the closest status', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dam-lint-status-'));
    try {
      const path = join(dir, 'status.dam-query');
      writeFileSync(path, 'Status = Relesed\n');
      const run = await dam('lint', path);
      assert.equal(run.stdout.trim(), `${path}:1:10: warning DQ3021 'Relesed' is not a content status, so no record matches. Did you mean 'Released'? Statuses: Draft, Released, Archived.`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
