// A comparison as a document a person reads and can attach to an issue: the summary first (counts, which routes
// differ), then each difference in words, then, compactly, what was not compared and why. Holds no values: only
// routes, member names and types.
import type { CompareLabels, Comparison, Difference } from './compare';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The one line ending a comparison: how many differences, over how many routes. */
export function summaryLine(comparison: Comparison): string {
  const { differences, compared } = comparison;
  return `${plural(differences.length, 'difference')} in ${plural(compared + differences.filter((d) => d.kind === 'status').length, 'route')} compared.`;
}

const SELECT = / \(select-[^)]*\)$/;

/** `GET /x` and `GET /x (select-…)` as one entry: the route, and whether it was the plain request, the select one, or both. */
function compactRoutes(routes: readonly string[]): string[] {
  const seen = new Map<string, { plain: boolean; select: boolean }>();
  for (const route of routes) {
    const base = route.replace(SELECT, '');
    const entry = seen.get(base) ?? { plain: false, select: false };
    if (base === route) entry.plain = true;
    else entry.select = true;
    seen.set(base, entry);
  }
  return [...seen].map(([base, { plain, select }]) => `\`${base}\`${select ? (plain ? ' (also with its select header)' : ' (with its select header)') : ''}`);
}

/** Differences by route, in the order they came (sorted by route). */
function byRoute(differences: readonly Difference[]): Map<string, Difference[]> {
  const out = new Map<string, Difference[]>();
  for (const d of differences) out.set(d.route, [...(out.get(d.route) ?? []), d]);
  return out;
}

/** The comparison as markdown. */
export function comparisonReport(comparison: Comparison, labels: CompareLabels, title = `Where the ${labels.second} differs from the ${labels.first}`): string {
  const { differences, notCompared } = comparison;
  const routes = byRoute(differences);
  const lines = [`# ${title}`, ''];
  // The summary first: what a reader wants before any detail, and the not-compared list can be long.
  lines.push(summaryLine(comparison), '');
  if (notCompared.length) lines.push(`${plural(notCompared.length, 'route was', 'routes were')} not compared (listed at the end, each with the reason).`, '');
  if (!differences.length) lines.push('No differences.', '');
  else {
    lines.push(`What differs (${plural(routes.size, 'route')}):`, '');
    for (const [route, list] of routes) lines.push(`- \`${route}\`: ${plural(list.length, 'difference')}`);
    lines.push('');
  }
  lines.push(
    'Made by `dam tenant probe` (or DAM: Compare the Emulator with This Tenant…): only the shape of each answer was read ' +
      '(status, member names and their JSON types, link relations), never a value, an id or a name. You can attach this ' +
      'report to an issue.',
    '',
  );
  if (differences.length) {
    lines.push('## Differences', '');
    for (const [route, list] of routes) {
      lines.push(`### \`${route}\``, '');
      for (const d of list) lines.push(`- ${d.words.startsWith(`${route}: `) ? d.words.slice(route.length + 2) : d.words}`);
      lines.push('');
    }
  }
  if (notCompared.length) {
    lines.push(`## Not compared (${notCompared.length})`, '');
    const reasons = new Map<string, string[]>();
    for (const n of notCompared) reasons.set(n.why, [...(reasons.get(n.why) ?? []), n.route]);
    // The routes a side was not asked first, then those both answered with an error: each kind together, the longest
    // lists first within it (sorting by length alone put a lone `both answer 403` between two `not asked` lines).
    const kind = (why: string) => (why.startsWith('not asked') ? 0 : 1);
    const sorted = [...reasons].sort((a, b) => kind(a[0]) - kind(b[0]) || b[1].length - a[1].length);
    for (const [why, list] of sorted) lines.push(`- ${why}: ${compactRoutes(list).join(', ')}`);
    lines.push('');
  }
  return lines.join('\n');
}
