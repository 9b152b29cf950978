// Attachment fields with their picklist labels resolved through the string resources (`client.strings`),
// so the attach flow shows "Contract" rather than `mo-replacement-strings-7`.
import type { DamClient } from '../../api/client';
import type { AttachmentField } from '../../api/tasks';

export interface LabelledField {
  name: string;
  label: string;
  dataType: string;
  required: boolean;
  options: { key: string; label: string }[];
}

export async function resolveFieldLabels(client: DamClient, fields: readonly AttachmentField[], signal?: AbortSignal): Promise<LabelledField[]> {
  const labelId = (f: AttachmentField) => (typeof f.labelResourceId === 'string' ? f.labelResourceId : undefined);
  const ids = new Set<string>();
  for (const f of fields) {
    const id = labelId(f);
    if (id) ids.add(id);
    for (const o of f.options ?? []) ids.add(o.resourceId);
  }
  const text = ids.size ? await client.strings.resolve([...ids], { signal }) : new Map<string, string>();
  return fields.map((f) => {
    const id = labelId(f);
    return {
      name: f.name,
      label: (id && text.get(id)) || f.name,
      dataType: f.dataType ?? 'Text',
      required: f.required === true,
      // An option whose string the service does not know still shows, by its key.
      options: (f.options ?? []).map((o) => ({ key: o.key, label: text.get(o.resourceId) ?? o.key })),
    };
  });
}
