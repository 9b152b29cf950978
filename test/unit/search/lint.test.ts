// `dam lint` end to end through the CLI entry: the 30 valid expressions lint clean, the 30 broken ones
// report each expected error at its line and column, and nothing else.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import { main } from '../../../src/cli/main';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'queries');
const VALID = join(FIXTURES, 'valid.dam-query');
const BROKEN = join(FIXTURES, 'broken.dam-query');

async function dam(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (c: Buffer) => out.push(c));
  stderr.on('data', (c: Buffer) => err.push(c));
  const code = await main(argv, { stdout, stderr, env: process.env, signal: new AbortController().signal });
  return { code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
}

/** `# expect CODE col N` lines: the error is on the next line that is not an expect line. */
function expectations(file: string): string[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const out: string[] = [];
  let pending: { code: string; col: number }[] = [];
  lines.forEach((line, i) => {
    const m = /^# expect (DQ\d{4}) col (\d+)$/.exec(line);
    if (m) pending.push({ code: m[1], col: Number(m[2]) });
    else {
      for (const p of pending) out.push(`${i + 1}:${p.col} ${p.code}`);
      pending = [];
    }
  });
  return out.sort();
}

describe('dam lint', () => {
  it('has at least 30 sections in each fixture', () => {
    for (const f of [VALID, BROKEN]) assert.ok(readFileSync(f, 'utf8').split('\n').filter((l) => l.startsWith('###')).length >= 30);
  });

  it('reports no errors on 30 real-world expressions and exits 0', async () => {
    const r = await dam('lint', VALID);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.doesNotMatch(r.stdout, /: error /);
  });

  it('reports each broken expression at its line and column and exits 1', async () => {
    const r = await dam('lint', BROKEN);
    assert.equal(r.code, 1);
    const errors = r.stdout
      .split('\n')
      .filter((l) => l.includes(': error '))
      .map((l) => {
        const m = /^(.*):(\d+):(\d+): error (DQ\d{4}) .+$/.exec(l);
        assert.ok(m, `line format: ${l}`);
        assert.equal(m[1], BROKEN);
        return `${m[2]}:${m[3]} ${m[4]}`;
      })
      .sort();
    const expected = expectations(BROKEN);
    assert.ok(expected.length >= 30);
    assert.deepEqual(errors, expected);
  });

  it('prints JSON with --format json', async () => {
    const r = await dam('lint', BROKEN, '--format', 'json');
    assert.equal(r.code, 1);
    const records = JSON.parse(r.stdout) as { file: string; line: number; column: number; code: string; severity: string; phase: string }[];
    const first = records[0];
    assert.deepEqual([first.line, first.column, first.code, first.severity, first.phase], [7, 8, 'DQ2004', 'error', 'syntax']);
  });

  describe('with files written for the test', () => {
    let dir: string;
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'dam-lint-'));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('hands .dam-analytics.json files to the analytics checker', async () => {
      const file = join(dir, 'views.dam-analytics.json');
      writeFileSync(file, '{"measures":["Views.count"],\n "limit":20000}');
      const r = await dam('lint', file, '--format', 'json');
      assert.equal(r.code, 1);
      const [first] = JSON.parse(r.stdout) as { line: number; column: number; source: string; severity: string }[];
      assert.deepEqual([first.line, first.column, first.source, first.severity], [2, 10, 'dam-analytics', 'error']);
    });

    it('checks fields and options against --schema', async () => {
      const schema = join(dir, 'schema.json');
      writeFileSync(schema, JSON.stringify({ fields: [{ name: 'Status', dataType: 'OptionList', options: [{ name: 'Approved' }] }] }));
      const query = join(dir, 'q.dam-query');
      writeFileSync(query, "### status\nFieldName('Status').Value = 'Aproved'\n");
      const r = await dam('lint', query, '--schema', schema);
      assert.equal(r.code, 0);
      assert.equal(r.stdout, `${query}:2:29: warning DQ3006 'Aproved' is not an option of 'Status'; did you mean 'Approved'? Options: Approved.\n`);
      writeFileSync(schema, JSON.stringify({ fields: [{ name: 'Status', dataType: 'Picklist' }] }));
      assert.equal((await dam('lint', query, '--schema', schema)).code, 2);
    });
  });

  it('reports a file nested 3,000 deep (once a RangeError) and one with a control character as errors, with exit 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dam-lint-deep-'));
    try {
      const deep = join(dir, 'deep.dam-query');
      writeFileSync(deep, `### deep\n${'('.repeat(3000)}Title = x${')'.repeat(3000)}\n### control\nTitle = 'a\u0001b'\n`);
      const r = await dam('lint', deep);
      assert.equal(r.code, 1, r.stderr);
      assert.equal(
        r.stdout,
        `${deep}:2:257: error DQ2011 Parentheses and NOT are nested more than 256 deep here; write the expression with less nesting.\n` +
          `${deep}:4:11: error DQ1005 The control character U+0001 cannot be part of an expression; remove it.\n`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports an analytics file nested 3,000 deep (once a stack overflow that ended the whole run) and still lints the next file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dam-lint-deep-'));
    try {
      const deep = join(dir, 'deep.dam-analytics.json');
      writeFileSync(deep, `${'['.repeat(3000)}${']'.repeat(3000)}\n`);
      const good = join(dir, 'good.dam-analytics.json');
      writeFileSync(good, '{ "measures": ["Views.count"], "limit": 20000 }\n');
      const r = await dam('lint', deep, good);
      assert.equal(r.code, 1, r.stderr);
      assert.equal(r.stderr, '');
      assert.match(r.stdout, new RegExp(`^${deep.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:1:65: error DA2007 Arrays and objects are nested more than 64 levels deep`, 'm'));
      assert.match(r.stdout, /good\.dam-analytics\.json:1:\d+: error DA3\d{3} /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses to run without files, and reports unreadable ones', async () => {
    assert.equal((await dam('lint')).code, 2);
    const r = await dam('lint', join(FIXTURES, 'missing.dam-query'));
    assert.equal(r.code, 1);
    assert.match(r.stderr, /cannot read/);
  });
});
