// `dam upload` through the one upload queue against the real emulator: many files become records in input
// order with their version ids, a file that fails does not stop the others and is named with its reason after
// its retries, and Ctrl+C while a segmented file is on its way creates no record.
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { main } from '../../src/cli/main';
import { describeEachBackend, runDam } from './helpers';

describeEachBackend('dam upload (the shared upload queue)', {}, (env) => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'dam-upload-cli-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  function files(prefix: string, count: number, size: number): string[] {
    return Array.from({ length: count }, (_, i) => {
      const path = join(dir, `${prefix}-${i}.png`);
      writeFileSync(path, randomBytes(size + i));
      return path;
    });
  }

  async function recordsIn(classificationId: string) {
    return (await env().client().search.records({ expression: 'DirectClassification = @c', namedParameters: { c: classificationId }, pageSize: 100 })).items;
  }

  it('makes a record per file, in input order, each with its version', async () => {
    const client = env().client();
    const cls = (await client.classifications.create({ name: `cli-many-${Date.now()}` })).id;
    const paths = files('many', 9, 3000);
    const run = await runDam(['upload', ...paths, '--classification', cls, '--json', '--url', env().url]);
    assert.equal(run.code, 0, run.stderr);
    const rows = JSON.parse(run.stdout) as { file: string; recordId: string; versionId: string; size: number }[];
    assert.deepEqual(rows.map((r) => r.file), paths);
    assert.deepEqual(rows.map((r) => r.size), paths.map((_, i) => 3000 + i));
    for (const row of rows) assert.equal((await client.files.latestVersion(row.recordId))?.id, row.versionId);
    const records = await recordsIn(cls);
    assert.equal(records.length, 9);
    // The queue's content type from the extension, as the Upload command gives it; the title stays the file name.
    assert.ok(records.every((r) => r.contentType === 'Image' && /^many-\d\.png$/.test(r.title ?? '')));
    assert.match(run.stderr, /100% \(\S+ KB of \S+ KB, 9\/9 files\)/);
  });

  it('goes on past a failed file and names it after sending it again --retries times', async () => {
    const paths = files('fail', 3, 2000);
    const missing = 'f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0';
    const run = await runDam(['upload', ...paths, '--classification', missing, '--retries', '1', '--json', '--url', env().url]);
    assert.equal(run.code, 1);
    const rows = JSON.parse(run.stdout) as { file: string; error?: string }[];
    assert.deepEqual(rows.map((r) => r.file), paths);
    assert.ok(rows.every((r) => r.error && r.error.length > 0), run.stdout);
    assert.match(run.stderr, /sending 3 failed file\(s\) again \(1 of 1\)/);
    for (const path of paths) assert.ok(run.stderr.includes(`dam: ${path}: `), `${path} is not named among the failures`);
  });

  // Issue 27, item 9.
  it('sends the rest of a batch past a name the service refuses, stores Markdown as text/markdown, and says so (exit 1)', async () => {
    const client = env().client();
    const cls = (await client.classifications.create({ name: `cli-names-${Date.now()}` })).id;
    const good = join(dir, 'notes.md');
    writeFileSync(good, '# Notes\n\nHarbour copy.\n');
    const bad = join(dir, 'bad:name.png');
    writeFileSync(bad, randomBytes(100));
    const run = await runDam(['upload', bad, good, '--classification', cls, '--url', env().url]);
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /bad:name\.png: not sent: the file name 'bad:name\.png' contains :/);
    const [record] = await recordsIn(cls);
    assert.equal(record?.title, 'notes.md');
    const version = await client.files.latestVersion(record!.id);
    assert.equal((version as { mimeType?: string } | undefined)?.mimeType, 'text/markdown');
  });

  it('takes a folder (every file below it) and --classification as a name path, resolved before anything is sent', async () => {
    const client = env().client();
    const name = `cli-folder-${Date.now()}`;
    const cls = (await client.classifications.create({ name })).id;
    const folder = join(dir, 'folder');
    mkdirSync(join(folder, 'inner'), { recursive: true });
    writeFileSync(join(folder, 'a.txt'), 'a');
    writeFileSync(join(folder, 'inner', 'b.txt'), 'b');
    const run = await runDam(['upload', folder, '--classification', `/${name}`, '--url', env().url]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /is a folder: uploading the 2 file\(s\) below it \(recursively\)/);
    assert.deepEqual((await recordsIn(cls)).map((r) => r.title).sort(), ['a.txt', 'b.txt']);

    const unknown = await runDam(['upload', folder, '--classification', '/No/Such/Path', '--url', env().url]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /--classification '\/No\/Such\/Path': no classification has the id or name path \/No\/Such\/Path; nothing was sent/);
    assert.doesNotMatch(unknown.stderr, /%/, 'no progress: nothing was sent');
  });

  it('Ctrl+C while a segmented file is on its way creates no record and exits 130', async () => {
    const client = env().client();
    const cls = (await client.classifications.create({ name: `cli-cancel-${Date.now()}` })).id;
    const big = join(dir, 'big.bin');
    writeFileSync(big, randomBytes(45 * 1024 * 1024));
    const small = files('before-big', 1, 1000)[0];
    const controller = new AbortController();
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let err = '';
    stdout.resume();
    stderr.on('data', (b: Buffer) => {
      err += b.toString();
      // A quarter of the bytes went out: the segmented session is open.
      if (/^(2[5-9]|[3-9]\d)% /m.test(err)) controller.abort();
    });
    const code = await main(['upload', small, big, '--classification', cls, '--concurrency', '1', '--url', env().url], { stdout, stderr, env: {}, signal: controller.signal });
    assert.ok(controller.signal.aborted, 'the upload ended before it was cancelled');
    assert.equal(code, 130, err);
    assert.match(err, /cancelled; 1 of 2 file\(s\) arrived as records/);
    const records = await recordsIn(cls);
    assert.deepEqual(records.map((r) => r.title), ['before-big-0.png'], 'a record was created for the cancelled file');
  });
});
