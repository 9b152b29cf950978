// A comparison as a document a person reads and can attach to an issue: differences in words, then what was not
// compared. Holds no values: only routes, member names and types.
import type { CompareLabels, Comparison } from './compare';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The one line ending a comparison: how many differences, over how many routes. */
export function summaryLine(comparison: Comparison): string {
  const { differences, compared } = comparison;
  return `${plural(differences.length, 'difference')} in ${plural(compared + differences.filter((d) => d.kind === 'status').length, 'route')} compared.`;
}

/** The comparison as markdown. */
export function comparisonReport(comparison: Comparison, labels: CompareLabels, title = `Where the ${labels.second} differs from the ${labels.first}`): string {
  const lines = [`# ${title}`, ''];
  lines.push(
    'Made by `dam tenant probe` (or DAM: Compare the Emulator with This Tenant…): only the shape of each answer was read ' +
      '(status, member names and their JSON types, link relations), never a value, an id or a name. You can attach this ' +
      'report to an issue.',
    '',
    // The count first: the routes that could not be compared can run to a long list below it.
    summaryLine(comparison),
    '',
  );
  if (!comparison.differences.length) lines.push('No differences.', '');
  else {
    lines.push('## Differences', '');
    for (const d of comparison.differences) lines.push(`- ${d.words}`);
    lines.push('');
  }
  if (comparison.notCompared.length) {
    lines.push('## Not compared', '');
    for (const n of comparison.notCompared) lines.push(`- ${n.route}: ${n.why}`);
    lines.push('');
  }
  return lines.join('\n');
}
