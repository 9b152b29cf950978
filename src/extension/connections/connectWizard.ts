// "Connect to a tenant": a short sequence of prompts that builds a profile and its secrets.
import * as vscode from 'vscode';
import { deriveTenantEndpoints, emulatorEndpoints } from '../../api/endpoints';
import type { Endpoints, OAuthFlow, Profile, ProfileSecrets } from '../../api/profile';
import { SECTION } from '../commandIds';

export interface WizardResult {
  profile: Profile;
  secrets: ProfileSecrets;
}

const FLOW_ITEMS: (vscode.QuickPickItem & { flow: OAuthFlow })[] = [
  { label: 'Client credentials', description: 'an integration registration acting on its own', flow: 'clientCredentials' },
  { label: 'Authorization code with PKCE', description: 'sign in as yourself in the browser', flow: 'authorizationCode' },
  { label: 'Resource owner password', description: 'a user name and password', flow: 'password' },
];

function cancelled(): never {
  throw new vscode.CancellationError();
}

async function ask(options: vscode.InputBoxOptions): Promise<string> {
  const value = await vscode.window.showInputBox({ ignoreFocusOut: true, ...options });
  if (value === undefined) cancelled();
  return value.trim();
}

function validUrl(value: string): string | undefined {
  try {
    const u = new URL(value);
    return u.protocol === 'https:' || u.protocol === 'http:' ? undefined : 'Use an http or https address.';
  } catch {
    return 'Enter an address such as https://acme.example.com';
  }
}

export async function runConnectWizard(existingIds: Set<string>): Promise<WizardResult> {
  const how = await vscode.window.showQuickPick(
    [
      { label: '$(organization) Tenant name', description: 'derive the six addresses from a tenant name and domain', id: 'tenant' },
      { label: '$(globe) One address', description: 'every service on one origin (for example a shared emulator)', id: 'origin' },
    ],
    { title: 'Connect to a tenant (1/4)', placeHolder: 'How do you reach the service?', ignoreFocusOut: true },
  );
  if (!how) cancelled();

  let endpoints: Endpoints;
  let suggestedName: string;
  if (how.id === 'tenant') {
    const tenant = await ask({
      title: 'Connect to a tenant (2/4)',
      prompt: 'Tenant name',
      placeHolder: 'acme',
      validateInput: (v) => (/^[a-zA-Z0-9][a-zA-Z0-9-]*$/.test(v.trim()) ? undefined : 'Letters, digits and dashes'),
    });
    const domain = await ask({
      title: 'Connect to a tenant (2/4)',
      prompt: `Domain: the content API is then https://${tenant.toLowerCase()}.dam.<domain>`,
      value: vscode.workspace.getConfiguration(SECTION).get<string>('tenantDomain') ?? '',
      placeHolder: 'example.com',
      validateInput: (v) => (/^[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$/.test(v.trim()) ? undefined : 'A domain such as example.com'),
    });
    endpoints = deriveTenantEndpoints(tenant, domain);
    suggestedName = tenant.toLowerCase();
  } else {
    const origin = await ask({ title: 'Connect to a tenant (2/4)', prompt: 'Address serving every API', placeHolder: 'http://127.0.0.1:7070', validateInput: validUrl });
    endpoints = emulatorEndpoints(origin);
    suggestedName = new URL(origin).host;
  }

  const flowPick = await vscode.window.showQuickPick(FLOW_ITEMS, { title: 'Connect to a tenant (3/4)', placeHolder: 'How do you sign in?', ignoreFocusOut: true });
  if (!flowPick) cancelled();
  const flow = flowPick.flow;

  const clientId = await ask({ title: 'Connect to a tenant (4/4)', prompt: 'Client id of the integration registration', validateInput: (v) => (v.trim() ? undefined : 'Required') });
  const clientSecret = await ask({ title: 'Connect to a tenant (4/4)', prompt: 'Client secret (kept in VS Code secret storage, never in settings)', password: true });
  const secrets: ProfileSecrets = { clientSecret };
  let username: string | undefined;
  if (flow === 'password') {
    username = await ask({ title: 'Connect to a tenant (4/4)', prompt: 'User name', validateInput: (v) => (v.trim() ? undefined : 'Required') });
    secrets.password = await ask({ title: 'Connect to a tenant (4/4)', prompt: `Password of ${username} (kept in secret storage)`, password: true });
  }

  const name = await ask({ title: 'Name this connection', value: suggestedName, validateInput: (v) => (v.trim() ? undefined : 'Required') });
  let id = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'tenant';
  for (let n = 2; existingIds.has(id); n++) id = `${id.replace(/-\d+$/, '')}-${n}`;
  const profile: Profile = { id, name, kind: 'tenant', endpoints, flow, clientId, scope: 'api', username, redirect: 'loopback' };
  return { profile, secrets };
}
