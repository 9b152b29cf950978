// What the emulator answers, as zod schemas for the generated OpenAPI document: the spec's error object, HAL links
// and paged collections, and the resources with the members real-service-notes lists. Loose on purpose: the service
// may add members (the spec: "new ones may appear"), and select-* headers add embedded resources.
import { z } from 'zod';

export const ErrorBodySchema = z.object({
  exceptionMessage: z.string(),
  exceptionType: z.string().describe('Dotted .NET-style type name, e.g. Dam.Core.Common.NoDataFoundException.'),
  stackTrace: z.null(),
  innerException: z.null(),
});

const Link = z.object({ href: z.string(), 'select-key': z.string().optional() });
const Links = z.record(z.string(), Link);
const Id = z.string().describe('32 lower-case hex digits');
const Time = z.string().describe('ISO 8601, UTC');

/** A HAL resource: its members, `_links` (absent in plain JSON) and what select-* headers embedded. */
export function resource<S extends z.ZodRawShape>(shape: S) {
  return z.object({ ...shape, _links: Links.optional(), _embedded: z.record(z.string(), z.unknown()).optional() }).loose();
}

/** The spec's paged collection (`items`, `page`, `pageSize`, `skip`, `take`, `totalCount`, links that apply). */
export function paged<T extends z.ZodType>(item: T) {
  return z
    .object({
      items: z.array(item),
      page: z.number().int().optional(),
      pageSize: z.number().int().optional(),
      skip: z.number().int().optional(),
      take: z.number().int().optional(),
      totalCount: z.number().int(),
      nextCursor: z.string().nullable().optional(),
      _links: Links.optional(),
    })
    .loose();
}

/** A plain `{ items }` list (check framework, sub-collections). */
export function list<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), totalCount: z.number().int().optional(), _links: Links.optional() }).loose();
}

export const RecordSchema = resource({
  id: Id,
  title: z.string(),
  status: z.enum(['Draft', 'Released', 'Archived']),
  contentType: z.string(),
  createdOn: Time,
  modifiedOn: Time,
  tag: z.string().nullable(),
});

export const ClassificationSchema = resource({
  id: Id,
  identifier: z.string(),
  name: z.string(),
  namePath: z.string(),
  labelPath: z.string(),
  parentId: Id.nullable(),
  isRoot: z.boolean(),
  hasChildren: z.boolean(),
  sortIndex: z.number().int(),
  sortOrder: z.enum(['Label', 'Name', 'SortIndex']),
  createdOn: Time,
  modifiedOn: Time,
});

export const FieldValueSchema = resource({
  id: Id,
  fieldName: z.string(),
  label: z.string().optional(),
  dataType: z.string(),
  localizedValues: z.array(z.object({ languageId: z.string() }).loose()),
});

export const FieldDefinitionSchema = resource({ id: Id, name: z.string(), dataType: z.string() });
export const FieldGroupSchema = resource({ id: Id, name: z.string() });
export const FileSchema = resource({ id: Id, recordId: Id, isMaster: z.boolean(), createdOn: Time, modifiedOn: Time });
export const FileVersionSchema = resource({ id: Id, fileName: z.string(), fileSize: z.number(), versionNumber: z.number().int().optional(), createdOn: Time });
export const AdditionalFileSchema = resource({ id: Id, name: z.string(), format: z.string() });
export const ImageSchema = resource({ width: z.number().int().optional(), height: z.number().int().optional() });
export const UserSchema = resource({ id: Id, login: z.string().optional(), firstName: z.string(), lastName: z.string() });
export const UserGroupSchema = resource({ id: Id, name: z.string() });
export const LanguageSchema = resource({ id: Id, culture: z.string(), name: z.string() });
export const ContentTypeSchema = resource({ id: Id, name: z.string() });
export const SettingSchema = resource({ id: Id, name: z.string(), value: z.unknown(), isDefault: z.boolean() });
export const SettingDefinitionSchema = resource({ id: Id, name: z.string(), dataType: z.string() });

export const CheckCategorySchema = resource({ id: Id, name: z.string() });
export const CheckSchema = resource({ id: Id, name: z.string(), actionTypeId: Id, checkCategoryId: Id, createdOn: Time, modifiedOn: Time });
const Outcome = z.enum(['pass', 'fail', 'warning', 'info']);
export const CheckResultSchema = resource({
  id: Id,
  fileVersionId: Id,
  checkId: Id,
  recordId: Id,
  outcome: Outcome.nullable(),
  description: z.string(),
  createdOn: Time,
  createdBy: z.number().int(),
});
export const FindingSchema = resource({
  id: Id,
  occurrence: z.number().int(),
  finding: z.string(),
  explanation: z.string().nullable(),
  recommendation: z.string().nullable(),
  outcome: Outcome,
});

export const MaintenanceJobSchema = resource({
  id: Id,
  type: z.string(),
  status: z.enum(['Pending', 'Queued', 'Scheduled', 'Executing', 'Success', 'PartiallyFailed', 'Failed', 'Cancelled']),
  actions: z.array(z.object({ action: z.string(), parameters: z.record(z.string(), z.unknown()).optional() }).loose()),
  targetsCount: z.number().int(),
  failedTargetsCount: z.number().int(),
  errors: z.array(z.unknown()),
  message: z.string().nullable(),
  createdOn: Time,
});

export const OrderSchema = resource({
  id: Id,
  type: z.string(),
  status: z.string(),
  deliveredFiles: z
    .array(z.union([z.string(), z.object({ deliveredPath: z.string() }).loose()]))
    .describe('Download links once the order is done: URL strings (download orders) or objects with deliveredPath (PublicCDN).'),
  createdOn: Time,
});

export const UploadResultSchema = z.object({ token: z.string(), sasUrl: z.string(), fileId: Id }).loose();
export const SegmentedSetupSchema = z.object({ uri: z.string().describe('Absolute URI of the upload'), token: z.string() }).loose();

export const RootSchema = resource({});
export const VersionsSchema = z.object({ versions: z.array(z.string()) }).loose();

export const TokenSchema = z.object({
  access_token: z.string(),
  expires_in: z.number().int(),
  token_type: z.literal('Bearer'),
  scope: z.string(),
});

/** The work-management collections: `{ _total, _embedded: { <Type>: [...] }, _links }`. */
export function opsCollection<T extends z.ZodType>(name: string, item: T) {
  return z.object({ _total: z.number().int(), _embedded: z.object({ [name]: z.array(item) }).loose(), _links: Links.optional() }).loose();
}

export const TaskSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    description: z.string().nullable(),
    beginDate: z.string(),
    endDate: z.string(),
    estimatedDuration: z.number().int(),
    workFlowTaskStatus: z.number().int(),
    startType: z.number().int(),
    canDelegate: z.boolean(),
    canSkip: z.number().int(),
    message: z.string().optional(),
  })
  .loose();

export const StringResourceSchema = z.object({ id: z.string(), value: z.string(), _links: Links.optional() }).loose();

export const AnalyticsAnswerSchema = z.object({ data: z.array(z.record(z.string(), z.string().nullable())) }).loose();

/** Anything JSON (a route whose answer has no fixed shape). */
export const AnyJson = z.unknown();
