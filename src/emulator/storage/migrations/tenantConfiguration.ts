// Tenant configuration (`dam tenant push`, `dam emulator --seed DIR`): a field definition keeps the validation and
// display properties a tenant answers (isReadOnly, validation, regularExpression, maximumLength, helpText, …) instead
// of dropping the ones the emulator does not interpret.
import type { Migration } from '../migrate';

export const tenantConfiguration: Migration = {
  id: '009-tenant-configuration',
  sql: `ALTER TABLE field_definitions ADD COLUMN properties jsonb NOT NULL DEFAULT '{}';`,
};
