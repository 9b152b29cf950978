// The status-bar entry that names the active connection and switches it on click.
import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import type { ConnectionState } from './connectionManager';
import { FLOW_NAMES } from './failure';

export class ConnectionStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private state: ConnectionState = { kind: 'none' };
  /** The local emulator is on its way up (before its connection begins, the state alone would say "not connected"). */
  private emulatorStarting = false;

  constructor() {
    this.item = vscode.window.createStatusBarItem('dam.connection', vscode.StatusBarAlignment.Left, 50);
    this.item.name = 'DAM Connection';
    this.item.command = Commands.switchConnection;
    this.update({ kind: 'none' });
    this.item.show();
  }

  setEmulatorStarting(starting: boolean): void {
    this.emulatorStarting = starting;
    this.update(this.state);
  }

  update(state: ConnectionState): void {
    this.show(state);
    // A screen reader reads a sentence, not the icon's name and the tooltip's Markdown.
    const text = this.item.text.replace(/\$\([^)]*\)\s*/g, '');
    const plain = typeof this.item.tooltip === 'string' ? this.item.tooltip : (this.item.tooltip?.value ?? '').replace(/[*`\\]/g, '');
    this.item.accessibilityInformation = { label: `${text}. ${plain.replace(/\s*\n+\s*/g, ' ')}`, role: 'button' };
  }

  private show(state: ConnectionState): void {
    this.state = state;
    const item = this.item;
    item.backgroundColor = undefined;
    if (this.emulatorStarting && state.kind !== 'connected' && state.kind !== 'connecting') {
      item.text = '$(sync~spin) DAM: starting the local emulator…';
      item.tooltip = 'The local emulator is starting; its first start loads the demo tenant.';
      return;
    }
    switch (state.kind) {
      case 'none':
        item.text = '$(plug) DAM: not connected';
        item.tooltip = 'Connect to a DAM tenant or start the local emulator';
        break;
      case 'connecting':
        item.text = `$(sync~spin) DAM: ${state.profile.name}`;
        item.tooltip = `Connecting to ${state.profile.name}…`;
        break;
      case 'connected': {
        const icon = state.profile.kind === 'emulator' ? '$(server-process)' : '$(cloud)';
        item.text = `${icon} DAM: ${state.profile.name}`;
        const tip = new vscode.MarkdownString(undefined, true);
        tip.appendMarkdown(`**${escapeMd(state.profile.name)}**, signed in with ${FLOW_NAMES[state.profile.flow]}\n\n`);
        tip.appendMarkdown(`Content API: \`${state.profile.endpoints.core}\`\n\n`);
        tip.appendMarkdown('Click to switch connection.');
        item.tooltip = tip;
        break;
      }
      case 'error':
        if (state.reason === 'emulatorStopped') {
          item.text = `$(debug-stop) DAM: ${state.profile.name} stopped`;
          item.tooltip = `${state.message}\nClick to start it again or switch connection.`;
        } else {
          item.text = `$(warning) DAM: ${state.profile.name}`;
          item.tooltip = `Not connected: ${state.message}\nClick to switch or sign in again.`;
        }
        item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
        break;
    }
  }

  dispose(): void {
    this.item.dispose();
  }
}

function escapeMd(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}
