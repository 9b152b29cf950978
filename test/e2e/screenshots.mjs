// README's screenshots, taken from the packaged extension as a user installs it, in code-server with the light
// theme and the local emulator's demo tenant: `npm run screenshots` writes media/screenshots/*.png (cropped to
// what each shows). DAM_E2E_VSIX=file uses that .vsix instead of packaging one; DAM_SCREENSHOTS=record,explorer
// takes only those (explorer, query-results, analytics, task-form, record).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PROJECT_ROOT, installVsix, packageExtension, startWorkbench, withTimeout } from './harness.mjs';
import { activeWebview, connectToLocalEmulator, contextMenu, expand, findInDam, openFile, pick, rowAt, runCommand, treeRows } from './ui/workbench.mjs';

const OUT = join(PROJECT_ROOT, 'media', 'screenshots');
const WORK = join(PROJECT_ROOT, 'out', 'e2e', `screenshots-${process.pid}`);

/** Saves the part of the page inside `box` (page pixels) as media/screenshots/<name>.png. */
async function shot(page, name, box) {
  const file = join(OUT, `${name}.png`);
  await page.screenshot({ path: file, clip: box });
  console.log(`  ${name}.png (${box.width}×${box.height})`);
}

async function boxOf(locator) {
  const b = await locator.boundingBox();
  if (!b) throw new Error('nothing to crop');
  return { x: Math.floor(b.x), y: Math.floor(b.y), width: Math.ceil(b.width), height: Math.ceil(b.height) };
}

/** The editor area, down to `height` pixels. */
async function editorArea(page, height) {
  const editor = await boxOf(page.locator('.part.editor'));
  return { ...editor, height: Math.min(height, editor.height) };
}

async function explorer(page) {
  // A document with check results: its versions, the results with their badges and findings.
  await findInDam(page, 'Misty beach press release 111');
  let rows = await treeRows(page);
  const record = rows.find((r) => r.label.startsWith('Misty beach press release'));
  await expand(page, rowAt(page, record.index));
  rows = await treeRows(page);
  await expand(page, rowAt(page, rows.find((r) => r.label === 'Master file').index));
  rows = await treeRows(page);
  const version = rows.find((r) => /latest/.test(r.aria));
  await expand(page, rowAt(page, version.index));
  await contextMenu(page, rowAt(page, version.index), 'Show Check Results');
  const checks = page.locator('.part.sidebar .pane', { has: page.locator('.pane-header', { hasText: 'Check Results' }) }).first();
  await checks.locator('[role="treeitem"]').first().waitFor({ state: 'visible', timeout: 30_000 });
  await page.mouse.move(0, 0);
  await page.waitForTimeout(500);
  const side = await boxOf(page.locator('.part.sidebar'));
  await shot(page, 'explorer', { x: 0, y: 0, width: side.x + side.width, height: side.y + side.height });
}

async function query(page, workspace) {
  writeFileSync(
    join(workspace, 'campaign.dam-query'),
    ['### Harbour images', '# @name Harbour images, newest first', '# @sort ModifiedOn desc', 'ContentType = Image AND Title contains harbour', '', '### Drafts', '# @name Drafts of the kitchen range', "ContentStatus = Draft AND Classification = 'Kitchen'", ''].join('\n'),
  );
  await openFile(page, join(workspace, 'campaign.dam-query'));
  await page.locator('.codelens-decoration a', { hasText: 'Run' }).first().click();
  const results = activeWebview(page);
  await results.locator('.stats', { hasText: 'loaded' }).waitFor({ state: 'visible', timeout: 60_000 });
  await results.locator('.cell.thumb img').first().waitFor({ state: 'visible', timeout: 30_000 }).catch(() => undefined);
  await results.locator('[role="gridcell"][data-row="2"][data-col="1"]').click();
  await page.waitForTimeout(500);
  await shot(page, 'query-results', await editorArea(page, 600));
}

async function analytics(page) {
  await runCommand(page, 'DAM: New Analytics Query', { opensInput: true });
  await pick(page, 'Downloads by month');
  const panel = activeWebview(page);
  await panel.locator('#run').click();
  await panel.locator('#run-status', { hasText: 'rows fetched' }).waitFor({ state: 'visible', timeout: 60_000 });
  await panel.getByRole('tab', { name: 'Chart' }).click();
  await panel.locator('canvas#chart[data-ready="true"]').waitFor({ state: 'visible', timeout: 30_000 });
  // Scrolled to the end, so the chart shows whole with the builder's last sections above it.
  await panel.locator('canvas#chart').evaluate((el) => el.closest('.results')?.scrollIntoView({ block: 'end' }));
  await page.waitForTimeout(500);
  await shot(page, 'analytics', await editorArea(page, 760));
}

async function taskForm(page) {
  await runCommand(page, 'DAM: New Task');
  const form = activeWebview(page);
  await form.locator('#projectId').waitFor({ state: 'visible', timeout: 60_000 });
  await form.locator('#name').fill('Banner copy review');
  await form.locator('#status').selectOption({ label: 'Projected' });
  await form.locator('#startType').selectOption({ label: 'Start no earlier than' });
  await form.locator('#beginDate').fill('2026-12-07T09:00');
  await form.locator('#endDate').fill('2026-12-03T17:00');
  await form.locator('#endDate').blur();
  await form.locator('#err-endDate').filter({ hasText: /\S/ }).waitFor({ state: 'visible', timeout: 15_000 });
  const editor = await boxOf(page.locator('.part.editor'));
  await shot(page, 'task-form', { x: editor.x, y: editor.y, width: Math.min(editor.width, 760), height: Math.min(editor.height, 560) });
}

async function record(page) {
  // A record open as a document: fields by name, classifications by path, the read-only section below; no problems.
  await findInDam(page, 'Misty beach press release 111');
  const rows = await treeRows(page);
  await contextMenu(page, rowAt(page, rows.find((r) => r.label.startsWith('Misty beach press release')).index), 'Open Record');
  await page.locator('.part.editor .view-lines', { hasText: '"UsageRights"' }).first().waitFor({ state: 'visible', timeout: 60_000 });
  await shot(page, 'record', await editorArea(page, 640));
}

async function main() {
  mkdirSync(OUT, { recursive: true });
  const vsix = process.env.DAM_E2E_VSIX ? resolve(process.env.DAM_E2E_VSIX) : await packageExtension(join(WORK, 'dam-workbench.vsix'));
  const extensionsDir = join(WORK, 'extensions');
  await installVsix(vsix, extensionsDir);
  const wb = await startWorkbench({ extensionsDir, settings: { 'workbench.colorTheme': 'Default Light Modern', 'editor.minimap.enabled': false } });
  try {
    const { page, workspace } = wb;
    await page.setViewportSize({ width: 1280, height: 800 });
    await withTimeout(connectToLocalEmulator(page), 180_000, 'starting the emulator');
    console.log(`screenshots into ${OUT}:`);
    const only = process.env.DAM_SCREENSHOTS?.split(',').map((s) => s.trim());
    const wanted = (name) => !only || only.includes(name);
    if (wanted('explorer')) await explorer(page);
    if (wanted('query-results')) {
      await query(page, workspace);
      await runCommand(page, 'View: Close All Editors');
    }
    if (wanted('analytics')) {
      await analytics(page);
      await runCommand(page, 'View: Revert and Close Editor');
    }
    if (wanted('task-form')) {
      await taskForm(page);
      await runCommand(page, 'View: Close All Editors');
    }
    if (wanted('record')) await record(page);
  } finally {
    await wb.stop();
    rmSync(WORK, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error.stack ?? error);
  process.exitCode = 1;
});
