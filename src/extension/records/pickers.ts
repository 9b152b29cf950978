// Quick picks the record commands share: a classification by name path (the tenant's classifications, filtered as
// the user types; on a tenant with more than fit, the service is searched for the typed words).
import * as vscode from 'vscode';
import type { DamClient } from '../../api/client';
import type { Classification } from '../../api/schemas';

export interface PickedClassification {
  id: string;
  namePath: string;
}

/** Classifications listed at once; beyond this the service is searched as the user types. */
const LISTED = 2_000;

type Item = vscode.QuickPickItem & { id: string; namePath: string };

function itemOf(c: Classification): Item {
  const namePath = c.namePath || `/${c.name ?? c.id}`;
  const label = c.labels?.find((l) => l.value)?.value;
  // Name paths escape a slash inside a name as `\/`; people read the name.
  return { label: namePath.replace(/\\\//g, '∕'), description: label && label !== c.name ? label : undefined, detail: undefined, id: c.id, namePath };
}

export function pickClassification(client: DamClient, options: { title: string }): Promise<PickedClassification | undefined> {
  const pick = vscode.window.createQuickPick<Item>();
  pick.title = options.title;
  pick.placeholder = 'Type to filter by name path, e.g. Products/Shoes';
  pick.matchOnDescription = true;
  pick.busy = true;
  const abort = new AbortController();
  let all: Item[] = [];
  let complete = false;
  void (async () => {
    try {
      for await (const c of client.classifications.items({ pageSize: 1000, signal: abort.signal })) {
        all.push(itemOf(c));
        if (all.length >= LISTED) break;
      }
      complete = all.length < LISTED;
      all = all.sort((a, b) => a.namePath.localeCompare(b.namePath));
      pick.items = all;
    } catch (err) {
      if (!abort.signal.aborted) pick.placeholder = `Could not list the classifications: ${err instanceof Error ? err.message : String(err)}`;
    } finally {
      pick.busy = false;
    }
  })();
  let timer: NodeJS.Timeout | undefined;
  pick.onDidChangeValue((value) => {
    if (complete || value.trim().length < 2) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      pick.busy = true;
      const words = `*${value.trim().replace(/["\\]/g, '')}*`;
      client.search
        .classifications({ expression: 'Name = @q OR Label = @q OR NamePath = @q', namedParameters: { q: words }, pageSize: 200, signal: abort.signal })
        .then((page) => {
          const found = page.items.map(itemOf).filter((i) => !all.some((a) => a.id === i.id));
          pick.items = [...found, ...all];
        })
        .catch(() => undefined)
        .finally(() => (pick.busy = false));
    }, 300);
  });
  return new Promise<PickedClassification | undefined>((resolve) => {
    pick.onDidAccept(() => {
      const chosen = pick.selectedItems[0];
      resolve(chosen && { id: chosen.id, namePath: chosen.namePath });
      pick.hide();
    });
    pick.onDidHide(() => {
      resolve(undefined);
      abort.abort();
      clearTimeout(timer);
      pick.dispose();
    });
    pick.show();
  });
}
