// Where a record document lives in the `dam:` file system. The record's id is a folder, so the tab shows the
// title and the breadcrumbs the id; the connection comes first, so a document always names its tenant:
//   dam:/<connection id>/records/<record id>/<title>.dam-record.json
// The schema of these documents (built from the active connection's field definitions) is served at
//   dam:/schemas/record.schema.json   (package.json `jsonValidation` points `*.dam-record.json` at it, written
// `dam:///schemas/…`: VS Code refuses a jsonValidation url without `//` after its scheme, with an error notification on
// every start, while VS Code's JSON extension reads the contribution either way)
import * as vscode from 'vscode';
import { DAM_SCHEME } from '../explorer/damFs';

export const RECORD_DOC_SUFFIX = '.dam-record.json';
export const RECORD_SCHEMA_URI = vscode.Uri.from({ scheme: DAM_SCHEME, path: '/schemas/record.schema.json' });

export interface RecordDocAddress {
  connectionId: string;
  recordId: string;
}

export function recordDocUri(connectionId: string, recordId: string, title: string | null | undefined): vscode.Uri {
  const name = (title ?? '').replace(/\s+/g, ' ').replace(/[\\/:*?"<>|]/g, '_').trim().slice(0, 120) || recordId;
  return vscode.Uri.from({ scheme: DAM_SCHEME, path: `/${encodeSegment(connectionId)}/records/${recordId}/${name}${RECORD_DOC_SUFFIX}` });
}

/** The connection and record of a record document's URI; undefined for every other URI. */
export function recordDocAddress(uri: vscode.Uri): RecordDocAddress | undefined {
  if (uri.scheme !== DAM_SCHEME || !uri.path.endsWith(RECORD_DOC_SUFFIX)) return undefined;
  const parts = uri.path.split('/').filter(Boolean);
  if (parts.length !== 4 || parts[1] !== 'records') return undefined;
  return { connectionId: decodeSegment(parts[0]), recordId: parts[2] };
}

/** A record document's folder (`dam:/<connection id>/records/<record id>`). */
export function isRecordFolderUri(uri: vscode.Uri): boolean {
  if (uri.scheme !== DAM_SCHEME) return false;
  const parts = uri.path.split('/').filter(Boolean);
  return parts.length === 3 && parts[1] === 'records' && /^[0-9a-f]{32}$/.test(parts[2]);
}

export function isRecordSchemaUri(uri: vscode.Uri): boolean {
  return uri.scheme === DAM_SCHEME && uri.path === RECORD_SCHEMA_URI.path;
}

/** A GUID as people paste it: dashed or not, with or without braces; the service's form (32 hex digits) or undefined. */
export function normaliseRecordId(text: string): string | undefined {
  const hex = text.trim().replace(/^\{|\}$/g, '').replace(/-/g, '').toLowerCase();
  return /^[0-9a-f]{32}$/.test(hex) ? hex : undefined;
}

function encodeSegment(text: string): string {
  return text.replace(/[%/]/g, (c) => encodeURIComponent(c));
}

function decodeSegment(text: string): string {
  return text.replace(/%2F|%25/gi, (c) => decodeURIComponent(c));
}
