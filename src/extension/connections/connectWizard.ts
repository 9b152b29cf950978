// "Connect to a tenant": a short sequence of prompts that builds a profile and its secrets. Each prompt's
// title counts the steps truthfully: the total grows only when an answer adds steps (a tenant name asks for
// a domain too, the password flow for a user name and a password). Given earlier answers (Edit after a
// failed test, or editing a saved profile) every prompt starts from them.
import * as vscode from 'vscode';
import { deriveTenantEndpoints, emulatorEndpoints } from '../../api/endpoints';
import type { Endpoints, OAuthFlow, Profile, ProfileSecrets } from '../../api/profile';
import { SECTION } from '../commandIds';

export interface WizardResult {
  profile: Profile;
  secrets: ProfileSecrets;
}

/** What the wizard starts from: a result to change, and whether it edits a saved profile (same id, secrets kept when left empty). */
export interface WizardStart {
  previous?: WizardResult;
  editing?: boolean;
}

const FLOW_ITEMS: (vscode.QuickPickItem & { flow: OAuthFlow })[] = [
  { label: 'Client credentials', description: 'an integration registration acting on its own', flow: 'clientCredentials' },
  { label: 'Authorization code with PKCE', description: 'sign in as yourself in the browser', flow: 'authorizationCode' },
  { label: 'Resource owner password', description: 'a user name and password', flow: 'password' },
];

/** How one origin serving every address is recognised in a saved profile. */
function singleOrigin(endpoints: Endpoints): string | undefined {
  const base = endpoints.base.replace(/\/+$/, '');
  const same = emulatorEndpoints(base);
  return (Object.keys(same) as (keyof Endpoints)[]).every((k) => same[k].replace(/\/+$/, '') === endpoints[k].replace(/\/+$/, '')) ? base : undefined;
}

/** The tenant name and domain a derived profile came from, when it is one. */
function tenantOf(endpoints: Endpoints): { tenant: string; domain: string } | undefined {
  const m = /^https:\/\/([a-z0-9][a-z0-9-]*)\.dam\.(.+?)\/?$/.exec(endpoints.base);
  if (!m) return undefined;
  const derived = deriveTenantEndpoints(m[1], m[2]);
  return derived.auth === endpoints.auth ? { tenant: m[1], domain: m[2] } : undefined;
}

class Steps {
  private step = 0;

  constructor(private total: number) {}

  /** The title of the next prompt; `total` when an answer has just changed how many steps there are. */
  next(total = this.total): string {
    this.total = total;
    this.step++;
    return `Connect to a tenant (${this.step}/${this.total})`;
  }

  get current(): number {
    return this.step;
  }
}

function cancelled(): never {
  throw new vscode.CancellationError();
}

async function ask(options: vscode.InputBoxOptions): Promise<string> {
  const value = await vscode.window.showInputBox({ ignoreFocusOut: true, ...options });
  if (value === undefined) cancelled();
  return value.trim();
}

/** A quick pick that starts on the earlier answer (`showQuickPick` cannot preselect in a single pick). */
async function choose<T extends vscode.QuickPickItem>(items: T[], options: { title: string; placeholder: string }, active?: (item: T) => boolean): Promise<T> {
  const pick = vscode.window.createQuickPick<T>();
  pick.title = options.title;
  pick.placeholder = options.placeholder;
  pick.items = items;
  pick.ignoreFocusOut = true;
  const first = active && items.find(active);
  if (first) pick.activeItems = [first];
  const chosen = await new Promise<T | undefined>((resolve) => {
    // Enter with a filter that matches nothing chooses nothing: the step stays open (it closed the whole wizard).
    pick.onDidAccept(() => {
      const item = pick.selectedItems[0] ?? pick.activeItems[0];
      if (item) resolve(item);
    });
    pick.onDidHide(() => resolve(undefined));
    pick.show();
  });
  pick.dispose();
  return chosen ?? cancelled();
}

function validUrl(value: string): string | undefined {
  try {
    const u = new URL(value);
    return u.protocol === 'https:' || u.protocol === 'http:' ? undefined : 'Use an http or https address.';
  } catch {
    return 'Enter an address such as https://acme.example.com';
  }
}

/** Steps after the address: flow, client id, client secret, name; the password flow adds user name and password. */
const STEPS_AFTER_ADDRESS = 4;

