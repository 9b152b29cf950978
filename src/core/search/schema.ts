// The optional tenant schema semantic checks and completion use: field definitions, options, classifications,
// languages.
// It arrives from the network or a settings file, so it is validated with zod at that boundary.
import { z } from 'zod';
import { FIELD_DATA_TYPES } from './catalogue';
import { guidKey } from './values';

export const OptionSchemaSchema = z.object({
  id: z.string().optional(),
  name: z.string(),
  label: z.string().optional(),
});

export const FieldSchemaSchema = z.object({
  id: z.string().optional(),
  name: z.string(),
  label: z.string().optional(),
  dataType: z.enum(FIELD_DATA_TYPES),
  options: z.array(OptionSchemaSchema).optional(),
});

export const QuerySchemaSchema = z.object({
  fields: z.array(FieldSchemaSchema).default([]),
  /** Classification names (or name paths) known to the tenant. */
  /** The tenant's content types, where known (completion offers them beside Image, Video and Document). */
  contentTypes: z.array(z.string()).optional(),
  classifications: z.array(z.string()).optional(),
  /** The tenant's languages: completion offers their ids after a LanguageList field's `Language.Id`. */
  languages: z.array(z.object({ id: z.string(), name: z.string(), culture: z.string().optional() })).optional(),
});

export type OptionSchema = z.infer<typeof OptionSchemaSchema>;
export type FieldSchema = z.infer<typeof FieldSchemaSchema>;
export type QuerySchema = z.input<typeof QuerySchemaSchema>;

/** Finds a field by the way it is referenced; names and labels compare case-insensitively, ids ignore dashes. */
export function findField(schema: QuerySchema | undefined, by: 'id' | 'name' | 'label', key: string): FieldSchema | undefined {
  if (!schema?.fields) return undefined;
  const k = by === 'id' ? guidKey(key) : key.toLowerCase();
  return schema.fields.find((f) => {
    if (by === 'id') return f.id !== undefined && guidKey(f.id) === k;
    if (by === 'name') return f.name.toLowerCase() === k;
    return (f.label ?? '').toLowerCase() === k;
  });
}
