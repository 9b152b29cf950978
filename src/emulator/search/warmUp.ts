// Warms a large tenant's search path before the emulator listens: the first request of a process otherwise pays for
// what the second does not (each statement's first parse and plan, the code's first run and its JIT, the first reads
// of the tables' pages), at a million records on PGlite the slowest first request (issue 37).
import type { SearchRequest } from '../../core/search';
import type { EmulatorContext } from '../context';
import { load } from '../domain/model';
import { runSearch } from './run';

/** The warm-up stops starting searches after this long: a start is not held for it. */
const WARM_UP_MS = 15_000;

/**
 * One records search of each kind live clients make (real-service-notes: titles, words, statuses, content types,
 * classifications by id and by name path, file names, option and text field values, dates, a combination), in the
 * default order and sorted by Title, with values read from the tenant. Built from a few cheap reads; a kind the
 * tenant has nothing for is left out.
 */
export async function warmSearches(ctx: EmulatorContext): Promise<Omit<SearchRequest, 'target'>[]> {
  const [record] = await ctx.store.query<{ title: string | null; content_type: string | null; status: string | null }>(
    `SELECT title, content_type, status FROM records ORDER BY created_on DESC LIMIT 1`,
  );
  const [classification] = await ctx.store.query<{ id: string; name_path: string }>(
    `SELECT id, name_path FROM classifications WHERE parent_id IS NOT NULL ORDER BY id LIMIT 1`,
  );
  const fields = await ctx.store.query<{ name: string; data_type: string; options: { name: string }[] | null }>(
    `SELECT name, data_type, options FROM field_definitions ORDER BY name`,
  );
  // A name written into the expression as FieldName('…'), as clients write it: only plain names.
  const plain = fields.filter((f) => /^[\w ]+$/.test(f.name));
  const option = plain.find((f) => f.data_type === 'OptionList' && Array.isArray(f.options) && f.options.length);
  const text = plain.find((f) => f.data_type === 'SingleLineText');
  const word = (record?.title ?? '').split(/\s+/).find((w) => /^[A-Za-z]{3,}$/.test(w));
  const out: Omit<SearchRequest, 'target'>[] = [{ expression: 'CreatedOn >= 2000-01-01 AND CreatedOn < 2000-01-02' }];
  if (word) out.push({ expression: `Title contains ${word.toLowerCase()}` }, { expression: word.toLowerCase() }, { expression: `LatestVersionOfMasterfile.FileName = ${word.toLowerCase()}*` });
  if (record?.status) out.push({ expression: 'ContentStatus = @s AND CreatedOn >= 2000-01-01', namedParameters: { s: record.status } });
  if (record?.content_type) out.push({ expression: 'ContentType = @t', namedParameters: { t: record.content_type } }, { expression: 'ContentType = @t', namedParameters: { t: record.content_type }, sort: 'Title' });
  if (classification) {
    out.push({ expression: 'Classification = @c', namedParameters: { c: classification.id } }, { expression: 'Classification.NamePath = @p', namedParameters: { p: classification.name_path } });
  }
  if (option) out.push({ expression: `FieldName('${option.name}').Option.Name = @o AND ModifiedOn >= 2000-01-01`, namedParameters: { o: option.options![0].name } });
  if (text) out.push({ expression: `FieldName('${text.name}') = @v`, namedParameters: { v: 'warm-up' } });
  if (word && record?.content_type && classification) {
    out.push({
      expression: `Title contains ${word.toLowerCase()} AND ContentType = @t AND Classification.NamePath = @p`,
      namedParameters: { t: record.content_type, p: classification.name_path },
    });
  }
  return out;
}

/**
 * Runs the warm-up searches through the requests' own code (runSearch, then the page's records read as a search
 * request reads them), results discarded. Nothing is written and no request is made: the trail, the journal and the
 * request inspector see none of it. A search that fails is skipped (the warm-up never stops a start).
 */
export async function warmUpSearches(ctx: EmulatorContext, log: (line: string) => void, budgetMs = WARM_UP_MS): Promise<void> {
  const started = performance.now();
  let ran = 0;
  /** Each search's time: the first's over the others' is what a first request would have paid. */
  const took: number[] = [];
  try {
    for (const search of await warmSearches(ctx)) {
      if (performance.now() - started > budgetMs) break;
      const at = performance.now();
      try {
        const result = await runSearch(ctx, { target: 'records', ...search }, { offset: 0, limit: 50 });
        await load.records(ctx.store, result.ids);
        ran++;
        took.push(Math.round(performance.now() - at));
      } catch (err) {
        log(`search warm-up: ${search.expression}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  } catch (err) {
    log(`search warm-up: ${err instanceof Error ? err.message : String(err)}`);
  }
  log(`search warm-up: ${ran} searches in ${Math.round(performance.now() - started)} ms (each: ${took.join(', ')} ms)`);
}
