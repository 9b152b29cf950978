// "Connect to a tenant": a short sequence of prompts that builds a profile and its secrets. Each prompt's
// title counts the steps truthfully: the total grows only when an answer adds steps (a tenant name asks for
// a domain too, the password flow for a user name and a password). Given earlier answers (Edit after a
// failed test, or editing a saved profile) every prompt starts from them. Back (after the first step) returns
// to the previous prompt with every answer kept.
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

function cancelled(): never {
  throw new vscode.CancellationError();
}

/** What a step gives when the user presses Back (the arrow in the title bar, or Alt+Left). */
const BACK = Symbol('back');
type Back = typeof BACK;

interface AskOptions {
  title: string;
  prompt: string;
  placeHolder?: string;
  value?: string;
  password?: boolean;
  validateInput?: (value: string) => string | undefined;
  /** Keeps what was typed when the user goes Back, so coming forward again shows it. */
  keep?: (value: string) => void;
}

/** An input box with Back after the first step; undefined when it is dismissed. Enter checks the value first. */
async function ask(options: AskOptions, back: boolean): Promise<string | Back | undefined> {
  const box = vscode.window.createInputBox();
  box.title = options.title;
  box.prompt = options.prompt;
  box.placeholder = options.placeHolder;
  box.value = options.value ?? '';
  box.password = options.password ?? false;
  box.ignoreFocusOut = true;
  box.buttons = back ? [vscode.QuickInputButtons.Back] : [];
  const check = (value: string) => (options.validateInput ? options.validateInput(value) : undefined);
  if (box.value) box.validationMessage = check(box.value);
  const answer = await new Promise<string | Back | undefined>((resolve) => {
    box.onDidChangeValue((value) => (box.validationMessage = check(value)));
    box.onDidAccept(() => {
      const problem = check(box.value);
      box.validationMessage = problem;
      if (!problem) resolve(box.value.trim());
    });
    box.onDidTriggerButton((button) => {
      if (button !== vscode.QuickInputButtons.Back) return;
      options.keep?.(box.value.trim());
      resolve(BACK);
    });
    box.onDidHide(() => resolve(undefined));
    box.show();
  });
  box.dispose();
  return answer;
}

/** A quick pick that starts on the earlier answer (`showQuickPick` cannot preselect in a single pick), with Back after the first step. */
async function choose<T extends vscode.QuickPickItem>(items: T[], options: { title: string; placeholder: string }, back: boolean, active?: (item: T) => boolean): Promise<T | Back | undefined> {
  const pick = vscode.window.createQuickPick<T>();
  pick.title = options.title;
  pick.placeholder = options.placeholder;
  pick.items = items;
  pick.ignoreFocusOut = true;
  pick.buttons = back ? [vscode.QuickInputButtons.Back] : [];
  const first = active && items.find(active);
  if (first) pick.activeItems = [first];
  const chosen = await new Promise<T | Back | undefined>((resolve) => {
    // Enter with a filter that matches nothing chooses nothing: the step stays open (it closed the whole wizard).
    pick.onDidAccept(() => {
      const item = pick.selectedItems[0] ?? pick.activeItems[0];
      if (item) resolve(item);
    });
    pick.onDidTriggerButton((button) => button === vscode.QuickInputButtons.Back && resolve(BACK));
    pick.onDidHide(() => resolve(undefined));
    pick.show();
  });
  pick.dispose();
  return chosen;
}

function validUrl(value: string): string | undefined {
  try {
    const u = new URL(value);
    return u.protocol === 'https:' || u.protocol === 'http:' ? undefined : 'Use an http or https address.';
  } catch {
    return 'Enter an address such as https://acme.example.com';
  }
}

type StepId = 'how' | 'tenant' | 'domain' | 'origin' | 'flow' | 'clientId' | 'clientSecret' | 'username' | 'password' | 'name';

/** The answers so far; going Back keeps them, so each prompt starts from what was entered. */
interface Answers {
  how?: 'tenant' | 'origin';
  tenant?: string;
  domain?: string;
  origin?: string;
  flow?: OAuthFlow;
  clientId?: string;
  clientSecret?: string;
  username?: string;
  password?: string;
  name?: string;
}

/**
 * The prompts the answers so far lead through. Their count is the title's total: it grows only when an
 * answer adds steps (a tenant name asks for a domain too, the password flow for a user name and a password);
 * until the way in is chosen the shorter path (one address) is assumed.
 */
function sequence(a: Answers): StepId[] {
  return ['how', ...(a.how === 'tenant' ? (['tenant', 'domain'] as const) : (['origin'] as const)), 'flow', 'clientId', 'clientSecret', ...(a.flow === 'password' ? (['username', 'password'] as const) : []), 'name'];
}

