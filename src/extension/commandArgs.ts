// What a command's arguments are depends on where it was run from: a view's title bar or an item's menu
// passes the selected tree node (and the whole selection), an editor's title bar the editor's resource and
// its group, the Explorer's context menu a URI (and the selection), a keybinding or the palette nothing,
// and programmatic callers what the command documents. Handlers read their arguments through these guards,
// so a tree node never reaches code that expected a string (issue 21: "t?.trim is not a function").
import * as vscode from 'vscode';
import type { ExplorerNode } from './explorer/nodes';

export function stringArg(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function numberArg(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function uriArg(value: unknown): vscode.Uri | undefined {
  return value instanceof vscode.Uri ? value : undefined;
}

/** `value` when it is one of `choices`. */
export function oneOf<T extends string>(value: unknown, choices: readonly T[]): T | undefined {
  return typeof value === 'string' && (choices as readonly string[]).includes(value) ? (value as T) : undefined;
}

/** A node of one of our trees: plain data with a string `kind` (tree nodes are never class instances or URIs). */
export function isTreeNode(value: unknown): value is { kind: string } {
  return typeof value === 'object' && value !== null && !(value instanceof vscode.Uri) && typeof (value as { kind?: unknown }).kind === 'string';
}

/** A DAM Explorer node (a kind and an id). */
export function explorerNodeArg(value: unknown): ExplorerNode | undefined {
  return isTreeNode(value) && typeof (value as { id?: unknown }).id === 'string' ? (value as ExplorerNode) : undefined;
}

/** The selection a tree's item menu passes second: the nodes, when it is an array of them. */
export function explorerNodesArg(value: unknown): ExplorerNode[] | undefined {
  return Array.isArray(value) && value.length > 0 && value.every((v) => explorerNodeArg(v)) ? (value as ExplorerNode[]) : undefined;
}
