// Runs every bench/*.bench.ts in turn (through tsx) and passes their output through.
// Each benchmark prints its own figure beside a baseline measured in the same run.
// `node bench/run.mjs [--million] [--database-url postgres://…] [name…]`: `--million` adds the million-record
// tenants to the big-tenant benches (big, scale; DAM_BENCH_MILLION=1), `--database-url` is the PostgreSQL server
// the benches that run on both backends use (DAM_BENCH_DATABASE_URL; each takes a schema of its own and drops it).
// No CI step runs this (.ci/run runs `npm test`): the million-record and latency benches take minutes to hours.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const argv = process.argv.slice(2);
const env = { ...process.env };
const only = [];
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--million') env.DAM_BENCH_MILLION = '1';
  else if (argv[i] === '--database-url' && argv[i + 1]) env.DAM_BENCH_DATABASE_URL = argv[++i];
  else if (argv[i].startsWith('--database-url=')) env.DAM_BENCH_DATABASE_URL = argv[i].slice('--database-url='.length);
  else if (argv[i].startsWith('--')) {
    console.error(`unknown option ${argv[i]}: node bench/run.mjs [--million] [--database-url URL] [name…]`);
    process.exit(2);
  } else only.push(argv[i]);
}
const files = readdirSync(new URL('.', import.meta.url))
  .filter((f) => f.endsWith('.bench.ts') || f.endsWith('.bench.mjs'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
let failed = 0;
for (const file of files) {
  console.log(`\n== ${file}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', `bench/${file}`], { stdio: 'inherit', env });
  if (result.status !== 0) failed++;
}
if (failed) {
  console.error(`\n${failed} benchmark(s) failed`);
  process.exitCode = 1;
}
