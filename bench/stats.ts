// Small helpers every benchmark shares: order statistics, one printed row per figure, an emulator token.
import { EMULATOR_CLIENT } from '../src/core/contract';

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

/** A token of the emulator's admin client (client credentials), as every bench's requests need one. */
export async function emulatorToken(url: string): Promise<string> {
  const res = await fetch(`${url}/login/connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'dam-bench', accept: 'application/json' },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'api', client_id: EMULATOR_CLIENT.clientId, client_secret: EMULATOR_CLIENT.clientSecret }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}
