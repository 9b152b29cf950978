// Where findings sit in a document's text: the testable core of "findings as diagnostics". Free of
// `vscode`: it answers offsets, and the caller turns them into ranges.

export type FindingSeverity = 'error' | 'warning' | 'information';

export interface LocatableFinding {
  occurrence: number;
  finding: string;
  explanation?: string;
  recommendation?: string;
  /** The spec's outcomes; anything else (or none) is information. */
  outcome?: string | null;
}

export interface LocatedFinding {
  /** Offsets into the text, end exclusive. */
  start: number;
  end: number;
  severity: FindingSeverity;
  /** The finding text, its explanation and recommendation, one per line. */
  message: string;
  occurrence: number;
  /** The check's name, for the diagnostic's source. */
  source?: string;
}

/** fail → error, warning → warning, everything else → information. */
export function severityOf(outcome: string | null | undefined): FindingSeverity {
  const o = outcome?.toLowerCase();
  return o === 'fail' ? 'error' : o === 'warning' ? 'warning' : 'information';
}

/** More marks than this for one finding would bury the document; the first ones are kept. */
export const MAX_MARKS_PER_FINDING = 50;

function indexesOf(haystack: string, needle: string, limit: number): number[] {
  const out: number[] = [];
  for (let i = haystack.indexOf(needle); i !== -1 && out.length < limit; i = haystack.indexOf(needle, i + needle.length)) out.push(i);
  return out;
}

/**
 * Every place where a finding's text occurs. The spec says findings pinpoint an item but gives no
 * position, so the text is all there is: an exact match first, and only when there is none a match that
 * ignores case. A text that occurs several times is marked at each place, since nothing says which one
 * is meant. Blank finding texts are not located.
 */
export function locateFindings(text: string, findings: readonly LocatableFinding[], source?: string): LocatedFinding[] {
  const out: LocatedFinding[] = [];
  let lower: string | undefined;
  for (const f of findings) {
    const needle = f.finding.trim();
    if (!needle) continue;
    let at = indexesOf(text, needle, MAX_MARKS_PER_FINDING);
    if (at.length === 0) {
      lower ??= text.toLowerCase();
      // toLowerCase can change a string's length (e.g. 'İ'); such texts only get exact matches.
      if (lower.length === text.length) at = indexesOf(lower, needle.toLowerCase(), MAX_MARKS_PER_FINDING);
    }
    const message = [needle, f.explanation?.trim(), f.recommendation?.trim() ? `Recommendation: ${f.recommendation.trim()}` : undefined].filter(Boolean).join('\n');
    for (const start of at) out.push({ start, end: start + needle.length, severity: severityOf(f.outcome), message, occurrence: f.occurrence, ...(source ? { source } : {}) });
  }
  return out.sort((a, b) => a.start - b.start || a.occurrence - b.occurrence);
}
