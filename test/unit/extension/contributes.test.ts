// The command map and package.json's contributions must agree, or menus and the palette break silently.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { CheckViewContext, Commands, ContextKeys, RequestViewContext, VIEW_CHECK_RESULTS, VIEW_EMULATOR_REQUESTS, VIEW_EXPLORER } from '../../../src/extension/commandIds';
import { NodeContext } from '../../../src/extension/explorer/nodes';

interface Contributes {
  commands: { command: string; title: string; category?: string }[];
  menus: Record<string, { command: string; when?: string }[]>;
  views: Record<string, { id: string }[]>;
  viewsWelcome: { view: string; contents: string; when?: string }[];
  configuration: { properties: Record<string, { default?: unknown }> };
}

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { contributes: Contributes; main: string; engines: { vscode: string } };
const c = pkg.contributes;
const ids = new Set<string>(Object.values(Commands));

describe('package.json contributions', () => {
  it('declares exactly the commands of the command map', () => {
    const declared = c.commands.map((cmd) => cmd.command).sort();
    assert.deepEqual(declared, [...ids].sort());
  });

  it('gives every command a title and the DAM category', () => {
    for (const cmd of c.commands) {
      assert.ok(cmd.title.length > 0, cmd.command);
      assert.equal(cmd.category, 'DAM', cmd.command);
    }
  });

  it('only refers to known commands in menus and welcome links', () => {
    for (const [menu, entries] of Object.entries(c.menus)) {
      for (const entry of entries) assert.ok(ids.has(entry.command), `${menu} refers to unknown ${entry.command}`);
    }
    for (const welcome of c.viewsWelcome) {
      for (const match of welcome.contents.matchAll(/\(command:([\w.]+)\)/g)) assert.ok(ids.has(match[1]), `welcome links to unknown ${match[1]}`);
    }
  });

  it('uses only context keys the extension sets in when clauses', () => {
    const known = new Set<string>([...Object.values(ContextKeys), ...Object.values(NodeContext), ...Object.values(CheckViewContext), ...Object.values(RequestViewContext)]);
    const whens = [...Object.values(c.menus).flat().map((m) => m.when), ...c.viewsWelcome.map((w) => w.when)].filter((w): w is string => !!w);
    for (const when of whens) {
      // Strip regular expressions (viewItem =~ /…/) and quoted values (webviewId == 'dam.queryResults'): they are not keys.
      for (const key of when.replace(/=~\s*\/.*?\//g, '').replace(/'[^']*'/g, '').match(/\bdam\.[\w.]+/g) ?? []) {
        if (key === VIEW_EXPLORER || key === VIEW_CHECK_RESULTS || key === VIEW_EMULATOR_REQUESTS) continue;
        assert.ok(known.has(key), `unknown context key ${key} in "${when}"`);
      }
    }
  });

  it('gives every tree-item context value a menu entry', () => {
    const whens = (c.menus['view/item/context'] ?? []).map((m) => m.when ?? '');
    for (const value of Object.values(NodeContext)) {
      if (value === NodeContext.message) continue; // informational rows have no actions
      const matched = whens.some((w) => w.includes(`viewItem == ${value}`) || [...w.matchAll(/viewItem =~ \/(.*?)\//g)].some((m) => new RegExp(m[1]).test(value)));
      assert.ok(matched, `no context menu for ${value}`);
    }
  });

  it('offers the two first steps in the explorer welcome view', () => {
    const welcome = c.viewsWelcome.find((w) => w.view === VIEW_EXPLORER && w.when?.includes('!='));
    assert.ok(welcome, 'a welcome view for the disconnected state');
    assert.match(welcome.contents, /\[Start local emulator\]\(command:dam\.startEmulator\)/);
    assert.match(welcome.contents, /\[Connect to a tenant\]\(command:dam\.addConnection\)/);
    assert.ok(Object.values(c.views).flat().some((v) => v.id === VIEW_EXPLORER));
  });

  it('keeps the Check Results view folded until results are shown: its welcome text must not take half the side bar', () => {
    const view = Object.values(c.views).flat().find((v) => v.id === VIEW_CHECK_RESULTS) as { id: string; visibility?: string } | undefined;
    assert.equal(view?.visibility, 'collapsed');
  });

  it('never declares a setting that could hold a secret', () => {
    for (const key of Object.keys(c.configuration.properties)) assert.doesNotMatch(key, /secret|password|token/i);
  });

  it('targets a VS Code no newer than the test harness (1.139)', () => {
    const [major, minor] = pkg.engines.vscode.replace(/^\^/, '').split('.').map(Number);
    assert.ok(major === 1 && minor <= 139, pkg.engines.vscode);
  });
});
