// Settings and setting definitions (`.renditionPreset`, `.fileVersionCreatedHooks`, …): the repository, and the
// rules a new value must follow.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { errors } from '../errors';
import type { Queryable } from '../storage/store';
import { HOOKS_SETTING, validateHooks } from './fileVersionHooks';
import { normaliseGuid } from '../hal';

export interface SettingDefinitionRow {
  name: string;
  id: string;
  category: string;
  data_type: string;
  description: string;
  default_value: unknown;
}
export interface SettingRow extends SettingDefinitionRow {
  value: unknown;
  is_default: boolean;
  modified_on: Date | null;
}

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

export const settings = {
  list: (db: Queryable) => db.query<SettingRow>(`${SETTINGS_SQL} ORDER BY d.name`),

  definitions: (db: Queryable) => db.query<SettingDefinitionRow>('SELECT * FROM setting_definitions ORDER BY name'),

  /** Defines a new setting (administrators, `dam tenant push`); its name is unique. Returns its id. */
  async define(db: Queryable, d: { name: string; category?: string | null; dataType: string; description?: string | null; defaultValue?: unknown }): Promise<string> {
    if ((await db.query('SELECT 1 FROM setting_definitions WHERE lower(name) = lower($1)', [d.name])).length) {
      throw errors.validation(`A setting named '${d.name}' is already defined.`);
    }
    const id = randomBytes(16).toString('hex');
    await db.query('INSERT INTO setting_definitions (name, id, category, data_type, description, default_value) VALUES ($1, $2, $3, $4, $5, $6)', [
      d.name,
      id,
      d.category ?? '',
      d.dataType,
      d.description ?? '',
      JSON.stringify(d.defaultValue ?? null),
    ]);
    return id;
  },

  /** By name (case-insensitive, e.g. `.renditionPreset`) or id; 404 when there is none. */
  async find(db: Queryable, nameOrId: string): Promise<SettingRow> {
    const row = (await db.query<SettingRow>(`${SETTINGS_SQL} WHERE lower(d.name) = lower($1::text) OR d.id = $2::text`, [nameOrId, normaliseGuid(nameOrId) ?? '']))[0];
    if (!row) throw errors.noDataFound('setting', nameOrId.slice(0, 200));
    return row;
  },

  /** Sets a value (checked against the setting's rules), or resets it to the default with null. */
  async set(db: Queryable, name: string, value: unknown, now: Date): Promise<void> {
    if (value === null) {
      await db.query('DELETE FROM settings WHERE name = $1', [name]);
      return;
    }
    checkValue(name, value);
    await db.query(
      `INSERT INTO settings (name, value, modified_on) VALUES ($1, $2, $3) ON CONFLICT (name) DO UPDATE SET value = excluded.value, modified_on = excluded.modified_on`,
      [name, JSON.stringify(value), now.toISOString()],
    );
  },
};

/** The settings the emulator acts on have a shape; a value of another shape is refused (400) rather than stored. */
function checkValue(name: string, value: unknown): void {
  if (name === '.renditionPreset') {
    const presets = z.array(Preset).max(200).safeParse(value);
    if (!presets.success) throw errors.validation(`Invalid rendition presets: ${presets.error.issues[0]?.message ?? ''}`);
  }
  if (name === HOOKS_SETTING) validateHooks(value);
}
