// The status-bar entry that names the active connection and switches it on click.
import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import type { ConnectionState } from './connectionManager';

export class ConnectionStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;

  constructor() {
    this.item = vscode.window.createStatusBarItem('dam.connection', vscode.StatusBarAlignment.Left, 50);
    this.item.name = 'DAM Connection';
    this.item.command = Commands.switchConnection;
    this.update({ kind: 'none' });
    this.item.show();
  }

  update(state: ConnectionState): void {
    const item = this.item;
    item.backgroundColor = undefined;
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
        tip.appendMarkdown(`**${escapeMd(state.profile.name)}** (${state.profile.flow})\n\n`);
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
