// The file name an export proposes: after the query file and the query (`bulk – Golden records.csv`), not after the
// name the editor makes up for a query without `# @name` (`Query 3 (q3.dam-query)`, which gave `Query_3_q3.dam-query_.csv`).

/** Characters file systems and shells take without quoting trouble; anything else becomes `_`. */
const safe = (text: string) =>
  text
    .replace(/[^\p{L}\p{N} ._–-]+/gu, '_')
    .replace(/\s+/g, ' ')
    .replace(/^[ .]+|[ .]+$/g, '')
    .slice(0, 80);

/** `requestName` as the query editor names a request; `sourcePath` the query file's path, when known. */
export function exportFileName(requestName: string, sourcePath: string | undefined, extension: string): string {
  let file = sourcePath?.replace(/^.*[\\/]/, '').replace(/\.dam-query$/, '');
  let query = requestName;
  const madeUp = /^Query (\d+) \((.+?)\.dam-query\)$/.exec(requestName);
  const atLine = /^(.+?)\.dam-query:(\d+)$/.exec(requestName);
  if (madeUp) [query, file] = [`Query ${madeUp[1]}`, madeUp[2]];
  else if (atLine) [query, file] = [`line ${atLine[2]}`, atLine[1]];
  const parts = [file, query].map((p) => (p ? safe(p) : '')).filter(Boolean);
  return `${parts.join(' – ') || 'results'}.${extension}`;
}

/** The grid's columns the service can sort by, as its sort property (the others are sorted in the grid only). */
export const SERVICE_SORT: Readonly<Record<string, string>> = { title: 'Title', modified: 'ModifiedOn', id: 'Id' };
