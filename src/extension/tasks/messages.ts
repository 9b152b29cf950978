// Every message between the task form (media/webviews/taskForm) and the extension, defined once as zod
// schemas; both sides import this module and parse what arrives before acting on it. Free of `vscode`.
import { z } from 'zod';

const FieldSchema = z.enum([
  'projectId',
  'name',
  'description',
  'status',
  'startType',
  'calendarId',
  'beginDate',
  'endDate',
  'duration',
  'autoClose',
  'workGroupAction',
  'autoAccept',
  'people',
  'form',
]);

export const TaskFormValuesSchema = z.object({
  projectId: z.string().max(40),
  name: z.string().max(1000),
  description: z.string().max(20_000),
  status: z.string().max(20),
  startType: z.string().max(20),
  calendarId: z.string().max(20),
  beginDate: z.string().max(40),
  endDate: z.string().max(40),
  durationDays: z.string().max(20),
  durationHours: z.string().max(20),
  durationMinutes: z.string().max(20),
  autoClose: z.boolean(),
  workGroupAction: z.string().max(20),
  autoAccept: z.boolean(),
  canDelegate: z.boolean(),
  peopleKind: z.enum(['assignees', 'taskRoles']),
  principals: z.array(z.string().max(40)).max(1000),
  roleIds: z.string().max(1000),
});

const ChoiceSchema = z.object({ value: z.string(), label: z.string() });
const messages = z.partialRecord(FieldSchema, z.string());

/** What the form posts to the extension. */
export const PanelToHostSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  /** A field changed: the whole form, checked at once so dependent choices follow. */
  z.object({ type: z.literal('change'), seq: z.number().int(), form: TaskFormValuesSchema }),
  z.object({ type: z.literal('create'), seq: z.number().int(), form: TaskFormValuesSchema }),
]);
export type PanelToHost = z.infer<typeof PanelToHostSchema>;

/** What the extension posts to the form. */
export const HostToPanelSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('init'),
    projects: z.array(z.object({ id: z.number().int(), label: z.string() })),
    principals: z.array(z.object({ id: z.number().int(), label: z.string(), kind: z.enum(['user', 'group']) })),
    form: TaskFormValuesSchema,
  }),
  /** The answer to `change` and `create`: errors inline by field, and the choices the rules allow now. */
  z.object({
    type: z.literal('validation'),
    seq: z.number().int(),
    errors: messages,
    warnings: messages,
    computed: z.object({ field: z.enum(['beginDate', 'endDate', 'duration']), text: z.string() }).optional(),
    /** The dates the service will set itself, and why (shown beside the dates, not hidden in the result). */
    derived: z.string().optional(),
    statuses: z.array(ChoiceSchema),
    startTypes: z.array(ChoiceSchema),
    calendars: z.array(ChoiceSchema),
    disabled: z.array(FieldSchema),
  }),
  z.object({ type: z.literal('sending') }),
  z.object({
    type: z.literal('created'),
    task: z.object({ id: z.number().int(), name: z.string(), beginDate: z.string().nullish(), endDate: z.string().nullish(), status: z.string() }),
    /** The service's mismatch message, when the dates and duration disagreed. */
    message: z.string().optional(),
  }),
  z.object({ type: z.literal('failed'), message: z.string() }),
]);
export type HostToPanel = z.infer<typeof HostToPanelSchema>;
export type TaskFormMessageValues = z.infer<typeof TaskFormValuesSchema>;
