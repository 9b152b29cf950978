// Search latency as the tenant grows: the demo tenant grown by `--records`' generator to 10,000 and 100,000 records,
// and 1,000,000 with DAM_BENCH_MILLION=1 (`node bench/run.mjs --million scale`), on PGlite and on PostgreSQL
// (DAM_BENCH_DATABASE_URL or `--database-url URL`, else a private cluster when the server is installed), four of the
// demo's searches over HTTP: each sample a search not made before (another word, date, classification or option: the
// emulator keeps the totals it counted while nothing is written), its first page and then its next page by cursor.
// p50 and p99 per size, the growth from the smallest to the largest beside log growth, a table, and an SVG plot
// (bench/scaling.svg, referenced from the README). DAM_BENCH_SCALE_SIZES (replaces the sizes), DAM_BENCH_SAMPLES
// (default 80 per search and size, at most 87), DAM_BENCH_SCALE_BACKENDS (default pglite,postgres) change the load;
// DAM_BENCH_SCALE_DATA keeps the PGlite tenant in that folder for the next run (growing to 1M takes minutes), and
// DAM_BENCH_TENANT_PGLITE_<size> / DAM_BENCH_TENANT_POSTGRES_<size> measure a tenant grown before as it is
// (searchTenant.ts keptTenant). The load average is printed with each size. DAM_BENCH_SCALE_POINTS=<file.json> keeps
// the points measured in that file, with those of earlier runs for other backends and sizes, and makes the table and
// the plot of them all (one backend or size measured at a time on a busy machine, one table).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { ADJECTIVES, WORDS } from '../src/emulator/seed/demo';
import { percentile, printRow } from './stats';
import { benchPostgres, keptTenant, openSearchTenant, type SearchBody, type SearchTenant } from './searchTenant';

const SIZES = (process.env.DAM_BENCH_SCALE_SIZES ?? `10000,100000${process.env.DAM_BENCH_MILLION === '1' ? ',1000000' : ''}`).split(',').map(Number);
const SAMPLES = Math.min(87, Number(process.env.DAM_BENCH_SAMPLES ?? 80));
const BACKENDS = (process.env.DAM_BENCH_SCALE_BACKENDS ?? 'pglite,postgres').split(',').filter(Boolean);
const TARGET_P99_MS = 300;
const PLOT = join(__dirname, 'scaling.svg');

interface Search {
  name: string;
  /** The search of sample `i`: the same shape, another word, date, classification or option each time. */
  body(i: number, classifications: string[]): SearchBody;
}

const month = (i: number) => `2025-${String(1 + (i % 12)).padStart(2, '0')}-01`;
const TYPES = ['Image', 'Video', 'Document'];
const OPTIONS = ['Unrestricted', 'InternalOnly', 'Licensed'];

/** Each at least 87 different searches (the classifications by id, name and path: 29 of them each). */
const SEARCHES: Search[] = [
  { name: 'Title contains + CreatedOn >=', body: (i) => ({ expression: `Title contains ${ADJECTIVES[i % 12].toLowerCase()} AND CreatedOn >= ${month(Math.floor(i / 12))}` }) },
  { name: 'DirectClassification, sorted by Title', body: (i, cls) => ({ expression: 'DirectClassification = @c', namedParameters: { c: cls[i % cls.length] }, sort: 'Title' }) },
  { name: 'word AND ContentType AND ModifiedOn >=', body: (i) => ({ expression: `${WORDS[i % 12]} AND ContentType = ${TYPES[Math.floor(i / 12) % 3]} AND ModifiedOn >= ${month(Math.floor(i / 36))}` }) },
  { name: 'option field AND ContentType AND CreatedOn >=', body: (i) => ({ expression: `FieldName('UsageRights').Option.Name = ${OPTIONS[i % 3]} AND ContentType = ${TYPES[Math.floor(i / 3) % 3]} AND CreatedOn >= ${month(Math.floor(i / 9))}` }) },
];

