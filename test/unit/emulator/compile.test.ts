// The search compiler turns expressions into SQL whose values travel only as parameters.
import { strict as assert } from 'node:assert';
import { SEARCH_PROPERTIES, bindParameters, parseExpression, parseSearchDate, parseSort } from '../../../src/core/search';
import { ApiError } from '../../../src/emulator/errors';
import { COLUMNS, Compiler, SqlBuilder, tsQueryText, type Target } from '../../../src/emulator/search/compile';
import { decodeCursor, encodeCursor } from '../../../src/emulator/search/cursor';

const FIELDS = [
  { id: 'f1e1d0000000400080000000000000a1', name: 'Description', dataType: 'MultiLineText' },
  { id: 'f1e1d0000000400080000000000000a4', name: 'PublicationDate', dataType: 'Date' },
  { id: 'f1e1d0000000400080000000000000a2', name: 'UsageRights', dataType: 'OptionList' },
  { id: 'f1e1d0000000400080000000000000a6', name: 'Keywords', dataType: 'TextList' },
];

function compile(expression: string, target: Target = 'records', named: Record<string, unknown> = {}, parameters: unknown[] = []) {
  const bound = bindParameters(parseExpression(expression).ast, parameters, named);
  const sql = new SqlBuilder();
  const compiler = new Compiler(
    {
      target,
      now: new Date('2026-01-15T12:00:00Z'),
      resolveField: (by, key) => FIELDS.find((f) => (by === 'id' ? f.id === key : f.name.toLowerCase() === key.toLowerCase())),
    },
    sql,
  );
  return { where: compiler.compile(bound.ast), params: sql.params, compiler };
}

function rejects(fn: () => unknown, status = 400) {
  assert.throws(fn, (err: unknown) => err instanceof ApiError && err.status === status);
}

