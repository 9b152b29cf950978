// Query history per workspace (workspaceState): the last runs, newest first, each re-runnable as it was sent.
import type * as vscode from 'vscode';
import { valuesUsedIn } from '../../core/search';
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
  /** The values of the history's queries, read once per change of the history. */
  private values: Map<string, string[]> | undefined;

  constructor(private readonly state: vscode.Memento) {}

  /** What each property was compared with in the queries run here, newest first: completion's recent values. */
  recentValues(): ReadonlyMap<string, readonly string[]> {
    this.values ??= valuesUsedIn(this.list().map((e) => e.request.expression));
    return this.values;
  }

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
    this.values = undefined;
  }

  async clear(): Promise<void> {
    await this.state.update(KEY, undefined);
    this.values = undefined;
  }
}
