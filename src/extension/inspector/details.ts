// The read-only Markdown document of one journal entry: findings first (what to fix), then the request and the
// answer as sent, then the commands that reproduce it. No `vscode` import, so it is tested on its own.
import { curlCommand, damCommand, requestTarget, type EntryDetail, type JournalBody } from '../../core/inspector';

/** A code fence longer than any run of backticks inside `text`, so a body cannot close it. */
function fenced(text: string, language = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}

function bodyLanguage(body: JournalBody): string {
  const type = body.contentType ?? '';
  if (/json/i.test(type)) return 'json';
  if (/html/i.test(type)) return 'html';
  if (/xml/i.test(type)) return 'xml';
  return '';
}

function pretty(body: JournalBody): string {
  const text = body.text ?? '';
  if (!body.truncated && /json/i.test(body.contentType ?? '')) {
    try {
      return JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      // Not JSON after all (single quotes, a cut): shown as sent.
    }
  }
  return text;
}

function bodySection(body: JournalBody | null): string[] {
  if (!body) return ['_No body._'];
  if (body.text === undefined) return [`_${body.note ?? 'Body not kept.'}_`];
  const notes = [
    body.truncated ? `_Cut at ${body.text.length.toLocaleString('en')} characters${body.bytes !== null ? ` of ${body.bytes.toLocaleString('en')} bytes` : ''}._` : '',
    body.scrubbed ? '_Secrets replaced by [scrubbed]._' : '',
  ].filter(Boolean);
  return [fenced(pretty(body), bodyLanguage(body)), ...notes];
}

const escapeMd = (s: string) => s.replace(/([\\`*_{}[\]<>#|])/g, '\\$1');

export function renderEntry(entry: EntryDetail, origin: string): string {
  const status = entry.status === 0 ? 'no answer' : String(entry.status);
  const lines: string[] = [`# ${status} ${entry.method} ${escapeMd(requestTarget(entry, 200))}`, ''];
  lines.push(
    `Request #${entry.id} at ${origin} · ${entry.time} · ${entry.durationMs} ms · client ${entry.client ? `\`${entry.client.replace(/`/g, "'")}\`` : '_no User-Agent_'}` +
      (entry.caller ? ` · token of \`${entry.caller.clientId}\` (user ${entry.caller.userId})` : '') +
      (entry.replayOf !== null ? ` · replay of #${entry.replayOf}` : ''),
    '',
  );
  if (entry.route) lines.push(`Route: \`${entry.route}\`${entry.recordId ? ` · record \`${entry.recordId}\`` : ''}`, '');
  lines.push('## Findings', '');
  if (entry.findings.length === 0) lines.push('None: a tenant would take this request as it is.');
  for (const f of entry.findings) {
    lines.push(`- **${f.severity === 'refuse' ? 'Refuse' : 'Frown'}** \`${f.code}\` ${escapeMd(f.message)}`);
    if (f.advice) lines.push(`  - Send instead: ${escapeMd(f.advice)}`);
  }
  lines.push('', '## Request', '', fenced([`${entry.method} ${entry.path}${entry.query ? `?${entry.query}` : ''}`, ...entry.request.headers.map(([n, v]) => `${n}: ${v}`)].join('\n'), 'http'), '');
  lines.push(...bodySection(entry.request.body), '');
  lines.push('## Response', '', fenced([`HTTP ${status}`, ...entry.response.headers.map(([n, v]) => `${n}: ${v}`)].join('\n'), 'http'), '');
  lines.push(...bodySection(entry.response.body), '');
  const curl = curlCommand(entry, origin);
  lines.push('## Reproduce', '', fenced(curl.command, 'sh'));
  for (const note of curl.notes) lines.push(`- ${escapeMd(note)}`);
  const dam = damCommand(entry, origin);
  lines.push('', dam ? `The same job with the CLI (the spec's headers sent for you):\n\n${fenced(dam, 'sh')}` : '_No `dam` command does this request._');
  if (!entry.replay.possible) lines.push('', `_Replay is not possible: ${escapeMd(entry.replay.reason ?? 'unknown reason')}._`);
  return `${lines.join('\n')}\n`;
}

/**
 * The icon of a request row by its status class. The shape tells the class too, not the colour alone: a selected
 * row draws its icon in the selection's colour, where a red and a green dot look the same.
 */
export function statusIcon(status: number): { id: string; color: string } {
  if (status >= 200 && status < 300) return { id: 'pass-filled', color: 'charts.green' };
  if (status >= 300 && status < 400) return { id: 'arrow-circle-right', color: 'charts.blue' };
  if (status >= 400 && status < 500) return { id: 'error', color: 'charts.red' };
  if (status >= 500) return { id: 'error', color: 'errorForeground' };
  return { id: 'circle-slash', color: 'disabledForeground' };
}
