// The file name an export proposes (issue 35): after the query file and the query, never the editor's made-up name.
import { strict as assert } from 'node:assert';
import { exportFileName } from '../../../src/extension/query/exportName';

describe('export file name', () => {
  const cases: [string, string | undefined, string][] = [
    ['Query 3 (q3.dam-query)', '/work/q3.dam-query', 'q3 – Query 3.csv'],
    ['Query 1 (bulk.dam-query)', undefined, 'bulk – Query 1.csv'],
    ['Golden records', '/work/bulk.dam-query', 'bulk – Golden records.csv'],
    ['Golden records', undefined, 'Golden records.csv'],
    ['bulk.dam-query:7', undefined, 'bulk – line 7.csv'],
    ['Rights: "internal"/<all>', '/w/a b.dam-query', 'a b – Rights_ _internal_all_.csv'],
    ['***', undefined, '_.csv'],
  ];
  for (const [name, source, expected] of cases) {
    it(`${name}${source ? ` in ${source}` : ''} → ${expected}`, () => assert.equal(exportFileName(name, source, 'csv'), expected));
  }
});
