// The prepared data directories' unpacker: what node-tar packs comes back byte for byte; anything that would
// leave the folder or is not a plain file or folder is refused.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { c as createTar } from 'tar';
import { untar, untarChunks } from '../../../src/emulator/storage/untar';

async function pack(cwd: string, entries: string[]): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of createTar({ cwd, portable: true }, entries)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('untar', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'dam-untar-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('unpacks files and folders as node-tar packed them', async () => {
    mkdirSync(join(dir, 'src/base/5'), { recursive: true });
    mkdirSync(join(dir, 'src/empty'));
    writeFileSync(join(dir, 'src/PG_VERSION'), '17\n');
    const big = Buffer.alloc(70_000, 7);
    writeFileSync(join(dir, 'src/base/5/1259'), big);
    writeFileSync(join(dir, 'src/base/5/zero'), '');
    await untar(await pack(join(dir, 'src'), ['PG_VERSION', 'base', 'empty']), join(dir, 'out'));
    assert.equal(readFileSync(join(dir, 'out/PG_VERSION'), 'utf8'), '17\n');
    assert.deepEqual(readFileSync(join(dir, 'out/base/5/1259')), big);
    assert.equal(readFileSync(join(dir, 'out/base/5/zero')).length, 0);
    assert.ok(existsSync(join(dir, 'out/empty')));
  });

  it('refuses a name that leaves the folder, a damaged header, and links', async () => {
    const header = (name: string, type = '0') => {
      const h = Buffer.alloc(512);
      h.write(name, 0);
      h.write('0000644\0', 100);
      h.write('00000000000\0', 124);
      h.write(type, 156);
      h.write('ustar\0', 257);
      let sum = 0;
      h.fill(32, 148, 156);
      for (const b of h) sum += b;
      h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
      return Buffer.concat([h, Buffer.alloc(1024)]);
    };
    await assert.rejects(untar(header('../escape'), join(dir, 'out')), /outside its folder/);
    await assert.rejects(untar(header('/etc/passwd'), join(dir, 'out')), /outside its folder/);
    await assert.rejects(untar(header('link', '2'), join(dir, 'out')), /only files and folders/);
    const damaged = header('fine');
    damaged[0] = 'g'.charCodeAt(0);
    await assert.rejects(untar(damaged, join(dir, 'out')), /bad header checksum/);
    assert.ok(!existsSync(join(dir, 'escape')));
  });

  it('unpacks the same from chunks of any size, a file complete only in a later chunk', async () => {
    mkdirSync(join(dir, 'src/base/5'), { recursive: true });
    const files = { 'base/5/a': Buffer.alloc(70_001, 3), 'base/5/b': Buffer.from('x'), 'base/5/c': Buffer.alloc(512, 9), 'base/5/empty': Buffer.alloc(0) };
    for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, 'src', name), bytes);
    const tarball = await pack(join(dir, 'src'), ['base']);
    for (const size of [1, 7, 511, 513, 65_536]) {
      const chunks = [];
      for (let i = 0; i < tarball.length; i += size) chunks.push(tarball.subarray(i, i + size));
      const out = join(dir, `out-${size}`);
      await untarChunks(chunks, out);
      for (const [name, bytes] of Object.entries(files)) assert.deepEqual(readFileSync(join(out, name)), bytes, `${name} from chunks of ${size}`);
    }
  });

  it('refuses a tarball that ends inside a file', async () => {
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src/big'), Buffer.alloc(5_000, 1));
    const tarball = await pack(join(dir, 'src'), ['big']);
    await assert.rejects(untarChunks([tarball.subarray(0, 2_000)], join(dir, 'out')), /ends inside/);
  });
});
