// One validation, one verdict (issue 21, item 5): every ready-made analytics query opens in the builder as
// valid and, as text, shows no error in the editor either (the JSON schema refused "Downloads by month" at
// line 13 while the builder said it was valid). "The query is valid." reads in full contrast (item 10).
/* global getComputedStyle */
import { activeWebview, pick, runCommand } from './workbench.mjs';

export const title = 'analytics templates: valid in the builder and in the text editor, the verdict readable';
export const workbench = 'emulator';

const TEMPLATES = ['Most viewed records this quarter', 'Downloads by month', 'Records never downloaded', 'Views by collection'];

/** WCAG contrast ratio of an element's text colour against the page background. */
async function contrastOf(locator) {
  return locator.evaluate((el) => {
    const rgb = (css) => css.match(/[\d.]+/g).slice(0, 3).map(Number);
    const lum = ([r, g, b]) => {
      const c = [r, g, b].map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
    };
    const fg = lum(rgb(getComputedStyle(el).color));
    const bg = lum(rgb(getComputedStyle(document.body).backgroundColor));
    return (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
  });
}

// JSON schema violations are warnings in VS Code (syntax errors are errors): either is a verdict against the query.
const PROBLEM_MARKS = '.part.editor .editor-instance .monaco-editor :is(.squiggly-error, .squiggly-warning)';
const problemMarks = (page) => page.locator(PROBLEM_MARKS);

async function openAsText(page, template) {
  await runCommand(page, 'DAM: New Analytics Query', { opensInput: true });
  await pick(page, template);
  const panel = activeWebview(page);
  const verdict = panel.locator('p.ok');
  await verdict.waitFor({ state: 'visible', timeout: 60_000 });
  const text = (await verdict.innerText()).trim();
  if (!/The query is valid\.$/.test(text)) throw new Error(`the builder says: ${text}`);
  const ratio = await contrastOf(verdict);
  if (ratio < 4.5) throw new Error(`"${text}" has a contrast of ${ratio.toFixed(2)}:1 against the background (at least 4.5:1 is needed)`);
  await panel.getByRole('button', { name: 'Edit as text' }).click();
  await page.locator('.part.editor .monaco-editor .view-lines', { hasText: '"measures"' }).first().waitFor({ state: 'visible', timeout: 30_000 });
}

export default async function run({ page, screenshot }) {
  // The editor's JSON validation is live: an attribute the schema does not know is marked, and undoing it clears the mark.
  await openAsText(page, TEMPLATES[0]);
  await page.locator('.part.editor .monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('"notAnAttribute": 1,');
  await problemMarks(page).first().waitFor({ state: 'visible', timeout: 30_000 });
  const started = Date.now();
  await page.keyboard.press('Control+Z');
  await page.keyboard.press('Control+Z');
  await page.waitForFunction((selector) => document.querySelectorAll(selector).length === 0, PROBLEM_MARKS, { timeout: 30_000 });
  // How long the validator took to answer an edit: each template below gets at least twice that to show an error.
  const settle = Math.max(3000, 2 * (Date.now() - started));
  await runCommand(page, 'View: Revert and Close Editor');

  for (const template of TEMPLATES) {
    await openAsText(page, template);
    await page.waitForTimeout(settle);
    const marks = await problemMarks(page).count();
    if (marks > 0) {
      await screenshot('analytics-template-error');
      const problems = await page.locator('.part.editor .editor-instance .monaco-editor .view-lines').first().innerText();
      throw new Error(`"${template}" shows ${marks} problem mark(s) in the text editor although the builder calls it valid:\n${problems}`);
    }
    await runCommand(page, 'View: Revert and Close Editor');
  }
}
