// Indexes for what the demo's searches use, found with EXPLAIN ANALYZE in bench/search.bench.ts and bench/scale.bench.ts.
import type { Migration } from '../migrate';

export const searchIndexes: Migration = {
  id: '007-search-indexes',
  sql: `
-- Title contains: the title's own lexemes, without weights, so a match needs no recheck against the row and a
-- count of matches can be read from the index (the weighted record vector makes every candidate row be read).
CREATE INDEX records_title_tsv ON records USING gin (to_tsvector('simple', title));
-- ContentType = …: compared case-insensitively. The index also gives the planner the statistics of lower(content_type),
-- which it otherwise guesses at 0.5% of the rows (a type is a third of them), and serves a type's newest records.
CREATE INDEX records_content_type ON records (lower(content_type), created_on, id);
-- Option and text field values compared case-insensitively, with the record, so the matching records are read
-- from the index alone.
CREATE INDEX field_values_field_lower_text ON field_values (field_id, lower(value_text), record_id);
-- The records of a classification from the index alone (DirectClassification, the explorer's pages).
CREATE INDEX record_classifications_cls_record ON record_classifications (classification_id, record_id);
DROP INDEX IF EXISTS record_classifications_cls;
`,
};
