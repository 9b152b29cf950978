// The kinds of node in the DAM Explorer, as plain data; the provider turns them into tree items.
import type { AdditionalFile, DamFile, FileVersion } from '../../api/files';
import { diagnoseExpression, quoteString } from '../../core/search';
import type { ConnectionState } from '../connections/connectionManager';
import type { Classification, DamRecord } from '../../api/schemas';
import type { RecordRow } from './recordPages';

/** A check outcome as the spec names them. */
export type Outcome = 'pass' | 'fail' | 'warning' | 'info';

/** A finding as the tree shows it (read loosely: the service's full shape is not specified). */
export interface FindingView {
  occurrence: number;
  finding: string;
  explanation?: string;
  recommendation?: string;
  outcome: Outcome | undefined;
}

/** A check result with its findings, read together so the badge can be rolled up at once. */
export interface CheckResultView {
  id: string;
  checkId: string;
  checkName: string | undefined;
  outcome: Outcome | null;
  description: string;
  createdOn: string | undefined;
  findings: FindingView[];
  href: string | undefined;
}

export type ExplorerNode =
  | { kind: 'classification'; id: string; parentKey: string | undefined; classification: Classification }
  | { kind: 'record'; id: string; parentKey: string; record: RecordRow }
  | { kind: 'file'; id: string; parentKey: string; recordId: string; file: DamFile; index: number }
  | { kind: 'version'; id: string; parentKey: string; recordId: string; version: FileVersion; latest: boolean }
  | { kind: 'rendition'; id: string; parentKey: string; versionId: string; rendition: AdditionalFile }
  | { kind: 'checkResult'; id: string; parentKey: string; versionId: string; result: CheckResultView }
  | { kind: 'finding'; id: string; parentKey: string; finding: FindingView }
  | { kind: 'loadMore'; id: string; parentKey: string; classificationId: string; shown: number; total: number | undefined }
  | { kind: 'message'; id: string; parentKey: string | undefined; text: string; detail?: string; severity: 'error' | 'info'; action?: 'retry' | 'signIn'; retryKey?: string }
  | { kind: 'results'; id: string; parentKey: undefined; query: string; hits: DamRecord[]; total: number | undefined };

/** The stable key of a node: VS Code keeps expansion across refreshes for items with the same id. */
export function keyOf(node: ExplorerNode): string {
  switch (node.kind) {
    case 'classification':
      return `cls:${node.id}`;
    case 'record':
      return `rec:${node.parentKey}:${node.id}`;
    case 'file':
      return `file:${node.parentKey}:${node.id}`;
    case 'version':
      return `ver:${node.parentKey}:${node.id}`;
    case 'rendition':
      return `rend:${node.parentKey}:${node.id}`;
    case 'checkResult':
      return `chk:${node.parentKey}:${node.id}`;
    case 'finding':
      return `fnd:${node.parentKey}:${node.id}`;
    case 'loadMore':
      return `more:${node.classificationId}`;
    case 'message':
      return `msg:${node.parentKey ?? 'root'}:${node.id}`;
    case 'results':
      return `results:${node.id}`;
  }
}

/** `contextValue` per node kind: package.json menus match on these. */
export const NodeContext = {
  classification: 'dam.classification',
  record: 'dam.record',
  file: 'dam.file',
  version: 'dam.version',
  versionImage: 'dam.version.image',
  rendition: 'dam.rendition',
  renditionImage: 'dam.rendition.image',
  checkResult: 'dam.checkResult',
  finding: 'dam.finding',
  loadMore: 'dam.loadMore',
  message: 'dam.message',
  messageRetry: 'dam.message.retry',
  results: 'dam.results',
} as const;

export function classificationLabel(c: Classification): string {
  const label = c.labels?.find((l) => l.value)?.value;
  return label || c.name || c.identifier || c.id;
}

export function recordLabel(r: Pick<RecordRow, 'id' | 'title'>): string {
  return r.title || r.id;
}

/**
 * The words of a search that is only words (no operator, quote, parenthesis, wildcard or placeholder), or
 * undefined: such a search is ranked by relevance, and a record titled exactly so comes first. An apostrophe
 * inside or at the end of a word (`children's`, `students'`) is part of the word, not the start of a string.
 */
export function plainWords(query: string): string | undefined {
  const text = query.trim().replace(/\s+/g, ' ');
  const withoutApostrophes = text.replace(/(?<=[\p{L}\p{N}])['’]/gu, '');
  if (!text || /[=<>()"'*?@\\+]/.test(withoutApostrophes) || /(^|\s)-/.test(text)) return undefined;
  if (/(^|\s)(and|or|not|in|contains)(\s|$)/i.test(text)) return undefined;
  return text;
}

/**
 * Plain words as a search expression the service parses as those words: a word of letters and digits goes
 * bare, any other (`children's`, `e-mail`) in double quotes, escaped, so it is one full-text term.
 */
export function wordsExpression(words: string): string {
  return words
    .split(' ')
    .filter(Boolean)
    .map((w) => (/^[\p{L}\p{N}]+$/u.test(w) ? w : quoteString(w, '"')))
    .join(' ');
}

/**
 * A reason that points "here" (written for an editor, where a squiggle shows where) said where in a one-line
 * input: the character and the text from there, found by the same parser. Other reasons come back as they are.
 */
export function sayWhere(reason: string, text: string): string {
  if (!/\bhere\b/.test(reason)) return reason;
  const error = diagnoseExpression(text).diagnostics.find((d) => d.severity === 'error');
  if (!error) return reason.replace(/\s*\bhere\b/, '');
  const at = error.range.start;
  const rest = text.slice(at);
  const shown = rest.length > 24 ? `${rest.slice(0, 24)}…` : rest;
  return reason.replace(/\bhere\b/, rest ? `at character ${at + 1} (${shown})` : 'at the end');
}

/**
 * Where Open in Web UI goes: the profile's web address, else a tenant's base address, each with
 * `/record/{id}` or `/classification/{id}`; an emulator serves such pages under `/web` (no token needed).
 */
export function webUiAddress(
  profile: { kind: 'emulator' | 'tenant'; webUrl?: string; endpoints: { base: string } },
  kind: 'record' | 'classification',
  id: string,
): string | undefined {
  const base = profile.endpoints.base.replace(/\/+$/, '');
  const web = (profile.webUrl ?? (profile.kind === 'tenant' ? base : `${base}/web`))?.replace(/\/+$/, '');
  return web ? `${web}/${kind}/${encodeURIComponent(id)}` : undefined;
}

/** In the explorer's header: which connection is signed out or failed (the welcome's buttons offer Sign In Again). */
export function connectionMessage(state: ConnectionState): string | undefined {
  if (state.kind !== 'error') return undefined;
  const name = `“${state.profile.name}”`;
  return state.message === 'signed out' ? `Signed out of ${name}.` : `Not signed in to ${name}: ${state.message}`;
}

/** A rendition's file name: its name, with its format as the extension when the name has none (`thumbnail.png`). */
export function renditionFileName(a: Pick<AdditionalFile, 'name' | 'preset' | 'format' | 'id'>): string {
  const name = a.name || a.preset || 'rendition';
  return /\.\w{2,5}$/.test(name) || !a.format ? name : `${name}.${a.format.replace(/^\./, '')}`;
}
