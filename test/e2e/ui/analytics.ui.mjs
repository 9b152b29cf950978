// A person opens the ready-made "Downloads by month" query, runs it in the analytics builder, switches the
// result to a line chart and to bars in both themes (screenshots), then adds a dimension with the picker
// and sees it in the file's text.
import { activeWebview, pick, runCommand } from './workbench.mjs';

export const title = 'analytics builder: run a ready-made query and chart it';
export const workbench = 'emulator';

export default async function run({ page, screenshot }) {
  await runCommand(page, 'DAM: New Analytics Query', { opensInput: true });
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Most viewed records this quarter' }).first().waitFor({ state: 'visible' });
  await pick(page, 'Downloads by month');

  // The builder is a webview: an outer iframe holding the panel's document in #active-frame.
  const panel = activeWebview(page);
  await panel.locator('#domain').waitFor({ state: 'visible', timeout: 60_000 });
  const domain = await panel.locator('#domain').inputValue();
  if (domain !== 'Downloads') throw new Error(`the builder shows domain ${domain}, expected Downloads`);
  await panel.getByText('The query is valid.').waitFor({ state: 'visible' });

  await panel.locator('#run').click();
  await panel.locator('#run-status', { hasText: 'rows fetched' }).waitFor({ state: 'visible', timeout: 60_000 });
  const status = await panel.locator('#run-status').innerText();
  if (!/^\d+ rows? fetched · all rows fetched/.test(status)) throw new Error(`unexpected run status: ${status}`);

  await panel.getByRole('tab', { name: 'Chart' }).click();
  await panel.locator('#chart-kind').selectOption('line');
  await panel.locator('canvas#chart[data-ready="true"]').waitFor({ state: 'visible', timeout: 30_000 });
  await panel.locator('canvas#chart').scrollIntoViewIfNeeded();
  await screenshot('analytics-chart-line');

  await panel.locator('#chart-kind').selectOption('bar');
  await panel.locator('canvas#chart[data-ready="true"]').waitFor({ state: 'visible', timeout: 30_000 });
  await panel.locator('canvas#chart').scrollIntoViewIfNeeded();
  await screenshot('analytics-chart-bar');

  // The chart takes its colours from the theme's variables and redraws when the theme changes.
  const before = await panel.locator('body').getAttribute('class');
  await runCommand(page, 'Preferences: Toggle between Light/Dark Themes');
  // The webview's body gets the new theme's class, and a new canvas is drawn in its colours.
  await panel.locator(`body:not([class="${before}"])`).waitFor({ state: 'attached', timeout: 30_000 });
  await panel.locator('canvas#chart[data-ready="true"]').waitFor({ state: 'visible', timeout: 30_000 });
  await panel.locator('canvas#chart').scrollIntoViewIfNeeded();
  await screenshot('analytics-chart-bar-other-theme');

  // Building in the panel edits the file: add a dimension with the picker, then look at the text.
  await panel.locator('select[aria-label="add dimension"]').selectOption('Downloads.renditionType');
  await panel.locator('.chip', { hasText: 'Downloads.renditionType' }).waitFor({ state: 'visible' });
  await panel.getByRole('button', { name: 'Edit as text' }).click();
  await page.locator('.monaco-editor .view-lines', { hasText: '"Downloads.renditionType"' }).first().waitFor({ state: 'visible', timeout: 30_000 });
  // The text editor took the builder's place.
  await page.locator('.tabs-container .tab', { hasText: 'downloads-by-month.dam-analytics.json' }).first().waitFor({ state: 'visible' });
  await page
    .waitForFunction(() => [...document.querySelectorAll('.tabs-container .tab')].filter((t) => t.textContent?.includes('downloads-by-month.dam-analytics.json')).length === 1, null, { timeout: 10_000 })
    .catch(() => {
      throw new Error('the builder tab stayed open beside the text');
    });
  await screenshot('analytics-built-text');
}
