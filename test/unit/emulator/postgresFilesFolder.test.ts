// Where a PostgreSQL-backed emulator keeps its files without --data: one folder per server, database and schema,
// and never one folder for two different ones (the parts are escaped, not squeezed).
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { postgresFilesFolder } from '../../../src/emulator/storage/open';

describe('postgresFilesFolder', () => {
  it('names host and port, database and schema, without the user or password', () => {
    assert.equal(
      postgresFilesFolder('postgres://me:secret@127.0.0.1:5433/dam_pgblobs?schema=t1&sslmode=disable'),
      join('.dam-emulator', 'postgres', '127.0.0.1_5433', 'dam_pgblobs', 't1'),
    );
    // The server's defaults: port 5432, schema dam_emulator (storage/postgres.ts).
    assert.equal(postgresFilesFolder('postgres://db.example/dam', '/var/dam'), join('/var/dam', 'postgres', 'db.example_5432', 'dam', 'dam_emulator'));
  });

  it('gives different databases and schemas different folders, and none outside its own', () => {
    const folders = [
      'postgres://h/a_b?schema=c',
      'postgres://h/a?schema=b_c',
      'postgres://h:5433/a?schema=c',
      'postgres://h/a%2Fb?schema=c',
      'postgres://h/a-b?schema=c',
      'postgres://h2/a?schema=c',
    ].map((url) => postgresFilesFolder(url, 'base'));
    assert.equal(new Set(folders).size, folders.length);
    for (const url of ['postgres://h/..?schema=c', 'postgres://h/%2E%2E%2F%2E%2E?schema=c']) {
      const folder = postgresFilesFolder(url, 'base');
      assert.ok(folder.startsWith(join('base', 'postgres', 'h_5432')) && !folder.split(/[\\/]/).includes('..'), folder);
    }
  });
});
