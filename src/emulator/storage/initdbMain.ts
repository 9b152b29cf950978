// `node dist/initdb.js DATA_DIR`: initialises a new PGlite data folder and exits, so that what initdb takes (a
// throw-away PostgreSQL of its own and its compilation) goes with this process instead of staying with the
// emulator that runs it (see initdbApart in pglite.ts).
import { createPglite } from './pglite';

async function main(): Promise<void> {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error('usage: initdb DATA_DIR');
  const db = await createPglite(dataDir);
  await db.close();
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
