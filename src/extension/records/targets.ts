// The records a command acts on, from wherever it was run: a tree row (and the selection), a query-results row, an
// id, or the record document in the active editor. Light (no client, no core), so the main bundle reads arguments
// without loading record editing.
import * as vscode from 'vscode';
import { explorerNodeArg, explorerNodesArg, stringArg } from '../commandArgs';
import type { ExplorerNode } from '../explorer/nodes';
import type { RecordRow } from '../explorer/recordPages';
import { normaliseRecordId, recordDocAddress } from './recordUris';

type RecordNode = Extract<ExplorerNode, { kind: 'record' }>;

/** A record a command acts on: its row when it came from the tree, and the classification row it sits under. */
export interface RecordTarget {
  id: string;
  title: string;
  status?: string | null;
  row?: RecordRow;
  /** The classification whose row the record was under (not a search result). */
  classificationId?: string;
}

export function targetOf(node: RecordNode): RecordTarget {
  const parent = node.parentKey.startsWith('cls:') ? node.parentKey.slice(4) : undefined;
  return { id: node.id, title: node.record.title || node.id, status: node.record.status, row: node.record, classificationId: parent };
}

/**
 * The records named by a command's arguments: the selection when the clicked row is in it, else the clicked row; a
 * query-results row (`{ resultId }`); an id; else the record document in the active editor. Empty when none.
 */
export function targetsOfArgs(first: unknown, second: unknown): RecordTarget[] | string[] {
  const node = explorerNodeArg(first);
  const selected = explorerNodesArg(second);
  if (node?.kind === 'record') {
    const nodes = selected?.some((n) => n.id === node.id) ? selected : [node];
    return nodes.filter((n): n is RecordNode => n.kind === 'record').map(targetOf);
  }
  const id = stringArg(first) ?? stringArg((first as { resultId?: unknown } | undefined)?.resultId);
  if (id) return [normaliseRecordId(id) ?? id];
  const uri = vscode.window.activeTextEditor?.document.uri;
  const address = uri && recordDocAddress(uri);
  return address ? [address.recordId] : [];
}
