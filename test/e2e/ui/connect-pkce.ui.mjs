// A person connects to a tenant with authorization code + PKCE: the wizard in the command palette,
// the consent page in the browser, and the status bar naming the new connection afterwards.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../harness.mjs';
import { openViewContainer } from './workbench.mjs';

export const title = 'connect to a tenant with authorization code + PKCE through the browser';

/** Starts the built emulator with the empty seed on a free loopback port. */
function startEmulator() {
  const child = spawn(process.execPath, [join(PROJECT_ROOT, 'dist/emulator.js'), '--port', '0', '--data', ':memory:', '--seed', 'empty'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`emulator not ready in 60 s:\n${out}`)), 60_000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1], stop: () => child.kill('SIGTERM') });
      }
    });
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => reject(new Error(`emulator exited (${code}):\n${out}`)));
  });
}

async function pick(page, text) {
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: text }).first();
  await row.waitFor({ state: 'visible' });
  await row.click();
}

async function type(page, promptText, value) {
  const widget = page.locator('.quick-input-widget');
  await widget.locator('.quick-input-message, .quick-input-header, .quick-input-title', { hasText: promptText }).first().waitFor({ state: 'visible' });
  const input = widget.locator('input').first();
  await input.fill(value);
  await page.keyboard.press('Enter');
}

export default async function run({ page, context, screenshot }) {
  const emulator = await startEmulator();
  try {
    await openViewContainer(page, 'DAM');
    await page.getByRole('button', { name: 'Connect to a tenant' }).click();

    await pick(page, 'One address');
    await type(page, 'Address serving every API', emulator.url);
    await pick(page, 'Authorization code with PKCE');
    await type(page, 'Client id', 'dam-emulator');
    await type(page, 'Client secret', 'dam-emulator-secret');
    const consentPage = context.waitForEvent('page', { timeout: 30_000 });
    await type(page, 'Name this connection', 'PKCE emulator');

    // The extension opens the consent page in the browser; a person clicks Allow.
    const consent = await consentPage;
    await consent.waitForLoadState('domcontentloaded');
    const consentUrl = consent.url();
    await consent.locator('#allow').click();
    await consent
      .getByText('You can close this tab')
      .waitFor({ state: 'visible', timeout: 30_000 })
      .catch(async (err) => {
        throw new Error(`after Allow on ${consentUrl} the browser shows ${consent.url()}: ${(await consent.content()).slice(0, 300)}\n${err.message}`);
      });
    await consent.close();

    // Connected tenants show a cloud; connecting shows a spinner and a failure a warning sign.
    const status = page.locator('.statusbar-item', { hasText: 'DAM: PKCE emulator' }).first();
    await status.waitFor({ state: 'visible', timeout: 30_000 });
    await status.locator('.codicon-cloud').waitFor({ state: 'visible', timeout: 30_000 }).catch(async () => {
      throw new Error(`the status bar does not show a connected tenant: ${await status.innerHTML()}`);
    });
    await page.getByText('This tenant has no classifications yet').waitFor({ state: 'visible', timeout: 30_000 });
    await screenshot('connected-pkce');
  } finally {
    emulator.stop();
  }
}