interface Point {
  backend: string;
  size: number;
  search: string;
  p50: number;
  p99: number;
  /** The same search's next page by cursor (its total already counted). */
  next50: number;
  next99: number;
}

/** Backend and size whose index build time was printed. */
const indexed = new Set<string>();

async function measure(tenant: SearchTenant, backend: string, size: number): Promise<Point[]> {
  const rows = await tenant.store.query<{ id: string; name: string; name_path: string }>('SELECT id, name, name_path FROM classifications WHERE parent_id IS NOT NULL ORDER BY id');
  const classifications = [...rows.map((r) => r.id), ...rows.map((r) => r.name), ...rows.map((r) => r.name_path)];
  const points: Point[] = [];
  const all: number[] = [];
  const allNext: number[] = [];
  for (const search of SEARCHES) {
    // Warm the shape on a search the samples do not make (a date before any record): a tenant just grown reads cold.
    for (let i = 0; i < 3; i++) await tenant.search({ ...search.body(i, classifications), expression: `${search.body(i, classifications).expression} AND CreatedOn < 2000-0${i + 1}-01` });
    // On a large tenant a slow count makes the emulator build its search index in the background
    // (search/countIndex.ts), as it does for a user searching it; the same hits as a sample, under another key of
    // the totals the emulator keeps. Wait for the index, so the samples are what searching is like from then on.
    await tenant.search({ ...search.body(0, classifications), expression: `(${search.body(0, classifications).expression}) OR CreatedOn < 2000-01-01` });
    const built = await tenant.settle();
    if (built !== undefined && !indexed.has(`${backend}/${size}`)) {
      indexed.add(`${backend}/${size}`);
      console.log(`  ${backend} ${size.toLocaleString('en-US')} records: the search index was built in ${(built / 1000).toFixed(1)} s`);
    }
    const ms: number[] = [];
    const next: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const body = search.body(i, classifications);
      const first = await tenant.search(body);
      ms.push(first.ms);
      if (first.nextCursor) next.push((await tenant.search({ ...body, cursor: first.nextCursor })).ms);
    }
    all.push(...ms);
    allNext.push(...next);
    points.push({ backend, size, search: search.name, p50: percentile(ms, 50), p99: percentile(ms, 99), next50: percentile(next, 50), next99: percentile(next, 99) });
  }
  points.push({ backend, size, search: 'all four', p50: percentile(all, 50), p99: percentile(all, 99), next50: percentile(allNext, 50), next99: percentile(allNext, 99) });
  return points;
}

/** One size measured and its pooled row printed, with the load average while it ran. */
async function measured(tenant: SearchTenant, backend: string, size: number): Promise<Point[]> {
  const before = loadavg()[0];
  const points = await measure(tenant, backend, size);
  const overall = points[points.length - 1];
  printRow(
    `${backend} ${size.toLocaleString('en-US')} records, all four searches`,
    `p50 ${overall.p50.toFixed(1)} ms`,
    '',
    `p99 ${overall.p99.toFixed(1)} ms; next page p50 ${overall.next50.toFixed(1)}, p99 ${overall.next99.toFixed(1)} ms; ${SAMPLES} searches each; load average ${before.toFixed(1)} to ${loadavg()[0].toFixed(1)}`,
  );
  return points;
}

