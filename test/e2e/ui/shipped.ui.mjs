// The packaged extension as a user receives it (issue 31): its Details page (Extensions view → DAM Workbench) shows
// the icon and the user-facing README, whose images are absolute https addresses of files kept in the repository at
// those paths (offline they cannot load, so their addresses are what is checked); the Getting Started walkthrough
// opens with its media loaded from the package and the emulator step done; and `dam` in a new integrated terminal
// answers with the emulator the extension started (read from files the terminal's commands write).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../harness.mjs';
import { leaveWebviews, pick, runCommand } from './workbench.mjs';

export const title = 'shipped: Details page with icon and repository images, walkthrough with media, dam in the terminal';
export const workbench = 'emulator';

const REPOSITORY_RAW = 'https://github.com/dam-workbench/dam-workbench/raw/main/';

/** Polls `probe` until it returns a value (not undefined), or throws `what` after `timeout` ms. */
async function eventually(probe, what, timeout = 30_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(what);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** The `src` of every image in a frame whose document shows the extension's README (the Details page's webview). */
async function readmeImages(page) {
  for (const frame of page.frames()) {
    const found = await frame
      .evaluate(() => {
        const heading = [...document.querySelectorAll('h1, h2')].map((h) => h.textContent ?? '');
        if (!heading.includes('DAM Workbench') || !heading.includes('Your secrets')) return undefined;
        return [...document.images].map((img) => img.getAttribute('src') ?? '');
      })
      .catch(() => undefined);
    if (found) return found;
  }
  return undefined;
}

async function detailsPage(page, screenshot) {
  await runCommand(page, 'Extensions: Show Installed Extensions');
  const row = page.locator('.extensions-viewlet .monaco-list-row', { hasText: 'DAM Workbench' }).first();
  await row.waitFor({ state: 'visible', timeout: 30_000 });
  await row.click();
  const editor = page.locator('.extension-editor');
  await editor.waitFor({ state: 'visible', timeout: 30_000 });
  const icon = editor.locator('.header img.icon').first();
  await icon.waitFor({ state: 'visible' });
  const iconWidth = await eventually(
    () => icon.evaluate((img) => (img.complete && img.naturalWidth > 0 ? img.naturalWidth : undefined)),
    `the Details page's icon did not load (${await icon.getAttribute('src')})`,
  );
  if (iconWidth !== 128) throw new Error(`the icon is ${iconWidth} px wide, not 128`);

  const images = await eventually(() => readmeImages(page), 'the Details page does not show the README of the .vsix');
  if (images.length < 5) throw new Error(`the Details page shows ${images.length} image(s), not one per feature: ${images.join(', ')}`);
  for (const src of images) {
    if (!src.startsWith(REPOSITORY_RAW)) throw new Error(`a Details page image is not an https address in the repository: ${src}`);
    const path = src.slice(REPOSITORY_RAW.length);
    if (!existsSync(join(PROJECT_ROOT, path))) throw new Error(`a Details page image points at ${path}, which the repository does not have`);
  }
  await page.mouse.move(0, 0);
  const shot = await screenshot('details-page');
  console.log(`    Details page: icon 128 px, ${images.length} images at ${REPOSITORY_RAW}…; screenshot ${shot}`);
}

async function walkthrough(page, screenshot) {
  await runCommand(page, 'Welcome: Open Walkthrough...', { opensInput: true });
  await pick(page, 'Get Started with DAM Workbench');
  const container = page.locator('.gettingStartedContainer');
  const start = container.locator('[data-step-id$="startEmulator"]').first();
  await start.waitFor({ state: 'visible', timeout: 30_000 });
  // The step's button runs Start Local Emulator (here it finds the emulator running and signs in again), which
  // completes the step. (Its onContext event alone does not: VS Code skips a context already true when it registers.)
  await start.click();
  await container.getByRole('button', { name: 'Start Local Emulator' }).click();
  await eventually(async () => ((await start.getAttribute('aria-checked')) === 'true' ? true : undefined), 'the walkthrough\'s Start Local Emulator button did not complete its step');
  await page.locator('.statusbar-item', { hasText: 'DAM: Local emulator' }).first().waitFor({ state: 'visible', timeout: 60_000 });
  const browse = container.locator('[data-step-id$="browse"]').first();
  await browse.click();
  const image = container.locator('.getting-started-media img').first();
  await image.waitFor({ state: 'visible', timeout: 30_000 });
  const src = await image.getAttribute('src');
  await eventually(
    () => image.evaluate((img) => (img.complete && img.naturalWidth > 0 ? true : undefined)),
    `the walkthrough's screenshot did not load from the package (${src})`,
  );
  if (/^https?:\/\/github\.com/.test(src ?? '')) throw new Error(`the walkthrough's media come from the network, not the package: ${src}`);
  await screenshot('walkthrough');
}

async function damInTerminal(page, workspace, runDir) {
  const out = join(workspace, 'dam-version.txt');
  const discovered = join(workspace, 'dam-discovered.txt');
  const got = join(workspace, 'dam-get.txt');
  await leaveWebviews(page);
  await runCommand(page, 'Terminal: Create New Terminal');
  const terminal = page.locator('.terminal-wrapper.active .xterm-helper-textarea, .terminal .xterm-helper-textarea').last();
  await terminal.waitFor({ state: 'attached', timeout: 30_000 });
  await page.locator('.xterm-screen').last().click();
  // Each file is written whole when its command ends: the test reads them once the last one exists.
  const line = `dam --version > '${out}' 2>&1; env -u DAM_URL dam --version > '${discovered}' 2>&1; dam get 'classifications?pageSize=1' > '${got}.partial' 2>&1; mv '${got}.partial' '${got}'`;
  await page.keyboard.type(line);
  await page.keyboard.press('Enter');
  await eventually(async () => (existsSync(got) ? true : undefined), `dam did not run in a new terminal (${got} never appeared)`, 60_000);

  const version = readFileSync(out, 'utf8');
  const recorded = JSON.parse(readFileSync(join(runDir, 'state', 'dam-workbench', 'emulator.json'), 'utf8'));
  const expected = `service: ${recorded.url} (DAM_URL, set by VS Code for its connection 'Local emulator')`;
  if (!/^dam \S+ \(DAM Workbench\)/.test(version) || !version.includes(expected)) throw new Error(`dam --version in a new terminal did not name the emulator the extension started (${recorded.url}):\n${version}`);
  const viaStateFile = readFileSync(discovered, 'utf8');
  if (!viaStateFile.includes(`service: ${recorded.url} (the local emulator started by VS Code (pid ${recorded.pid})`)) throw new Error(`without DAM_URL, dam did not find the emulator VS Code started:\n${viaStateFile}`);
  const answer = readFileSync(got, 'utf8');
  if (!/"id"/.test(answer)) throw new Error(`dam get against the emulator answered no classification:\n${answer}`);
  console.log(`    terminal: ${version.split('\n')[1]}`);
}

export default async function run({ page, screenshot, workspace, runDir }) {
  await detailsPage(page, screenshot);
  await walkthrough(page, screenshot);
  await damInTerminal(page, workspace, runDir);
}
