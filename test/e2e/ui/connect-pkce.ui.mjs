// A person connects to a tenant with authorization code + PKCE: the wizard in the command palette,
// the consent page in the browser, and the status bar naming the new connection afterwards.
import { EMULATOR_CLIENT } from '../../../src/core/contract/index.ts';
import { startEmulatorProcess } from '../harness.mjs';
import { answer, openViewContainer, pick } from './workbench.mjs';

export const title = 'connect to a tenant with authorization code + PKCE through the browser';

export default async function run({ page, context, screenshot }) {
  const emulator = await startEmulatorProcess();
  try {
    await openViewContainer(page, 'DAM');
    await page.getByRole('button', { name: 'Connect to a tenant' }).click();

    await pick(page, 'One address');
    await answer(page, 'Address serving every API', emulator.url);
    await pick(page, 'Authorization code with PKCE');
    await answer(page, 'Client id', EMULATOR_CLIENT.clientId);
    await answer(page, 'Client secret', EMULATOR_CLIENT.clientSecret);
    const consentPage = context.waitForEvent('page', { timeout: 30_000 });
    await answer(page, 'Name this connection', 'PKCE emulator');

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
    await emulator.stop();
  }
}
