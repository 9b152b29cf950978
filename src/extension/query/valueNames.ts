// The names an export writes for the ids a record's field values hold: an option list's entry by its label (or
// name), a classification by its name path, a language by its name. People read a CSV in a spreadsheet, where an
// id means nothing. Field definitions and languages are read once per export; classifications by id as rows name
// them (a tenant may have thousands, a result set names few), each once.
import type { DamClient } from '../../api/client';
import { ApiError } from '../../api/errors';
import { guidKey } from '../../core/search';
import type { ValueNames } from './rows';

export class ExportValueNames implements ValueNames {
  private readonly options = new Map<string, Map<string, string>>();
  private readonly languages = new Map<string, string>();
  private readonly classifications = new Map<string, string | undefined>();

  private constructor(
    private readonly client: DamClient,
    private readonly signal?: AbortSignal,
  ) {}

  static async load(client: DamClient, signal?: AbortSignal): Promise<ExportValueNames> {
    const names = new ExportValueNames(client, signal);
    for await (const d of client.fieldDefinitions.items({ signal })) {
      const items = (d as { items?: unknown }).items;
      if (!Array.isArray(items)) continue;
      const byId = new Map<string, string>();
      for (const o of items as { id?: unknown; name?: unknown; label?: unknown }[]) {
        const text = typeof o?.label === 'string' && o.label ? o.label : typeof o?.name === 'string' ? o.name : undefined;
        if (typeof o?.id === 'string' && text) byId.set(guidKey(o.id), text);
      }
      names.options.set(guidKey(d.id), byId);
    }
    for await (const l of client.languages.items({ signal })) if (l.name) names.languages.set(guidKey(l.id), l.name);
    return names;
  }

  /** Reads the name paths of the classifications in `ids` not read yet; one that is gone keeps its id. */
  async readClassifications(ids: Iterable<string>): Promise<void> {
    for (const id of ids) {
      const key = guidKey(id);
      if (this.classifications.has(key)) continue;
      try {
        const c = await this.client.classifications.get(id, { signal: this.signal });
        this.classifications.set(key, c.namePath ?? c.name ?? undefined);
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 404)) throw err;
        this.classifications.set(key, undefined);
      }
    }
  }

  option(fieldId: string, optionId: string): string | undefined {
    return this.options.get(guidKey(fieldId))?.get(guidKey(optionId));
  }

  classification(id: string): string | undefined {
    return this.classifications.get(guidKey(id));
  }

  language(id: string): string | undefined {
    return this.languages.get(guidKey(id));
  }
}
