// A person runs an emulator of their own, points DAM: Inspect Emulator at… at it, and sends a request their
// integration gets wrong (no API-Version). The request shows up in the Emulator Requests view, red, with its
// finding under it (screenshot); its details say what to send instead; Copy as curl from the row's context
// menu gives a command that, run in a shell, gets the same 400 and the same finding.
import { spawnSync } from 'node:child_process';
import { startEmulatorProcess } from '../harness.mjs';
import { activeWebview, openViewContainer, runCommand } from './workbench.mjs';

export const title = 'Emulator Requests view: a failing request shows its finding, and Copy as curl reproduces it';

export default async function run({ page, context, url: workbenchUrl, screenshot }) {
  // The user's own emulator (dist/emulator.js, an empty tenant), beside the workbench's.
  const emulator = await startEmulatorProcess();
  try {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: workbenchUrl });
    await openViewContainer(page, 'DAM');
    // The palette's input turns into the command's own input box, so wait for its prompt rather than for it to close.
    await runCommand(page, 'DAM: Inspect Emulator at', { opensInput: true });
    const input = page.locator('.quick-input-widget input');
    await page.locator('.quick-input-widget', { hasText: 'leave empty to follow the emulator started in VS Code' }).waitFor({ state: 'visible' });
    await input.fill(emulator.url);
    await page.keyboard.press('Enter');
    await page.locator('.pane-header', { hasText: 'Emulator Requests' }).first().waitFor({ state: 'visible', timeout: 30_000 });

    // The integration's request: a valid token, but no API-Version header.
    const tokenAnswer = await fetch(`${emulator.url}/login/connect/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'User-Agent': 'my-integration/2.1' },
      body: 'grant_type=client_credentials&scope=api&client_id=dam-emulator&client_secret=dam-emulator-secret',
    });
    const { access_token: token } = await tokenAnswer.json();
    const refused = await fetch(`${emulator.url}/api/core/records?pageSize=500`, {
      headers: { 'User-Agent': 'my-integration/2.1', Accept: 'application/json', Authorization: `Bearer ${token}` },
    });
    if (refused.status !== 400) throw new Error(`expected the emulator to refuse with 400, got ${refused.status}`);
    await fetch(`${emulator.url}/api/core/classifications?pageSize=5`, {
      headers: { 'User-Agent': 'my-integration/2.1', Accept: 'application/json', Authorization: `Bearer ${token}`, 'API-Version': '1' },
    });

    // Room for the view: the DAM Explorer pane folded.
    await page.locator('.pane-header', { hasText: 'DAM Explorer' }).first().click();

    const row = page.getByRole('treeitem', { name: /status 400, GET \/api\/core\/records/ });
    await row.waitFor({ state: 'visible', timeout: 30_000 });
    await row.locator('.monaco-tl-twistie').click();
    const finding = page.getByRole('treeitem', { name: /The request has no API-Version header/ });
    await finding.waitFor({ state: 'visible', timeout: 15_000 });
    const findingText = await finding.textContent();
    if (!/DE1003/.test(findingText ?? '')) throw new Error(`the finding row does not name DE1003: ${findingText}`);
    await page.getByRole('treeitem', { name: /pageSize 500 is above the cap of 100/ }).waitFor({ state: 'visible' });

    // Its details: a read-only document saying what to send instead.
    // Rendered (the Markdown preview), not as Markdown source with escape marks.
    await row.click();
    const details = activeWebview(page);
    await details.locator('h1', { hasText: '400 GET /api/core/records?pageSize=500' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    await details.locator('li', { hasText: 'Send instead: Send API-Version: 1.' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    const shown = await details.locator('body').innerText();
    if (/\\[?#_*`]|^#\s/m.test(shown)) throw new Error(`the details show Markdown marks: ${shown.slice(0, 300)}`);
    // Every refusal looks the same in the list, 401 as 400 and 404: the error icon, red.
    await fetch(`${emulator.url}/api/core/languages`, { headers: { 'User-Agent': 'my-integration/2.1', Accept: 'application/json', 'API-Version': '1' } });
    const unauthorised = page.getByRole('treeitem', { name: /status 401, GET \/api\/core\/languages/ });
    await unauthorised.waitFor({ state: 'visible', timeout: 30_000 });
    for (const r of [row, unauthorised]) {
      const cls = (await r.locator('.custom-view-tree-node-item-icon').getAttribute('class')) ?? '';
      if (!cls.includes('codicon-error')) throw new Error(`a refused request's row has the icon '${cls}', not the error icon`);
    }
    await screenshot('inspector');

    // Copy as curl from the row's context menu, run in a shell: the same refusal.
    // The menu is worked with the keyboard, as its items answer a click only after the opening mouse-up.
    // The pointer leaves the list first: the rows moved under it (the 401 came in) and a row's hover would cover this one.
    await page.mouse.move(900, 600);
    await page.locator('.context-view .monaco-hover, .workbench-hover').first().waitFor({ state: 'hidden', timeout: 5000 }).catch(() => undefined);
    await row.click({ button: 'right' });
    const items = page.locator('.context-view .action-label:not(.separator)');
    await items.first().waitFor({ state: 'visible' });
    const labels = (await items.allTextContents()).map((t) => t.trim()).filter(Boolean);
    const at = labels.indexOf('Copy as curl');
    if (at < 0) throw new Error(`no "Copy as curl" in the row's menu: ${labels.join(', ')}`);
    for (let i = 0; i <= at; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.locator('.context-view .monaco-menu').waitFor({ state: 'hidden' });
    let copied = '';
    for (let i = 0; i < 50 && !copied.startsWith('curl '); i++) {
      copied = await page.evaluate(() => globalThis.navigator.clipboard.readText()).catch(() => '');
      if (!copied.startsWith('curl ')) await page.waitForTimeout(100);
    }
    if (!copied.startsWith('curl ')) throw new Error(`the clipboard holds no curl command: ${copied.slice(0, 200)}`);
    if (copied.includes(token)) throw new Error('the copied command carries the original token');
    const shell = spawnSync('bash', ['-c', copied], { encoding: 'utf8', timeout: 30_000 });
    const statusLine = shell.stdout.split(/\r?\n/)[0];
    if (!/^HTTP\/1\.1 400 /.test(statusLine)) throw new Error(`the copied command got '${statusLine}', not 400:\n${shell.stdout}\n${shell.stderr}`);
    if (!/dam-emulator-findings: DE1003;severity=refuse/i.test(shell.stdout)) throw new Error(`the copied command's answer lacks the finding:\n${shell.stdout}`);
  } finally {
    await emulator.stop();
  }
}