export async function runConnectWizard(existingIds: Set<string>, start: WizardStart = {}): Promise<WizardResult> {
  const before = start.previous?.profile;
  const kept = start.previous?.secrets ?? {};
  const wasOrigin = before ? singleOrigin(before.endpoints) : undefined;
  const wasTenant = before && !wasOrigin ? tenantOf(before.endpoints) : undefined;
  const extra = (flow: OAuthFlow | undefined) => (flow === 'password' ? 2 : 0);
  // Until the way in is chosen the shorter path is assumed: one address, then the four steps and the name.
  const steps = new Steps(2 + STEPS_AFTER_ADDRESS + extra(before?.flow));

  const how = await choose(
    [
      { label: '$(organization) Tenant name', description: 'derive the six addresses from a tenant name and domain', id: 'tenant' },
      { label: '$(globe) One address', description: 'every service on one origin (for example a shared emulator)', id: 'origin' },
    ],
    { title: steps.next(), placeholder: 'How do you reach the service?' },
    (i) => i.id === (wasTenant ? 'tenant' : wasOrigin ? 'origin' : 'tenant'),
  );

  let endpoints: Endpoints;
  let suggestedName: string;
  if (how.id === 'tenant') {
    const total = 3 + STEPS_AFTER_ADDRESS + extra(before?.flow);
    const tenant = await ask({
      title: steps.next(total),
      prompt: 'Tenant name',
      placeHolder: 'acme',
      value: wasTenant?.tenant,
      validateInput: (v) => (/^[a-zA-Z0-9][a-zA-Z0-9-]*$/.test(v.trim()) ? undefined : 'Letters, digits and dashes'),
    });
    const domain = await ask({
      title: steps.next(),
      prompt: `Domain: the content API is then https://${tenant.toLowerCase()}.dam.<domain>`,
      value: wasTenant?.domain ?? vscode.workspace.getConfiguration(SECTION).get<string>('tenantDomain') ?? '',
      placeHolder: 'example.com',
      validateInput: (v) => (/^[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$/.test(v.trim()) ? undefined : 'A domain such as example.com'),
    });
    endpoints = deriveTenantEndpoints(tenant, domain);
    suggestedName = tenant.toLowerCase();
  } else {
    const origin = await ask({ title: steps.next(2 + STEPS_AFTER_ADDRESS + extra(before?.flow)), prompt: 'Address serving every API', placeHolder: 'http://127.0.0.1:7070', value: wasOrigin, validateInput: validUrl });
    endpoints = emulatorEndpoints(origin);
    suggestedName = new URL(origin).host;
  }

  const flowPick = await choose(FLOW_ITEMS, { title: steps.next(), placeholder: 'How do you sign in?' }, (i) => i.flow === (before?.flow ?? 'clientCredentials'));
  const flow = flowPick.flow;
  // The flow decides whether a user name and password follow: from here on the total is known.
  const total = steps.current + 3 + extra(flow);

  const clientId = await ask({ title: steps.next(total), prompt: 'Client id of the integration registration', value: before?.clientId, validateInput: (v) => (v.trim() ? undefined : 'Required') });
  const keepHint = start.editing ? ' (leave empty to keep the stored one)' : '';
  const clientSecret = await ask({ title: steps.next(), prompt: `Client secret (kept in VS Code secret storage, never in settings)${keepHint}`, password: true, value: start.editing ? undefined : kept.clientSecret });
  const secrets: ProfileSecrets = clientSecret || !start.editing ? { clientSecret } : {};
  let username: string | undefined;
  if (flow === 'password') {
    username = await ask({ title: steps.next(), prompt: 'User name', value: before?.username, validateInput: (v) => (v.trim() ? undefined : 'Required') });
    const password = await ask({ title: steps.next(), prompt: `Password of ${username} (kept in secret storage)${keepHint}`, password: true, value: start.editing ? undefined : kept.password });
    if (password || !start.editing) secrets.password = password;
  }

  const name = await ask({ title: steps.next(), prompt: 'Name this connection', value: before?.name ?? suggestedName, validateInput: (v) => (v.trim() ? undefined : 'Required') });
  let id = start.editing && before ? before.id : name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'tenant';
  if (!(start.editing && before)) {
    if (before && !existingIds.has(before.id)) id = before.id;
    for (let n = 2; existingIds.has(id); n++) id = `${id.replace(/-\d+$/, '')}-${n}`;
  }
  const profile: Profile = { id, name, kind: 'tenant', endpoints, flow, clientId, scope: before?.scope ?? 'api', username, redirect: before?.redirect ?? 'loopback', ...(before?.webUrl ? { webUrl: before.webUrl } : {}) };
  return { profile, secrets };
}
