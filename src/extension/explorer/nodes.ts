// The kinds of node in the DAM Explorer, as plain data; the provider turns them into tree items.
import type { AdditionalFile, DamFile, FileVersion } from '../../api/files';
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
 * undefined: such a search is ranked by relevance, and a record titled exactly so comes first.
 */
export function plainWords(query: string): string | undefined {
  const text = query.trim().replace(/\s+/g, ' ');
  if (!text || /[=<>()"'*?@\\+]/.test(text) || /(^|\s)-/.test(text)) return undefined;
  if (/(^|\s)(and|or|not|in|contains)(\s|$)/i.test(text)) return undefined;
  return text;
}

/** A rendition's file name: its name, with its format as the extension when the name has none (`thumbnail.png`). */
export function renditionFileName(a: Pick<AdditionalFile, 'name' | 'preset' | 'format' | 'id'>): string {
  const name = a.name || a.preset || 'rendition';
  return /\.\w{2,5}$/.test(name) || !a.format ? name : `${name}.${a.format.replace(/^\./, '')}`;
}
