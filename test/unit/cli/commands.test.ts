// The `dam` command table (src/cli/commands/index.ts): each line's words are its command's own, and a command loads
// only its own module, so `dam upload` does not evaluate the search language or the tenant tools, and `dam emulator`
// not the client (issue 37).
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { commandEntries } from '../../../src/cli/commands';

const ROOT = resolve(__dirname, '../../..');

/** The source files under src/ a fresh process has loaded after `dam ARGS` ran in it. */
function loadedBy(args: string[]): string[] {
  const script = `
    const { main } = require('./src/cli/main.ts');
    const { PassThrough } = require('node:stream');
    const sink = new PassThrough();
    sink.resume();
    main(${JSON.stringify(args)}, { stdout: sink, stderr: sink, env: {}, signal: new AbortController().signal }).then((code) => {
      const files = Object.keys(require.cache).filter((f) => f.includes('/src/')).map((f) => f.slice(f.indexOf('/src/') + 1));
      process.stdout.write(JSON.stringify({ code, files }));
    });`;
  const run = spawnSync(process.execPath, ['--require', 'tsx/cjs', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return (JSON.parse(run.stdout) as { files: string[] }).files;
}

describe('dam command table', () => {
  it("each line's words select the command of that name, in the order dam help lists them", function () {
    // Loads every command's module (and the client) through tsx: seconds on a busy machine.
    this.timeout(60_000);
    const names = commandEntries.map((e) => e.name.join(' '));
    assert.equal(new Set(names).size, names.length, 'a command is listed twice');
    for (const entry of commandEntries) assert.deepEqual(entry.load().name, entry.name);
    assert.deepEqual(names.slice(0, 3), ['emulator', 'emulator requests', 'emulator snapshot save']);
    assert.ok(names.includes('upload') && names.includes('tenant probe') && names.includes('records undo'));
  });

  it("dam upload loads the upload command's module and not the other commands'", function () {
    this.timeout(60_000);
    const files = loadedBy(['upload', '--help']);
    assert.ok(files.includes('src/cli/commands/upload.ts'), files.join('\n'));
    for (const other of ['search', 'lint', 'tenant', 'records', 'analytics', 'tasks']) assert.ok(!files.includes(`src/cli/commands/${other}.ts`), `${other}.ts was loaded`);
    assert.ok(!files.includes('src/core/catalogue/index.ts'), 'the catalogue was loaded');
  });

  it('dam emulator does not load the client', function () {
    this.timeout(60_000);
    const files = loadedBy(['emulator', '--help']);
    assert.ok(files.includes('src/cli/commands/emulator.ts'), files.join('\n'));
    assert.ok(!files.includes('src/api/client.ts'), 'the client was loaded');
    assert.ok(!files.includes('src/cli/commands/upload.ts'), 'upload.ts was loaded');
  });
});
