// Scratch measurement for issue 37 part 2 (not part of `npm run bench`): grows a tenant to N records as
// `dam emulator --records N` does and prints the growth's wall and CPU time and the size of every table and index.
// DAM_GROW_DATA: the data folder (PGlite), DAM_GROW_DATABASE: a PostgreSQL URL instead; DAM_GROW_RECORDS: N.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator } from '../src/emulator/server';
import { openStore } from '../src/emulator/storage/open';

async function main(): Promise<void> {
  const database = process.env.DAM_GROW_DATABASE || undefined;
  // With PostgreSQL the data folder holds only the files (no file is uploaded here): a temporary one unless given.
  const files = database && !process.env.DAM_GROW_DATA ? mkdtempSync(join(tmpdir(), 'dam-grow-')) : undefined;
  const data = files ?? process.env.DAM_GROW_DATA ?? '';
  const records = Number(process.env.DAM_GROW_RECORDS ?? 100_000);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const emulator = await startEmulator({ data, database, records, port: 0, searchIndex: 'off', log: (line) => console.log(line) });
  const wall = (performance.now() - started) / 1000;
  const { user, system } = process.cpuUsage(cpu);
  await emulator.close();
  console.log(`growth to ${records}: ${wall.toFixed(1)} s wall, ${((user + system) / 1e6).toFixed(1)} s CPU of this process`);
  const store = await openStore({ data, database });
  try {
    const rows = await store.query<{ name: string; kind: string; bytes: string }>(
      `SELECT c.relname AS name, c.relkind::text AS kind, pg_relation_size(c.oid)::text AS bytes FROM pg_class c
        WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'i', 't') ORDER BY pg_relation_size(c.oid) DESC LIMIT 25`,
    );
    for (const r of rows) console.log(`${r.kind} ${r.name.padEnd(45)} ${(Number(r.bytes) / 2 ** 20).toFixed(1)} MB`);
    const [t] = await store.query<{ n: string }>(
      `SELECT sum(pg_total_relation_size(c.oid))::text AS n FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'm')`,
    );
    console.log(`tables and indexes: ${(Number(t.n) / 2 ** 20).toFixed(1)} MB`);
  } finally {
    await store.close();
    if (files) rmSync(files, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
