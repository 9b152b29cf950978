// Settings and setting definitions (e.g. `.renditionPreset`): list, read by name or id, partial update of a value.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { EmulatorContext } from '../context';
import { core } from '../domain/model';
import { defineType, normaliseGuid, render, renderContext } from '../hal';
import { docSchema, parseBody } from '../validate';
import { listSmall } from './collection';
import { HOOKS_SETTING, validateHooks } from '../domain/fileVersionHooks';

interface DefinitionRow {
  name: string;
  id: string;
  category: string;
  data_type: string;
  description: string;
  default_value: unknown;
}
interface SettingRow extends DefinitionRow {
  value: unknown;
  is_default: boolean;
  modified_on: Date | null;
}

export const settingDefinitionType = defineType<DefinitionRow>({
  name: 'settingdefinition',
  self: (d, rc) => `${core(rc)}/settingdefinition/${encodeURIComponent(d.name)}`,
  attributes: (d) => ({ id: d.id, name: d.name, category: d.category, dataType: d.data_type, description: d.description, defaultValue: d.default_value }),
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

const SETTINGS_SQL = `SELECT d.*, coalesce(s.value, d.default_value) AS value, s.value IS NULL AS is_default, s.modified_on
  FROM setting_definitions d LEFT JOIN settings s ON s.name = d.name`;

/** A rendition preset as the maintenance-job engine reads it. */
const Preset = z
  .object({
    name: z.string().min(1).max(200),
    format: z.string().min(1).max(20),
    usages: z.array(z.string().max(100)).max(50).optional(),
    size: z.number().int().positive().max(20_000).optional(),
    aiActions: z.array(z.string().max(100)).max(10).optional(),
  })
  .loose();

export const SettingBody = z.object({ value: z.unknown() }).loose();

type Params = FastifyRequest<{ Params: { name: string } }>;

export function register(app: FastifyInstance, ctx: EmulatorContext) {
  const base = '/api/core';
  const { errors } = ctx;

  async function find(nameOrId: string): Promise<SettingRow> {
    const row = (await ctx.store.query<SettingRow>(`${SETTINGS_SQL} WHERE lower(d.name) = lower($1::text) OR d.id = $2::text`, [nameOrId, normaliseGuid(nameOrId) ?? '']))[0];
    if (!row) throw errors.noDataFound('setting', nameOrId.slice(0, 200));
    return row;
  }

  app.get(`${base}/settings`, { schema: { summary: 'List settings' } }, async (request) =>
    listSmall(ctx, request, settingType, await ctx.store.query<SettingRow>(`${SETTINGS_SQL} ORDER BY d.name`)),
  );
  app.get(`${base}/setting/:name`, { schema: { summary: 'Read a setting by name (e.g. .renditionPreset) or id' } }, async (request: Params) =>
    render(settingType, await find(request.params.name), renderContext(ctx, request)),
  );
  app.put(`${base}/setting/:name`, { schema: { summary: 'Change a setting value (null resets it to the default)' }, config: { bodySchema: docSchema(SettingBody) } }, async (request: Params) => {
    const body = parseBody(SettingBody, request.body);
    const row = await find(request.params.name);
    if (!('value' in body)) throw errors.validation('value is required.');
    if (body.value === null) {
      await ctx.store.query('DELETE FROM settings WHERE name = $1', [row.name]);
    } else {
      if (row.name === '.renditionPreset') {
        const presets = z.array(Preset).max(200).safeParse(body.value);
        if (!presets.success) throw errors.validation(`Invalid rendition presets: ${presets.error.issues[0]?.message ?? ''}`);
      }
      if (row.name === HOOKS_SETTING) validateHooks(body.value);
      await ctx.store.query(
        `INSERT INTO settings (name, value, modified_on) VALUES ($1, $2, $3) ON CONFLICT (name) DO UPDATE SET value = excluded.value, modified_on = excluded.modified_on`,
        [row.name, JSON.stringify(body.value), ctx.clock.now().toISOString()],
      );
    }
    return render(settingType, await find(row.name), renderContext(ctx, request));
  });

  app.get(`${base}/settingdefinitions`, { schema: { summary: 'List setting definitions' } }, async (request) =>
    listSmall(ctx, request, settingDefinitionType, await ctx.store.query<DefinitionRow>('SELECT * FROM setting_definitions ORDER BY name')),
  );
  app.get(`${base}/settingdefinition/:name`, { schema: { summary: 'Read a setting definition' } }, async (request: Params) =>
    render(settingDefinitionType, await find(request.params.name), renderContext(ctx, request)),
  );
}
