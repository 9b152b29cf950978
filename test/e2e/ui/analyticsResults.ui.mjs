// Analytics results as people read them (issue 21, item 10): a time bucket shows once (Cube answers it under
// the member's name and under its bucket name), as a month rather than a raw ISO timestamp, and a pie of
// slice a month uses a colour of its own. Headers are words (`Download date (month)`), the members' names
// in their tooltips. After Run the results scroll into view with the focus and the row count announced; counts are
// grouped as the chart's axis writes them (issue 27, item 12).
import { activeWebview, pick, runCommand } from './workbench.mjs';

export const title = 'analytics results: one readable date column, a pie with no repeated colour';
export const workbench = 'emulator';

export default async function run({ page, screenshot }) {
  await runCommand(page, 'DAM: New Analytics Query', { opensInput: true });
  await pick(page, 'Downloads by month');
  const panel = activeWebview(page);
  await panel.locator('#run').click();
  await panel.locator('#run-status', { hasText: 'rows fetched' }).waitFor({ state: 'visible', timeout: 60_000 });
  // After Run something visibly happens: the results come into view with the focus, and the count is announced.
  await panel.locator('#run-announcement', { hasText: /rows? fetched/ }).waitFor({ state: 'attached', timeout: 30_000 });
  const focused = await panel.locator('body').evaluate(() => document.activeElement?.id ?? '');
  if (focused !== 'run-status') throw new Error(`after Run the focus is on '${focused}', not on the results`);
  const inView = await panel.locator('#run-status').evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight;
  });
  if (!inView) throw new Error('after Run the results are out of view');
  // Measures read as the chart's axis writes them (the locale's grouping), the raw value in the tooltip.
  const counts = await panel.locator('.tbody .tr').evaluateAll((rows) => rows.map((r) => [r.children[1]?.textContent ?? '', r.children[1]?.getAttribute('title') ?? '']));
  const format = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 });
  const unformatted = counts.filter(([text, raw]) => text !== format.format(Number(raw)));
  if (counts.length === 0 || unformatted.length) throw new Error(`counts are not grouped as the chart's axis: ${JSON.stringify(unformatted.slice(0, 3))}`);

  // Headers in words; the member's own name in the tooltip.
  const headerCells = panel.locator('[role="columnheader"]');
  const headers = (await headerCells.allInnerTexts()).map((h) => h.trim());
  const members = await headerCells.evaluateAll((cells) => cells.map((c) => c.getAttribute('title')));
  if (JSON.stringify(headers) !== JSON.stringify(['Download date (month)', 'Downloads count'])) throw new Error(`the headers are not in words, or the date shows twice: ${JSON.stringify(headers)}`);
  if (JSON.stringify(members) !== JSON.stringify(['Downloads.downloadDate.month', 'Downloads.count'])) throw new Error(`the headers' tooltips do not name the members: ${JSON.stringify(members)}`);
  const column = 0;
  const months = await panel.locator('.tbody .tr').evaluateAll((rows, i) => rows.map((r) => r.children[i]?.textContent ?? ''), column);
  const raw = months.filter((m) => !/^[A-Z][a-z]{2} \d{4}$/.test(m));
  if (months.length === 0 || raw.length) throw new Error(`months are not shown as months: ${JSON.stringify(raw.slice(0, 3))}`);
  await screenshot('analytics-table');

  await panel.getByRole('tab', { name: 'Chart' }).click();
  await panel.locator('#chart-kind').selectOption('pie');
  const canvas = panel.locator('canvas#chart[data-ready="true"]');
  await canvas.waitFor({ state: 'visible', timeout: 30_000 });
  const colors = JSON.parse((await canvas.getAttribute('data-colors')) ?? '[]');
  // One slice a month the table shows: how many depends on today's date against the demo events' fixed year (on
  // 1 December the last 12 months hold 11 with events), so the slices are counted against the table, not a constant.
  if (colors.length < 2 || colors.length !== months.length) throw new Error(`expected a slice for each of the ${months.length} months, drew ${colors.length}`);
  if (new Set(colors).size !== colors.length) throw new Error(`the pie repeats colours: ${JSON.stringify(colors)}`);
  await screenshot('analytics-pie');

  // Records with their titles: the record column shows the ids (the titles are the next column), not the titles twice.
  // (The first builder closed, so its webview does not lie over the second's.)
  await runCommand(page, 'View: Revert and Close Editor');
  await runCommand(page, 'DAM: New Analytics Query', { opensInput: true });
  await pick(page, 'Most viewed records this quarter');
  const viewed = activeWebview(page);
  await viewed.locator('#run').click();
  await viewed.locator('#run-status', { hasText: 'rows fetched' }).waitFor({ state: 'visible', timeout: 60_000 });
  const viewedHeaders = (await viewed.locator('[role="columnheader"]').allInnerTexts()).map((h) => h.trim());
  if (viewedHeaders[0] !== 'Record ID') throw new Error(`the first column of 'Most viewed' is not the record id: ${JSON.stringify(viewedHeaders)}`);
  const firstRow = await viewed.locator('.tbody .tr').first().evaluate((r) => [...r.children].map((c) => c.textContent ?? ''));
  if (!/^[0-9a-f]{32}$/.test(firstRow[0]) || firstRow[1] === firstRow[0]) throw new Error(`the record column repeats the title instead of the id: ${JSON.stringify(firstRow)}`);
}
