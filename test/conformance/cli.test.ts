// `dam search` and `dam get` run in-process against the emulator, connection from the environment.
import { strict as assert } from 'node:assert';
import { createServer, type AddressInfo } from 'node:net';
import { describeEachBackend, runDam } from './helpers';

const dam = runDam;

describeEachBackend('dam search / dam get', { seed: 'demo' }, (env) => {
  const vars = () => ({ DAM_URL: env().url });

  it('search --all --json streams every hit as NDJSON', async () => {
    const total = (await env().client().search.records({ expression: 'ContentType = Video', pageSize: 1 })).totalCount ?? 0;
    const run = await dam(['search', 'ContentType = Video', '--all', '--json', '--page-size', '40'], vars());
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.trimEnd().split('\n');
    assert.equal(lines.length, total);
    const items = lines.map((l) => JSON.parse(l) as { id: string; contentType: string });
    assert.ok(items.every((i) => i.contentType === 'Video' && /^[0-9a-f]{32}$/.test(i.id)));
    assert.equal(new Set(items.map((i) => i.id)).size, items.length);
  });

  it('search without --all prints one page and says how many remain', async () => {
    const run = await dam(['search', 'ContentType = Image', '--page-size', '5'], vars());
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.trimEnd().split('\n').length, 5);
    assert.match(run.stderr, /^5 of \d+ hits shown; --all prints every page/);
  });

  it('search says when a status is none of the three, instead of quietly finding nothing (issue 27)', async () => {
    const run = await dam(['search', 'Status = Relesed'], vars());
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /warning: 'Relesed' is not a content status, so no record matches\. Did you mean 'Released'\? .*\(DQ3021\)/);
    const good = await dam(['search', 'Status = Released', '--page-size', '1'], vars());
    assert.doesNotMatch(good.stderr, /warning/);
  });

  it('search notes once that criteria side by side are joined by OR (second walk of issue 27)', async () => {
    const run = await dam(['search', 'Title contains harbour Status = Released', '--page-size', '1'], vars());
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /note: No operator before this criterion: it is joined by OR \(the default\).*\(DQ3022\)/);
    assert.equal(run.stderr.match(/DQ3022/g)?.length, 1);
    const written = await dam(['search', 'Title contains harbour AND Status = Released', '--page-size', '1'], vars());
    assert.doesNotMatch(written.stderr, /DQ3022/);
  });

  it('search --classifications prints id and namePath', async () => {
    const run = await dam(['search', '*', '--classifications', '--all'], vars());
    assert.equal(run.code, 0, run.stderr);
    const rows = run.stdout.trimEnd().split('\n').map((l) => l.split('\t'));
    assert.ok(rows.length >= 30);
    assert.ok(rows.every(([id, path]) => /^[0-9a-f]{32}$/.test(id) && path.length > 0));
  });

  it('search --param fills @Name', async () => {
    const run = await dam(['search', 'ContentType = @kind', '--param', 'kind=Document', '--json', '--page-size', '3'], vars());
    assert.equal(run.code, 0, run.stderr);
    assert.ok(run.stdout.trimEnd().split('\n').every((l) => (JSON.parse(l) as { contentType: string }).contentType === 'Document'));
  });

  it('get prints the resource, with --select embedding', async () => {
    const id = (await env().client().records.list({ pageSize: 1 })).items[0].id;
    const run = await dam(['get', `record/${id}`, '--select', 'record=fields'], vars());
    assert.equal(run.code, 0, run.stderr);
    const body = JSON.parse(run.stdout) as { id: string; _embedded?: { fields?: unknown } };
    assert.equal(body.id, id);
    assert.ok(body._embedded?.fields);
  });

  it('get of a missing resource exits 1 with the service’s message; the exception type only with --verbose', async () => {
    const run = await dam(['get', 'record/0123456789abcdef0123456789abcdef'], vars());
    assert.equal(run.code, 1);
    assert.match(run.stderr, /404/);
    assert.doesNotMatch(run.stderr, /Exception|Dam\.Core/, 'people read words, not .NET type names');
    const verbose = await dam(['get', 'record/0123456789abcdef0123456789abcdef', '--verbose'], vars());
    assert.equal(verbose.code, 1);
    assert.match(verbose.stderr, /NoDataFoundException/);
  });

  it('says in words that no service answers, and how to start one', async () => {
    const closed = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const run = await dam(['search', 'ContentType = Image'], { DAM_URL: `http://127.0.0.1:${closed}` });
    assert.equal(run.code, 1);
    assert.equal(run.stderr, `dam: No DAM service answers at http://127.0.0.1:${closed}. Start one with \`dam emulator\` or set DAM_URL.\n`);
  });

  it('a search without hits says so on stderr, and stdout stays empty for scripts', async () => {
    const run = await dam(['search', `Title = "no such title ${Date.now()}"`], vars());
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, '');
    assert.equal(run.stderr, 'No records match.\n');
  });

  it('a contains search without hits says that contains matches whole words, with the prefix search to try', async () => {
    const run = await dam(['search', 'Title contains a'], vars());
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /^No records match\.\ndam: hint: `contains` matches whole words: `Title contains a` finds a Title with the word a; for words that start with it write `Title = a\*`\n/);
  });

  it('an operator the language does not have: dam lint names it with a did-you-mean; the emulator reads the words as full text', async () => {
    const { mkdtemp, writeFile, rm } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(join(tmpdir(), 'dam-lint-'));
    try {
      await writeFile(join(dir, 'q.dam-query'), 'Title startswith Gol\n###\nColour = red\n');
      const lint = await dam(['lint', join(dir, 'q.dam-query')], vars());
      assert.equal(lint.code, 1, lint.stdout + lint.stderr);
      assert.match(lint.stdout + lint.stderr, /q\.dam-query:1:7: error DQ2012 `startswith` is not an operator of search expressions: did you mean `Title = Gol\*`\?/);
      assert.match(lint.stdout + lint.stderr, /q\.dam-query:3:1: warning DQ3001 `Colour` is not a known records property: the local emulator refuses it/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const search = await dam(['search', 'Title startswith Gol'], vars());
    assert.equal(search.code, 0, search.stderr);
    const unknown = await dam(['search', 'Colour = red'], vars());
    assert.match(unknown.stderr, /'Colour' is not a searchable property of records: the local emulator refuses it, and a tenant answers it only if it has such a property \(DQ3001\)/);
  });

  it('an empty search expression is a usage error that says what to pass', async () => {
    const run = await dam(['search', '  '], vars());
    assert.equal(run.code, 2);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /^dam: give a search expression, e\.g\. /);
  });

  it('a wrong secret from the environment is refused; it never appears in output', async () => {
    const run = await dam(['get', 'languages'], { ...vars(), DAM_CLIENT_SECRET: 'wrong-secret-value' });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /401/);
    assert.ok(!run.stderr.includes('wrong-secret-value'));
  });

  it('--verbose logs each request without the token', async () => {
    const run = await dam(['get', 'languages', '--verbose', '--compact'], vars());
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /POST http:\/\/127\.0\.0\.1:\d+\/login\/connect\/token → 200/);
    assert.match(run.stderr, /GET http:\/\/127\.0\.0\.1:\d+\/api\/core\/languages → 200/);
    assert.doesNotMatch(run.stderr, /Bearer|dam-emulator-secret/);
  });

  it('usage errors exit 2', async () => {
    assert.equal((await dam(['search'], vars())).code, 2);
    assert.equal((await dam(['search', 'x', '--page-size', '0'], vars())).code, 2);
    assert.equal((await dam(['get', 'a', 'b'], vars())).code, 2);
  });
});
