// What every seed holds (the contract's fixed ids): languages, users, group, role, clients, content types, settings.
import { EMULATOR_CLIENT, EMULATOR_LIMITED_CLIENT } from '../../core/contract';
import type { Queryable } from '../storage/store';
import type { Seeder } from './seeder';
import { DE_DE, EN_US, FR_FR, NEUTRAL_LANGUAGE } from '../domain/languages';

export { DE_DE, EN_US, FR_FR, NEUTRAL_LANGUAGE };


/** Rights the admin client holds by name, besides '*' (system administration grants everything). */
export const ADMIN_PRIVILEGES = [
  '*',
  'SystemAdministration',
  '.RoleExecuteMaintenanceJobs',
  '.RoleViewMaintenanceJobs',
  'ProjectEdit',
  'ProjectTaskInsert',
  'ProjectView',
  'IntegrationApiAccess',
];

export const CONTENT_TYPES = [
  { id: 'a1b2c3d4e5f6478899aabbccddee0001', name: 'Image' },
  { id: 'a1b2c3d4e5f6478899aabbccddee0002', name: 'Video' },
  { id: 'a1b2c3d4e5f6478899aabbccddee0003', name: 'Document' },
];

export const CHECK_CATEGORIES = [
  { id: 'c4e0a1b2c3d44e5f8a9b0c1d2e3f4a01', name: 'Risk & Compliance' },
  { id: 'c4e0a1b2c3d44e5f8a9b0c1d2e3f4a02', name: 'Brand Consistency' },
  { id: 'c4e0a1b2c3d44e5f8a9b0c1d2e3f4a03', name: 'Message Clarity' },
  { id: 'c4e0a1b2c3d44e5f8a9b0c1d2e3f4a04', name: 'Channel Readiness' },
];

export const RENDITION_PRESETS = [
  { name: 'thumbnail', format: 'png', size: 256, usages: ['thumbnail'] },
  { name: 'web', format: 'jpg', size: 1024, usages: ['web'] },
  { name: 'cutout', format: 'png', size: 1024, usages: ['cutout'], aiActions: ['removeBackground'] },
];

const t0 = '2025-01-01T00:00:00Z';

async function insertAll(db: Queryable, sql: string, rows: unknown[][]) {
  for (const row of rows) await db.query(sql, row as never[]);
}

const languages: Seeder = {
  name: 'languages',
  kind: 'fixed',
  async run(db) {
    await insertAll(db, 'INSERT INTO languages (id, culture, name, is_neutral) VALUES ($1, $2, $3, $4)', [
      [NEUTRAL_LANGUAGE, '', 'Neutral', true],
      [EN_US, 'en-US', 'English (United States)', false],
      [DE_DE, 'de-DE', 'German (Germany)', false],
      [FR_FR, 'fr-FR', 'French (France)', false],
    ]);
  },
};

const identity: Seeder = {
  name: 'identity',
  kind: 'fixed',
  async run(db) {
    await insertAll(
      db,
      `INSERT INTO users (id, login, password, first_name, last_name, email, is_admin, language_id, created_on, modified_on)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)`,
      [
        [1, 'admin', 'admin', 'Ada', 'Admin', 'admin@dam.example', true, EN_US, t0],
        [2, 'editor', 'editor', 'Eddie', 'Editor', 'editor@dam.example', false, EN_US, t0],
        [3, 'reviewer', 'reviewer', 'Rita', 'Reviewer', 'reviewer@dam.example', false, EN_US, t0],
      ],
    );
    await db.query(`INSERT INTO user_groups (id, name, created_on, modified_on) VALUES (10, 'Marketing', $1, $1)`, [t0]);
    await db.query('INSERT INTO user_group_members (group_id, user_id) VALUES (10, 2), (10, 3)');
    await db.query(`INSERT INTO roles (id, name) VALUES (20, 'Designer')`);
    await insertAll(db, 'INSERT INTO clients (client_id, secret, user_id, privileges) VALUES ($1, $2, $3, $4)', [
      [EMULATOR_CLIENT.clientId, EMULATOR_CLIENT.clientSecret, 1, ADMIN_PRIVILEGES],
      [EMULATOR_LIMITED_CLIENT.clientId, EMULATOR_LIMITED_CLIENT.clientSecret, 2, []],
    ]);
  },
};

const catalog: Seeder = {
  name: 'catalog',
  kind: 'fixed',
  async run(db) {
    for (const ct of CONTENT_TYPES) {
      await db.query('INSERT INTO content_types (id, name, labels) VALUES ($1, $2, $3)', [ct.id, ct.name, JSON.stringify([{ languageId: EN_US, value: ct.name }])]);
    }
    for (const c of CHECK_CATEGORIES) await db.query('INSERT INTO check_categories (id, name) VALUES ($1, $2)', [c.id, c.name]);
  },
};

const settings: Seeder = {
  name: 'settings',
  kind: 'fixed',
  async run(db) {
    const defs: [string, string, string, string, string, unknown][] = [
      ['.renditionPreset', '5e77a0b1c2d34e5f9a0b1c2d3e4f5a01', 'Renditions', 'Json', 'Rendition presets usable by CreateRenditions maintenance jobs.', []],
      ['.minimumAvailableTimeForPreviews', '5e77a0b1c2d34e5f9a0b1c2d3e4f5a02', 'Storage', 'Duration', 'Minimum lifetime of preview download links.', 'PT30H'],
      ['.minimumAvailableTimeForOrders', '5e77a0b1c2d34e5f9a0b1c2d3e4f5a03', 'Storage', 'Duration', 'Minimum lifetime of order download links.', 'PT30H'],
      ['.defaultLanguage', '5e77a0b1c2d34e5f9a0b1c2d3e4f5a04', 'Localization', 'Language', 'Default language of new users.', EN_US],
    ];
    for (const [name, id, category, dataType, description, defaultValue] of defs) {
      await db.query(
        'INSERT INTO setting_definitions (name, id, category, data_type, description, default_value) VALUES ($1, $2, $3, $4, $5, $6)',
        [name, id, category, dataType, description, JSON.stringify(defaultValue)],
      );
    }
    await db.query(`INSERT INTO settings (name, value) VALUES ('.renditionPreset', $1)`, [JSON.stringify(RENDITION_PRESETS)]);
  },
};

export const fixedSeeders: Seeder[] = [languages, identity, catalog, settings];
