// The `.fileVersionCreatedHooks` setting (src/emulator/domain/fileVersionHooks.ts), added to stores seeded before it existed.
import type { Migration } from '../migrate';

export const rules: Migration = {
  id: '005-rule-hooks',
  sql: `
INSERT INTO setting_definitions (name, id, category, data_type, description, default_value)
VALUES ('.fileVersionCreatedHooks', '5e77a0b1c2d34e5f9a0b1c2d3e4f5a05', 'Integration', 'Json',
  'URLs called when a file version is created: a list of { "url": …, "mode": "json" | "page-hook" }.', '[]')
ON CONFLICT (name) DO NOTHING;
`,
};
