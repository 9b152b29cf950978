// A search index splits text into words at `-`, `_` and `.` as at spaces (real-service-notes, second round): a file
// name such as `vivid-forest-photo-38.jpg` is the words vivid, forest, photo, 38, jpg. PostgreSQL's parser keeps such
// a name whole (a `file` or hyphenated token), so the text is split before it is parsed: `searchWords(x)` here is
// the same `translate` the compiler applies to every other `contains` (compile.ts SEARCH_WORDS).
import type { Migration } from '../migrate';

export const searchWords: Migration = {
  id: '008-search-words',
  sql: `
DROP INDEX IF EXISTS records_title_tsv;
DROP INDEX IF EXISTS records_tsv;
ALTER TABLE records DROP COLUMN tsv;
ALTER TABLE records ADD COLUMN tsv tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('simple', translate(title, '-_.', '   ')), 'A') || to_tsvector('simple', translate(search_text, '-_.', '   '))
) STORED;
CREATE INDEX records_tsv ON records USING gin (tsv);
CREATE INDEX records_title_tsv ON records USING gin (to_tsvector('simple', translate(title, '-_.', '   ')));
`,
};