async function main(): Promise<void> {
  const points: Point[] = [];
  for (const backend of BACKENDS) {
    const needsServer = backend === 'postgres' && SIZES.some((size) => !keptTenant(backend, size));
    const postgres = needsServer ? await benchPostgres() : undefined;
    if (needsServer && !postgres) {
      console.log('postgres: skipped (no DAM_BENCH_DATABASE_URL and no PostgreSQL server installed)');
      continue;
    }
    const kept = backend === 'pglite' ? process.env.DAM_BENCH_SCALE_DATA : undefined;
    try {
      // One tenant grown from size to size; with a kept folder, one per size (a grown tenant does not shrink).
      let tenant: SearchTenant | undefined;
      try {
        for (const size of SIZES) {
          const given = keptTenant(backend, size);
          if (given) {
            // A tenant grown before, as it is (not grown, not dropped); the grown one stays for the next size.
            const other = await openSearchTenant({ ...(backend === 'postgres' ? { database: given } : { data: given }), kept: true, log: (line) => console.log(`  ${line}`) });
            try {
              await other.grow(size);
              points.push(...(await measured(other, backend, size)));
            } finally {
              await other.close();
            }
            continue;
          }
          if (kept) {
            await tenant?.close();
            tenant = undefined;
            mkdirSync(join(kept, `records-${size}`), { recursive: true });
          }
          tenant ??= await openSearchTenant({ database: postgres?.url, data: kept && join(kept, `records-${size}`), log: (line) => console.log(`  ${line}`) });
          await tenant.grow(size);
          points.push(...(await measured(tenant, backend, size)));
        }
      } finally {
        await tenant?.close();
      }
    } finally {
      postgres?.stop();
    }
  }
  const saved = process.env.DAM_BENCH_SCALE_POINTS;
  if (saved) {
    const measuredHere = (p: Point) => points.some((q) => q.backend === p.backend && q.size === p.size);
    const earlier = existsSync(saved) ? (JSON.parse(readFileSync(saved, 'utf8')) as Point[]).filter((p) => !measuredHere(p)) : [];
    points.unshift(...earlier);
    writeFileSync(saved, JSON.stringify(points, null, 1));
  }
  report(points);
}

function report(points: Point[]): void {
  const sizes = [...new Set(points.map((p) => p.size))].sort((a, b) => a - b);
  const backends = [...new Set(points.map((p) => p.backend))];
  console.log(`\nsearch latency (ms, p50 / p99 of ${SAMPLES} searches each; first page, then the next page by cursor) as the tenant grows`);
  const header = ['backend', 'search', ...sizes.map((s) => `${s.toLocaleString('en-US')} records`), `${sizes[sizes.length - 1] / sizes[0]}x records`];
  const rows: string[][] = [];
  const logRatio = Math.log(sizes[sizes.length - 1]) / Math.log(sizes[0]);
  for (const backend of backends) {
    for (const search of [...SEARCHES.map((s) => s.name), 'all four']) {
      const line = sizes.map((size) => points.find((p) => p.backend === backend && p.size === size && p.search === search));
      if (line.some((p) => !p)) continue;
      const first = line[0]!;
      const last = line[line.length - 1]!;
      rows.push([backend, search, ...line.map((p) => `${p!.p50.toFixed(1)} / ${p!.p99.toFixed(1)}`), `p50 ${(last.p50 / first.p50).toFixed(2)}x, p99 ${(last.p99 / first.p99).toFixed(2)}x`]);
      rows.push([backend, '  its next page', ...line.map((p) => `${p!.next50.toFixed(1)} / ${p!.next99.toFixed(1)}`), `p50 ${(last.next50 / first.next50).toFixed(2)}x, p99 ${(last.next99 / first.next99).toFixed(2)}x`]);
    }
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
  console.log(`log growth from ${sizes[0].toLocaleString('en-US')} to ${sizes[sizes.length - 1].toLocaleString('en-US')} records is ${logRatio.toFixed(2)}x; target p99 < ${TARGET_P99_MS} ms at the largest on PGlite`);
  if (sizes.length >= 2) {
    writeFileSync(PLOT, plot(points, sizes, backends));
    console.log(`plot: ${PLOT}`);
  }
}

/** A round step for about five gridlines up to `max`. */
function tick(max: number): number {
  const raw = max / 5;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 2.5, 5, 10].map((m) => m * power).find((step) => step >= raw) ?? 10 * power;
}