describe('emulator search compiler', () => {
  const hostile = `x'); DROP TABLE records; --`;

  for (const [expression, value] of [
    [`Title = "${hostile}"`, hostile],
    [`ContentType = '${hostile.replace(/'/g, "\\'")}'`, hostile],
    [`FieldName('Description').Value = "${hostile}"`, hostile],
    [`Classification = "${hostile}"`, hostile],
  ] as const) {
    it(`binds the value of ${expression.slice(0, 40)}… as a parameter`, () => {
      const { where, params } = compile(expression);
      assert.ok(!where.includes('DROP TABLE'), where);
      assert.ok(params.includes(value), JSON.stringify(params));
    });
  }

  it('turns wildcards into an escaped ILIKE pattern', () => {
    const { where, params } = compile('Title = sun*_50%');
    assert.match(where, /ILIKE/);
    assert.deepEqual(params, ['sun%\\_50\\%']);
  });

  it('makes contains a full-text match and Title contains a match of the title\'s own vector (its index needs no recheck)', () => {
    assert.deepEqual(compile('sunset').params, ['sunset']);
    const { where, params } = compile('Title contains "golden hour*"');
    // The expression of the records_title_tsv index (migration 008), words split at - _ . as the search index splits them.
    assert.match(where, /^to_tsvector\('simple', translate\(r\.title, '-_\.', ' {3}'\)\) @@ to_tsquery\('simple', \$1::text\)$/);
    assert.deepEqual(params, ['golden <-> hour:*']);
  });

  it('keeps only letters and digits of a full-text term', () => {
    assert.equal(tsQueryText({ text: `a & b | !c:*`, wildcard: false }), 'a <-> b <-> c');
    assert.equal(tsQueryText({ text: '&|!', wildcard: false }), undefined);
  });

  it('compares a date-only value over the whole day', () => {
    const { where, params } = compile('CreatedOn = 2025-03-01');
    assert.match(where, /created_on >= \$1::timestamptz AND r\.created_on < \$2::timestamptz/);
    assert.deepEqual(params, ['2025-03-01T00:00:00.000Z', '2025-03-02T00:00:00.000Z']);
  });

  it('reads M/D/YYYY and today (the core reads dates for the emulator and for lint alike)', () => {
    assert.equal(parseSearchDate('3/1/2025', new Date())?.start.toISOString(), '2025-03-01T00:00:00.000Z');
    assert.equal(parseSearchDate('today', new Date('2026-01-15T12:00:00Z'))?.start.toISOString(), '2026-01-15T00:00:00.000Z');
    assert.equal(parseSearchDate('2/30/2024', new Date()), undefined);
  });

  it('compiles what the core bound for @Name and ? placeholders, and refuses one left unbound', () => {
    assert.deepEqual(compile('Title = @t AND ContentType = ?', 'records', { t: 'A' }, ['Image']).params, ['A', 'Image']);
    rejects(() => compile('Title = @missing'));
  });

  it('reaches a record\'s files, master file, classifications and keywords', () => {
    assert.match(compile("FileName = '*.png'").where, /EXISTS \(SELECT 1 FROM file_versions fv JOIN files f ON f\.id = fv\.file_id WHERE fv\.record_id = r\.id AND fv\.filename ILIKE/);
    assert.match(compile("LatestVersionOfMasterfile.FileName = 'a.png'").where, /f\.is_master AND lower\(fv\.filename\) = lower/);
    assert.match(compile("Classification.NamePath = '/Products*'").where, /c2\.name_path ILIKE/);
    assert.match(compile('Keywords = sunset').where, /jsonb_array_elements_text/);
    assert.match(compile('IsMaster = true').where, /f\.is_master = \$1::boolean/);
  });

  it('takes `<>` on a record\'s files as "none is equal", and `<> ""` as "not empty"', () => {
    assert.match(compile('Extension <> pdf').where, /^NOT EXISTS/);
    assert.match(compile('Tag <> ""').where, /r\.tag IS NOT NULL AND r\.tag::text <> ''/);
  });

  it('compiles a chain of NOTs as one NOT or none', () => {
    assert.equal(compile(`${'NOT '.repeat(200)}Title = a`).where, compile('Title = a').where);
    assert.equal(compile(`${'NOT '.repeat(201)}Title = a`).where, `(NOT ${compile('Title = a').where})`);
  });

  it('refuses unknown properties, unknown fields, bad dates and numbers with 400', () => {
    rejects(() => compile('Colour = red'));
    rejects(() => compile("FieldName('Nope').Value = 1"));
    rejects(() => compile('CreatedOn > 2025-13-45'));
    rejects(() => compile('FileCount > lots'));
    rejects(() => compile('Id > 5'));
  });

  it('compiles classification properties for the classification target', () => {
    const { where, params } = compile("NamePath = '/Products/*'", 'classifications');
    assert.match(where, /c\.name_path ILIKE/);
    assert.deepEqual(params, ['/Products/%']);
  });

  it('sorts by Rank over the expression’s full-text parts and refuses unsortable properties', () => {
    const { compiler } = compile('Title contains sunny');
    const order = compiler.orderBy(parseSort('Rank desc').ast, 'r.created_on DESC');
    assert.match(order, /^ts_rank\(r\.tsv, to_tsquery\('simple', \$2::text\)\) DESC, r\.id$/);
    rejects(() => compile('*').compiler.orderBy(parseSort('ContentStatus').ast, 'r.id'));
  });
});

describe('the emulator\'s storage of the core\'s properties', () => {
  for (const target of ['records', 'classifications'] as const) {
    it(`has a column for every ${target} property of the core's table, and for nothing else`, () => {
      assert.deepEqual([...COLUMNS[target].keys()].sort(), SEARCH_PROPERTIES[target].map((p) => p.name).sort());
    });
    it(`sorts ${target} by row columns only`, () => {
      for (const p of SEARCH_PROPERTIES[target].filter((x) => x.sortable)) assert.equal(COLUMNS[target].get(p.name)?.on, 'row', p.name);
    });
  }
});

describe('emulator cursors', () => {
  const filter = { e: 'Title = a' };
  it('round-trips the offset for the same filter and sort', () => {
    assert.equal(decodeCursor('s1', encodeCursor('s1', filter, 'Title', 150), filter, 'Title'), 150);
  });
  it('refuses another sort, another filter, another tenant, or a forged cursor', () => {
    const cursor = encodeCursor('s1', filter, 'Title', 50);
    rejects(() => decodeCursor('s1', cursor, filter, 'Title desc'));
    rejects(() => decodeCursor('s1', cursor, { e: 'Title = b' }, 'Title'));
    rejects(() => decodeCursor('s2', cursor, filter, 'Title'));
    const [payload, mac] = cursor.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), o: 0 })).toString('base64url');
    rejects(() => decodeCursor('s1', `${forged}.${mac}`, filter, 'Title'));
    rejects(() => decodeCursor('s1', 'garbage', filter, 'Title'));
  });
});
