// Query history per workspace (workspaceState): the last runs, newest first, each re-runnable as it was sent.
import type * as vscode from 'vscode';
import { upgradeRequest, type QueryRequest } from './request';

export interface HistoryEntry {
  request: QueryRequest;
  connection: string;
  at: string;
  totalCount: number | null;
  /** The file the query came from, when it came from one. */
  source?: string;
}

const KEY = 'dam.query.history';
const MAX = 50;

export class QueryHistory {
  constructor(private readonly state: vscode.Memento) {}

  list(): HistoryEntry[] {
    const value = this.state.get<unknown>(KEY);
    if (!Array.isArray(value)) return [];
    return (value as HistoryEntry[])
      .filter((e) => e && typeof e === 'object' && e.request && typeof e.request.expression === 'string')
      .map((e) => ({ ...e, request: upgradeRequest(e.request) }));
  }

  async add(entry: HistoryEntry): Promise<void> {
    const same = (e: HistoryEntry) => JSON.stringify(e.request) === JSON.stringify(entry.request) && e.connection === entry.connection;
    await this.state.update(KEY, [entry, ...this.list().filter((e) => !same(e))].slice(0, MAX));
  }

  async clear(): Promise<void> {
    await this.state.update(KEY, undefined);
  }
}