/** A small log-x line chart of the pooled first-page p50 and p99 per backend, and the next page's p99, on a white ground. */
function plot(points: Point[], sizes: number[], backends: string[]): string {
  const W = 640;
  const H = 360;
  const m = { l: 60, r: 190, t: 30, b: 50 };
  const pooled = points.filter((p) => p.search === 'all four');
  const step = tick(Math.max(TARGET_P99_MS, ...pooled.map((p) => p.p99)));
  const maxMs = Math.ceil(Math.max(TARGET_P99_MS, ...pooled.map((p) => p.p99)) / step) * step;
  const x = (size: number) => m.l + ((Math.log10(size) - Math.log10(sizes[0])) / Math.max(1e-9, Math.log10(sizes[sizes.length - 1]) - Math.log10(sizes[0]))) * (W - m.l - m.r);
  const y = (ms: number) => H - m.b - (ms / maxMs) * (H - m.t - m.b);
  const colors: Record<string, string> = { pglite: '#1f77b4', postgres: '#d62728' };
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`);
  parts.push(`<rect width="${W}" height="${H}" fill="#ffffff"/>`);
  parts.push(`<text x="${m.l}" y="18" font-size="14" fill="#222">Search latency as the tenant grows (all four searches pooled)</text>`);
  for (let ms = 0; ms <= maxMs; ms += step) {
    parts.push(`<line x1="${m.l}" x2="${W - m.r}" y1="${y(ms)}" y2="${y(ms)}" stroke="#e0e0e0"/><text x="${m.l - 6}" y="${y(ms) + 4}" text-anchor="end" fill="#444">${ms.toFixed(0)}</text>`);
  }
  for (const size of sizes) parts.push(`<text x="${x(size)}" y="${H - m.b + 18}" text-anchor="middle" fill="#444">${size.toLocaleString('en-US')}</text>`);
  parts.push(`<text x="${(m.l + W - m.r) / 2}" y="${H - 10}" text-anchor="middle" fill="#222">records (log scale)</text>`);
  parts.push(`<text x="14" y="${(m.t + H - m.b) / 2}" transform="rotate(-90 14 ${(m.t + H - m.b) / 2})" text-anchor="middle" fill="#222">ms</text>`);
  parts.push(`<line x1="${m.l}" x2="${W - m.r}" y1="${y(TARGET_P99_MS)}" y2="${y(TARGET_P99_MS)}" stroke="#888" stroke-dasharray="6 4"/>`);
  let legend = m.t + 10;
  parts.push(`<text x="${W - m.r + 10}" y="${legend}" fill="#444">--- p99 target ${TARGET_P99_MS} ms</text>`);
  for (const backend of backends) {
    for (const [stat, dash, label] of [['p50', '', 'p50'], ['p99', '5 3', 'p99'], ['next99', '1 3', 'next page p99']] as const) {
      const line = sizes.map((size) => pooled.find((p) => p.backend === backend && p.size === size)).filter((p): p is Point => Boolean(p));
      if (!line.length) continue;
      const color = colors[backend] ?? '#2ca02c';
      parts.push(`<polyline fill="none" stroke="${color}" stroke-width="2" ${dash ? `stroke-dasharray="${dash}"` : ''} points="${line.map((p) => `${x(p.size).toFixed(1)},${y(p[stat]).toFixed(1)}`).join(' ')}"/>`);
      for (const p of line) parts.push(`<circle cx="${x(p.size).toFixed(1)}" cy="${y(p[stat]).toFixed(1)}" r="3" fill="${color}"/>`);
      legend += 18;
      parts.push(`<line x1="${W - m.r + 10}" x2="${W - m.r + 34}" y1="${legend - 4}" y2="${legend - 4}" stroke="${color}" stroke-width="2" ${dash ? `stroke-dasharray="${dash}"` : ''}/><text x="${W - m.r + 40}" y="${legend}" fill="#444">${backend} ${label}</text>`);
    }
  }
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