export async function runConnectWizard(existingIds: Set<string>, start: WizardStart = {}): Promise<WizardResult> {
  const before = start.previous?.profile;
  const kept = start.previous?.secrets ?? {};
  const wasOrigin = before ? singleOrigin(before.endpoints) : undefined;
  const wasTenant = before && !wasOrigin ? tenantOf(before.endpoints) : undefined;
  const a: Answers = {
    how: wasTenant ? 'tenant' : wasOrigin ? 'origin' : undefined,
    tenant: wasTenant?.tenant,
    domain: wasTenant?.domain ?? vscode.workspace.getConfiguration(SECTION).get<string>('tenantDomain') ?? '',
    origin: wasOrigin,
    flow: before?.flow,
    clientId: before?.clientId,
    clientSecret: start.editing ? undefined : kept.clientSecret,
    username: before?.username,
    password: start.editing ? undefined : kept.password,
    name: before?.name,
  };
  const keepHint = start.editing ? ' (leave empty to keep the stored one)' : '';
  const required = (v: string) => (v.trim() ? undefined : 'Required');

  /** Runs one prompt and stores its answer; BACK or undefined (dismissed) come back as they are. */
  const run = async (id: StepId, title: string, back: boolean): Promise<Back | undefined | true> => {
    const stored = <T>(answer: T | Back | undefined, set: (value: T) => void): Back | undefined | true => {
      if (answer === BACK) return BACK;
      if (answer === undefined) return undefined;
      set(answer as T);
      return true;
    };
    switch (id) {
      case 'how':
        return stored(
          await choose(
            [
              { label: '$(organization) Tenant name', description: 'derive the six addresses from a tenant name and domain', id: 'tenant' as const },
              { label: '$(globe) One address', description: 'every service on one origin (for example a shared emulator)', id: 'origin' as const },
            ],
            { title, placeholder: 'How do you reach the service?' },
            back,
            (i) => i.id === (a.how ?? 'tenant'),
          ),
          (i) => (a.how = i.id),
        );
      case 'tenant':
        return stored(await ask({ title, prompt: 'Tenant name', placeHolder: 'acme', value: a.tenant, validateInput: (v) => (/^[a-zA-Z0-9][a-zA-Z0-9-]*$/.test(v.trim()) ? undefined : 'Letters, digits and dashes') , keep: (v) => (a.tenant = v) }, back), (v) => (a.tenant = v));
      case 'domain':
        return stored(
          await ask(
            {
              title,
              prompt: `Domain: the content API is then https://${(a.tenant ?? '').toLowerCase()}.dam.<domain>`,
              value: a.domain,
              placeHolder: 'example.com',
              validateInput: (v) => (/^[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$/.test(v.trim()) ? undefined : 'A domain such as example.com'),
              keep: (v) => (a.domain = v),
            },
            back,
          ),
          (v) => (a.domain = v),
        );
      case 'origin':
        return stored(await ask({ title, prompt: 'Address serving every API', placeHolder: 'http://127.0.0.1:7070', value: a.origin, validateInput: (v) => validUrl(v.trim()) , keep: (v) => (a.origin = v) }, back), (v) => (a.origin = v));
      case 'flow':
        return stored(await choose(FLOW_ITEMS, { title, placeholder: 'How do you sign in?' }, back, (i) => i.flow === (a.flow ?? 'clientCredentials')), (i) => (a.flow = i.flow));
      case 'clientId':
        return stored(await ask({ title, prompt: 'Client id of the integration registration', value: a.clientId, validateInput: required , keep: (v) => (a.clientId = v) }, back), (v) => (a.clientId = v));
      case 'clientSecret':
        return stored(await ask({ title, prompt: `Client secret (kept in VS Code secret storage, never in settings)${keepHint}`, password: true, value: a.clientSecret , keep: (v) => (a.clientSecret = v) }, back), (v) => (a.clientSecret = v));
      case 'username':
        return stored(await ask({ title, prompt: 'User name', value: a.username, validateInput: required , keep: (v) => (a.username = v) }, back), (v) => (a.username = v));
      case 'password':
        return stored(await ask({ title, prompt: `Password of ${a.username ?? ''} (kept in secret storage)${keepHint}`, password: true, value: a.password , keep: (v) => (a.password = v) }, back), (v) => (a.password = v));
      case 'name': {
        const suggested = a.how === 'tenant' ? (a.tenant ?? '').toLowerCase() : safeHost(a.origin);
        return stored(await ask({ title, prompt: 'Name this connection', value: a.name ?? suggested, validateInput: required , keep: (v) => (a.name = v) }, back), (v) => (a.name = v));
      }
    }
  };

  for (let i = 0; ; ) {
    const steps = sequence(a);
    if (i >= steps.length) break;
    const outcome = await run(steps[i], `Connect to a tenant (${i + 1}/${steps.length})`, i > 0);
    if (outcome === undefined) cancelled();
    i = outcome === BACK ? Math.max(0, i - 1) : i + 1;
  }

  const endpoints: Endpoints = a.how === 'tenant' ? deriveTenantEndpoints(a.tenant!, a.domain!) : emulatorEndpoints(a.origin!);
  const flow = a.flow!;
  const secrets: ProfileSecrets = a.clientSecret || !start.editing ? { clientSecret: a.clientSecret ?? '' } : {};
  const username = flow === 'password' ? a.username : undefined;
  if (flow === 'password' && (a.password || !start.editing)) secrets.password = a.password ?? '';
  const name = a.name!;
  let id = start.editing && before ? before.id : name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'tenant';
  if (!(start.editing && before)) {
    if (before && !existingIds.has(before.id)) id = before.id;
    for (let n = 2; existingIds.has(id); n++) id = `${id.replace(/-\d+$/, '')}-${n}`;
  }
  const profile: Profile = { id, name, kind: 'tenant', endpoints, flow, clientId: a.clientId!, scope: before?.scope ?? 'api', username, redirect: before?.redirect ?? 'loopback', ...(before?.webUrl ? { webUrl: before.webUrl } : {}) };
  return { profile, secrets };
}

function safeHost(origin: string | undefined): string {
  try {
    return new URL(origin ?? '').host;
  } catch {
    return '';
  }
}
