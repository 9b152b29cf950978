// Settings and setting definitions (e.g. `.renditionPreset`): list, read by name or id, change a value (administrators).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { Rights } from '../caller';
import type { EmulatorContext } from '../context';
import { core } from '../domain/model';
import { EN_US } from '../domain/languages';
import { categoryIdOf } from '../domain/publishing';
import { settings, type SettingDefinitionRow, type SettingRow } from '../domain/settings';
import { defineType, render, renderContext } from '../hal';
import { ListQuery, Segment, created, noContent, route } from '../routeTable';
import { SettingDefinitionSchema, SettingSchema, paged } from '../schemas';
import { listSmall } from './collection';

export const settingDefinitionType = defineType<SettingDefinitionRow>({
  name: 'settingdefinition',
  self: (d, rc) => `${core(rc)}/settingdefinition/${encodeURIComponent(d.name)}`,
  // `labels`, `userGroupSettingMode` and the allow flags are read by configuration exporters (which skip `Manual` ones)
  // and typed SDK models; the emulator's settings are system settings, not set per group.
  attributes: (d) => ({
    id: d.id,
    name: d.name,
    category: d.category,
    // The category's id, as GET /settingcategories lists it (issue 36).
    categoryId: categoryIdOf(d.category),
    dataType: d.data_type,
    description: d.description,
    defaultValue: d.default_value,
    labels: [{ languageId: EN_US, value: d.name }],
    userGroupSettingMode: 'None',
    allowSystemSetting: true,
    allowUserSetting: false,
    roleRequiredForChange: null,
    helpUrl: null,
  }),
  relations: [],
});

export const settingType = defineType<SettingRow>({
  name: 'setting',
  self: (s, rc) => `${core(rc)}/setting/${encodeURIComponent(s.name)}`,
  attributes: (s) => ({
    id: s.id,
    name: s.name,
    category: s.category,
    dataType: s.data_type,
    value: s.value,
    isDefault: s.is_default,
    modifiedOn: s.modified_on ? new Date(s.modified_on).toISOString() : null,
  }),
  relations: [
    {
      key: 'definition',
      type: 'settingdefinition',
      many: false,
      href: (s, rc) => `${core(rc)}/settingdefinition/${encodeURIComponent(s.name)}`,
      load: async (s) => s,
    },
  ],
});

export const SettingBody = z
  .object({
    value: z.unknown(),
    scope: z.string().max(40).nullish().describe('system (default); per-group values (usergroup) are taken but not kept by the emulator'),
    scopeId: z.string().max(100).nullish(),
  })
  .loose();
const NameParams = z.object({ name: Segment });
const SettingDefinitionBody = z
  .object({
    name: z.string().min(1).max(200),
    category: z.string().max(200).nullish(),
    dataType: z.string().min(1).max(100),
    description: z.string().max(10_000).nullish(),
    defaultValue: z.unknown().optional(),
  })
  .loose();

export function register(app: FastifyInstance, ctx: EmulatorContext) {
  const tag = 'Settings';
  route(app, ctx, {
    method: 'GET',
    url: '/api/core/settings',
    summary: 'List settings',
    tag,
    query: ListQuery.extend({ names: z.string().max(10_000).optional().describe('Only these settings, comma-separated') }),
    responses: { 200: { description: 'A page of settings', schema: paged(SettingSchema) } },
    handler: async ({ query, request }) => {
      const names = query.names?.split(',').map((n) => n.trim().toLowerCase()).filter(Boolean);
      const rows = await settings.list(ctx.store);
      return listSmall(ctx, request, settingType, names?.length ? rows.filter((r) => names.includes(r.name.toLowerCase())) : rows);
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: '/api/core/setting/:name',
    summary: 'Read a setting by name (e.g. .renditionPreset) or id',
    tag,
    params: NameParams,
    responses: { 200: { description: 'The setting', schema: SettingSchema } },
    handler: async ({ params, request }) => render(settingType, await settings.find(ctx.store, params.name), renderContext(ctx, request)),
  });
  route(app, ctx, {
    method: 'PUT',
    url: '/api/core/setting/:name',
    summary: 'Change a setting value (null resets it to the default)',
    tag,
    rights: [Rights.SystemAdministration],
    action: 'change settings',
    params: NameParams,
    body: SettingBody,
    responses: { 204: { description: 'Changed' } },
    handler: async ({ params, body, reply }) => {
      const row = await settings.find(ctx.store, params.name);
      if (!('value' in body)) throw ctx.errors.validation('value is required.');
      if (body.scope && body.scope.toLowerCase() !== 'system') {
        // Configuration tools copy per-group values too; the emulator keeps system-wide values only.
        ctx.log(`settings: a ${body.scope}-scoped value of ${row.name} was not kept (the emulator keeps system-wide values)`);
        return noContent(reply);
      }
      await settings.set(ctx.store, row.name, body.value, ctx.clock.now());
      return noContent(reply);
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: '/api/core/settingdefinitions',
    summary: 'List setting definitions',
    tag,
    query: ListQuery,
    responses: { 200: { description: 'A page of setting definitions', schema: paged(SettingDefinitionSchema) } },
    handler: async ({ request }) => listSmall(ctx, request, settingDefinitionType, await settings.definitions(ctx.store)),
  });
  route(app, ctx, {
    method: 'POST',
    url: ['/api/core/settingdefinition', '/api/core/settingdefinitions'],
    summary: 'Define a new setting (its name is unique)',
    tag,
    rights: [Rights.SystemAdministration],
    action: 'define settings',
    body: SettingDefinitionBody,
    responses: { 201: { description: 'The new definition', schema: SettingDefinitionSchema } },
    handler: async ({ body, request, reply }) => {
      await settings.define(ctx.store, body);
      const rc = renderContext(ctx, request);
      return created(reply, `${core(rc)}/settingdefinition/${encodeURIComponent(body.name)}`, await render(settingDefinitionType, await settings.find(ctx.store, body.name), rc));
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: '/api/core/settingdefinition/:name',
    summary: 'Read a setting definition',
    tag,
    params: NameParams,
    responses: { 200: { description: 'The definition', schema: SettingDefinitionSchema } },
    handler: async ({ params, request }) => render(settingDefinitionType, await settings.find(ctx.store, params.name), renderContext(ctx, request)),
  });
}
