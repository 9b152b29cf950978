// zod schemas of the content-management resources as the client reads them. Loose objects: the
// real service adds properties over time, and a minimal representation omits most of them.
import { z } from 'zod';
import { HalLinksSchema } from './hal';

const hal = {
  _links: HalLinksSchema.optional(),
  _embedded: z.record(z.string(), z.unknown()).optional(),
};

/** GUIDs travel undashed, but a dashed one is accepted and normalised (real-service notes). */
export function normalizeGuid(id: string): string {
  const undashed = id.replace(/-/g, '').toLowerCase();
  return /^[0-9a-f]{32}$/.test(undashed) ? undashed : id;
}

export const NEUTRAL_LANGUAGE_ID = '00000000000000000000000000000000';

const idString = z.union([z.string(), z.number()]).transform(String);
const timestamp = z.string().nullish();

export const LocalizedValueSchema = z.looseObject({
  languageId: z.string().nullish(),
  value: z.unknown().optional(),
  values: z.array(z.unknown()).nullish(),
  children: z.array(z.unknown()).nullish(),
});

export const RecordSchema = z.looseObject({
  ...hal,
  id: z.string(),
  title: z.string().nullish(),
  status: z.string().nullish(),
  contentType: z.string().nullish(),
  createdOn: timestamp,
  modifiedOn: timestamp,
  tag: z.string().nullish(),
  textContent: z.string().nullish(),
  hasImageOverlay: z.boolean().nullish(),
  // Unknown | No | Yes on a tenant (the service's record page, the SDK's model); read as text so a new value never breaks a read.
  aiInfluenced: z.string().nullish(),
});
export type DamRecord = z.infer<typeof RecordSchema>;

export const LabelSchema = z.looseObject({ languageId: z.string().nullish(), value: z.string().nullish() });

export const ClassificationSchema = z.looseObject({
  ...hal,
  id: z.string(),
  identifier: z.string().nullish(),
  name: z.string().nullish(),
  namePath: z.string().nullish(),
  labelPath: z.string().nullish(),
  labels: z.array(LabelSchema).nullish(),
  parentId: z.string().nullish(),
  isRoot: z.boolean().nullish(),
  hasChildren: z.boolean().nullish(),
  sortIndex: z.number().nullish(),
  sortOrder: z.string().nullish(),
  createdOn: timestamp,
  modifiedOn: timestamp,
});
export type Classification = z.infer<typeof ClassificationSchema>;

export const FieldSchema = z.looseObject({
  ...hal,
  id: z.string(),
  fieldName: z.string().nullish(),
  label: z.string().nullish(),
  dataType: z.string().nullish(),
  localizedValues: z.array(LocalizedValueSchema).nullish(),
});
export type Field = z.infer<typeof FieldSchema>;

export const FieldDefinitionSchema = z.looseObject({
  ...hal,
  id: z.string(),
  name: z.string().nullish(),
  label: z.string().nullish(),
  dataType: z.string().nullish(),
  labels: z.array(LabelSchema).nullish(),
});
export type FieldDefinition = z.infer<typeof FieldDefinitionSchema>;

export const FieldGroupSchema = z.looseObject({ ...hal, id: z.string(), name: z.string().nullish(), labels: z.array(LabelSchema).nullish() });
export type FieldGroup = z.infer<typeof FieldGroupSchema>;

export const UserSchema = z.looseObject({
  ...hal,
  id: idString,
  name: z.string().nullish(),
  firstName: z.string().nullish(),
  lastName: z.string().nullish(),
  email: z.string().nullish(),
});
export type User = z.infer<typeof UserSchema>;

export const UserGroupSchema = z.looseObject({ ...hal, id: idString, name: z.string().nullish() });
export type UserGroup = z.infer<typeof UserGroupSchema>;

export const LanguageSchema = z.looseObject({ ...hal, id: z.string(), name: z.string().nullish(), culture: z.string().nullish() });
export type Language = z.infer<typeof LanguageSchema>;

export const SettingSchema = z.looseObject({ ...hal, id: z.string().optional(), name: z.string().nullish(), value: z.unknown().optional() });
export type Setting = z.infer<typeof SettingSchema>;

export const SettingDefinitionSchema = z.looseObject({ ...hal, id: z.string(), name: z.string().nullish(), dataType: z.string().nullish() });
export type SettingDefinition = z.infer<typeof SettingDefinitionSchema>;

export const ContentTypeSchema = z.looseObject({ ...hal, id: z.string(), name: z.string().nullish(), labels: z.array(LabelSchema).nullish() });
export type ContentType = z.infer<typeof ContentTypeSchema>;

/** A rendition preset entry of the `.renditionPreset` setting (spec, Maintenance job request). */
export const RenditionPresetSchema = z.looseObject({
  name: z.string(),
  format: z.string().nullish(),
  usages: z.unknown().optional(),
  aiActions: z.unknown().optional(),
});
export type RenditionPreset = z.infer<typeof RenditionPresetSchema>;

/** A paged collection (GET /<collection>) or search result; `nextCursor` on records only. */
export function pagedSchema<T extends z.ZodType>(item: T) {
  return z.looseObject({
    ...hal,
    items: z.array(item),
    page: z.number().nullish(),
    pageSize: z.number().nullish(),
    skip: z.number().nullish(),
    take: z.number().nullish(),
    totalCount: z.number().nullish(),
    nextCursor: z.string().nullish(),
  });
}
export interface Paged<T> {
  items: T[];
  page?: number | null;
  pageSize?: number | null;
  skip?: number | null;
  take?: number | null;
  totalCount?: number | null;
  nextCursor?: string | null;
  _links?: z.infer<typeof HalLinksSchema>;
}

/** `/` and `/supportedVersions`: shapes not shown in the spec, so only "a JSON value" is promised. */
export const AnyJsonSchema = z.unknown();
