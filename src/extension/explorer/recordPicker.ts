// A record chosen by what a person knows of it: words of its title, searched as they are typed, the hits listed by
// title with their status and date. Commands run from the palette asked for a "Record id" that a new user has
// no way to know. An id pasted in (a GUID, with or without dashes) is still taken as it is.
import * as vscode from 'vscode';
import type { DamClient } from '../../api/client';
import { isGuid } from '../../core/search';
import { readableTime } from '../dates';
import { plainWords, wordsExpression } from './nodes';

/** Pause after a keystroke before searching, so typing a title sends one search rather than one per letter. */
const TYPING_PAUSE_MS = 250;
const HITS = 20;

type Item = vscode.QuickPickItem & { recordId?: string };

export interface PickedRecord {
  id: string;
  title: string;
}

/** The words a person typed as a search of titles, best matches first; an id as `Id = …`. */
export function recordSearchOf(text: string): { expression: string; sort?: string } | undefined {
  const t = text.trim();
  if (!t) return undefined;
  if (isGuid(t)) return { expression: `Id = ${t.replace(/-/g, '')}` };
  const words = plainWords(t);
  return words ? { expression: wordsExpression(words), sort: 'Rank desc' } : undefined;
}

export function pickRecord(client: DamClient, options: { title: string; placeholder?: string }): Promise<PickedRecord | undefined> {
  const qp = vscode.window.createQuickPick<Item>();
  qp.title = options.title;
  qp.placeholder = options.placeholder ?? 'Words of the record\'s title (or its id)';
  qp.ignoreFocusOut = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let abort: AbortController | undefined;
  let searches = 0;

  const search = async (text: string) => {
    abort?.abort();
    const query = recordSearchOf(text);
    if (!query) {
      qp.items = [];
      qp.busy = false;
      return;
    }
    const mine = ++searches;
    abort = new AbortController();
    qp.busy = true;
    try {
      const page = await client.search.records({ ...query, pageSize: HITS, signal: abort.signal });
      if (mine !== searches) return;
      qp.items = page.items.length
        ? page.items.map((r) => ({
            label: r.title || '(no title)',
            description: [r.status, r.contentType].filter(Boolean).join(' · '),
            detail: r.modifiedOn ? `modified ${readableTime(r.modifiedOn)}` : undefined,
            // The service has searched already: VS Code must not filter its hits again by the typed text.
            alwaysShow: true,
            recordId: r.id,
          }))
        : [{ label: `No record's title has “${text.trim()}”`, alwaysShow: true }];
    } catch (err) {
      if (mine !== searches || abort.signal.aborted) return;
      qp.items = [{ label: `The search failed: ${err instanceof Error ? err.message : String(err)}`, alwaysShow: true }];
    } finally {
      if (mine === searches) qp.busy = false;
    }
  };

  return new Promise<PickedRecord | undefined>((resolve) => {
    let done = false;
    const finish = (value: PickedRecord | undefined) => {
      if (done) return;
      done = true;
      if (timer) clearTimeout(timer);
      abort?.abort();
      resolve(value);
      qp.dispose();
    };
    qp.onDidChangeValue((text) => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void search(text), TYPING_PAUSE_MS);
    });
    qp.onDidAccept(() => {
      // An id pasted and Enter pressed at once is taken as it is: its search has not answered yet (or the list still
      // shows the hits of what was typed before), and a second Enter on the listed hit was needed.
      const typed = qp.value.trim();
      if (isGuid(typed)) {
        const id = typed.replace(/[{}-]/g, '').toLowerCase();
        const hit = qp.items.find((i) => i.recordId?.replace(/-/g, '').toLowerCase() === id);
        finish({ id: hit?.recordId ?? id, title: hit?.label ?? id });
        return;
      }
      const item = qp.selectedItems[0] ?? qp.activeItems[0];
      if (item?.recordId) finish({ id: item.recordId, title: item.label });
    });
    qp.onDidHide(() => finish(undefined));
    qp.show();
  });
}
