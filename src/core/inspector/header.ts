// The `Dam-Emulator-Findings` response header: an RFC 8941 structured-field list, one item per finding,
// `DE1003;severity=refuse;message="…"`, printable ASCII only and bounded, so any HTTP stack carries it.
import type { Finding, FindingSeverity } from './findings';

export const FINDINGS_HEADER = 'Dam-Emulator-Findings';
/** Longest header value the emulator sends; past it, messages are dropped first, then items (counted in a last `more` item). */
export const FINDINGS_HEADER_MAX = 2048;

const MESSAGE_MAX = 200;

/** Characters the findings' messages use, written in ASCII so the header still reads as the message does. */
const ASCII_FOR: ReadonlyMap<string, string> = new Map([
  ['\u2192', '->'], ['\u2190', '<-'], ['\u2264', '<='], ['\u2265', '>='], ['\u2260', '<>'], ['\u00d7', 'x'],
  ['\u2018', "'"], ['\u2019', "'"], ['\u201c', '"'], ['\u201d', '"'], ['\u00ab', '"'], ['\u00bb', '"'],
  ['\u2013', '-'], ['\u2014', '-'], ['\u2026', '...'], ['\u00a0', ' '],
]);

/** An sf-string: printable ASCII, `"` and `\` escaped; accents are dropped, common symbols spelled in ASCII, anything else becomes `?`. */
function sfString(text: string, max: number): string {
  let s = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, (c) => ASCII_FOR.get(c) ?? '?');
  if (s.length > max) s = `${s.slice(0, max - 3)}...`;
  return `"${s.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

function item(f: Finding, withMessage: boolean): string {
  const code = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/.test(f.code) ? f.code : 'DE0000';
  return `${code};severity=${f.severity}${withMessage ? `;message=${sfString(f.message, MESSAGE_MAX)}` : ''}`;
}

/** The header value for `findings`, or undefined when there are none. */
export function encodeFindingsHeader(findings: readonly Finding[], max = FINDINGS_HEADER_MAX): string | undefined {
  if (findings.length === 0) return undefined;
  const full = findings.map((f) => item(f, true)).join(', ');
  if (full.length <= max) return full;
  const bare = findings.map((f) => item(f, false));
  const kept: string[] = [];
  let length = 0;
  for (let i = 0; i < bare.length; i++) {
    const tail = `, more;count=${bare.length - i}`;
    const next = length + (kept.length ? 2 : 0) + bare[i].length;
    const restFits = i === bare.length - 1 || next + tail.length <= max;
    if (next > max || !restFits) {
      kept.push(`more;count=${bare.length - i}`);
      break;
    }
    kept.push(bare[i]);
    length = next;
  }
  return kept.join(', ');
}

export interface HeaderFinding {
  code: string;
  severity: FindingSeverity | undefined;
  message?: string;
}

/** Reads a `Dam-Emulator-Findings` value back (for tests and clients); a `more` item is returned as is. */
export function parseFindingsHeader(value: string | null | undefined): HeaderFinding[] {
  if (!value) return [];
  const out: HeaderFinding[] = [];
  let i = 0;
  const skipSpace = () => {
    while (value[i] === ' ' || value[i] === '\t') i++;
  };
  while (i < value.length) {
    skipSpace();
    const token = /^[A-Za-z*][A-Za-z0-9_:.\-*/]*/.exec(value.slice(i))?.[0];
    if (!token) break;
    i += token.length;
    const entry: HeaderFinding = { code: token, severity: undefined };
    while (value[i] === ';') {
      i++;
      const key = /^[a-z*][a-z0-9_.\-*]*/.exec(value.slice(i))?.[0] ?? '';
      i += key.length;
      let v = '';
      if (value[i] === '=') {
        i++;
        if (value[i] === '"') {
          i++;
          while (i < value.length && value[i] !== '"') {
            if (value[i] === '\\') i++;
            v += value[i] ?? '';
            i++;
          }
          i++;
        } else {
          const bare = /^[^;,\s]*/.exec(value.slice(i))?.[0] ?? '';
          v = bare;
          i += bare.length;
        }
      }
      if (key === 'severity' && (v === 'refuse' || v === 'frown')) entry.severity = v;
      if (key === 'message') entry.message = v;
    }
    out.push(entry);
    skipSpace();
    if (value[i] === ',') i++;
  }
  return out;
}
