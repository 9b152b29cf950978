// Small helpers every benchmark shares: order statistics and one printed row per figure.
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

export function median(values: number[]): number {
  return percentile(values, 50);
}

/** One line per figure: what, our figure, the baseline measured in the same run, and the comparison. */
export function printRow(what: string, figure: string, baseline: string, note: string): void {
  console.log(`${what.padEnd(46)} ${figure.padStart(14)}   baseline: ${baseline || '-'}${note ? `   (${note})` : ''}`);
}
