// A record's aiInfluenced is the service's three-valued enum (Unknown | No | Yes), not a boolean: the record resource
// page of the service's own documentation and the SDK's Record model both type it so. A record never told is Unknown.
import type { Migration } from '../migrate';

export const recordAiInfluenced: Migration = {
  id: '013-record-ai-influenced',
  sql: `
ALTER TABLE records ALTER COLUMN ai_influenced DROP DEFAULT;
ALTER TABLE records ALTER COLUMN ai_influenced TYPE text USING (CASE WHEN ai_influenced THEN 'Yes' ELSE 'Unknown' END);
ALTER TABLE records ALTER COLUMN ai_influenced SET DEFAULT 'Unknown';
`,
};
