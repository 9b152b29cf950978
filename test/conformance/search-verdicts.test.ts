// One language, one verdict: every expression of the query fixtures (and the cases where the editor and the emulator
// used to disagree) goes through the core's lint with the tenant's fields, as `dam lint --schema` and the connected
// editor check it, and through the emulator's search endpoint as raw HTTP. A lint error is a 400; a property or field
// lint only warns about (the list is open-ended) is a 400 naming it, since the emulator cannot search what it does not
// have; anything else is a 200.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DiagnosticCodes,
  lintSection,
  parseDocument,
  searchExpressionObject,
  sectionRequest,
  type QuerySchema,
  type QuerySection,
} from '../../src/core/search';
import { EMULATOR_CLIENT } from '../../src/core/contract';
import { USER_AGENT, describeEachBackend } from './helpers';

const FIXTURES = join(__dirname, '..', 'fixtures', 'queries');

/** Cases beyond the fixtures: each side of every former disagreement, and what live clients search on. */
const EXTRA = `
### sorting records by a file property: not sortable in a record search
# @sort IsMaster desc
Title = a
### sorting by CheckedOutBy
# @sort CheckedOutBy
*
### properties the emulator knew and the editor did not
Tag = x OR Status = Released
### classification properties the emulator knew
# @target classifications
ParentId = 614c068cab7c4603bbddae8200d2722a OR Parent.Id = "" OR SortIndex > 2
### sort classifications by SortIndex
# @target classifications
# @sort SortIndex desc, Name
*
### properties live clients use
Keywords = sunset AND ContentStatus = Released
### the master file's newest version
LatestVersionOfMasterfile.FileName = '*.png' OR LatestVersionOfMasterfile.FileName = '*.pdf'
### a classification's name path
Classification.NamePath = '/Products*'
### a field without accessor means its value
FieldName('Photographer') = 'Ana Lima'
### a field without accessor in a sort
# @sort FieldName('PublicationDate') desc
*
### an invalid accessor on a known field
FieldName('Photographer').Option.Name = x
### a wrong operator on a field's accessor
FieldName('UsageRights').Option.Id contains x
### an unknown field
FieldName('Nope').Value = 1
### an unknown property
Colour = red
### empty tests on any type
ModifiedOn <> "" AND Tag = ""
### a wildcard in a date is not a date
CreatedOn = 2024*
### an old-style date that does not exist
CreatedOn = 2/30/2024
### a time that does not exist
CreatedOn > 2024-01-01T25:61:00Z
### numbers too long to compare
FileCount > 12345678901234567890
### booleans
IsMaster = true AND HasPublicUri <> 1
### a boolean that is not one
IsMaster = maybe
`;

type Verdict = 'ok' | 'refused' | 'unknown';

function lintVerdict(section: QuerySection, schema: QuerySchema): Verdict {
  // DQ4xxx are problems of the `.dam-query` file's directives, which never reach the service.
  const diagnostics = lintSection(section, { schema }).filter((d) => !d.code.startsWith('DQ4'));
  if (diagnostics.some((d) => d.severity === 'error')) return 'refused';
  if (diagnostics.some((d) => d.code === DiagnosticCodes.UnknownProperty || d.code === DiagnosticCodes.UnknownField)) return 'unknown';
  return 'ok';
}

describeEachBackend('search verdicts: dam lint and the emulator agree', {}, (env) => {
  let token = '';
  let schema: QuerySchema = { fields: [] };

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${env().url}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        'API-Version': '1',
        Accept: 'application/json',
        'User-Agent': USER_AGENT,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  before(async () => {
    const res = await fetch(`${env().url}/login/connect/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'api', client_id: EMULATOR_CLIENT.clientId, client_secret: EMULATOR_CLIENT.clientSecret }),
    });
    token = ((await res.json()) as { access_token: string }).access_token;
    // The tenant's fields, as the connected editor reads them.
    const defs = await call('GET', '/api/core/fielddefinitions?pageSize=1000');
    const items = defs.body.items as { id: string; name: string; dataType: string; labels?: { value: string }[]; options?: { id: string; name: string }[] }[];
    schema = { fields: items.map((f) => ({ id: f.id, name: f.name, label: f.labels?.[0]?.value, dataType: f.dataType as never, options: f.options })) };
    assert.ok(schema.fields!.length >= 5);
  });

  const sections = [
    ...parseDocument(readFileSync(join(FIXTURES, 'valid.dam-query'), 'utf8')).sections,
    ...parseDocument(readFileSync(join(FIXTURES, 'broken.dam-query'), 'utf8')).sections,
    ...parseDocument(EXTRA).sections,
  ].filter((s) => s.expression.trim() !== '');

  it(`gives each of ${sections.length} expressions the same verdict on both sides`, async () => {
    const disagreements: string[] = [];
    const seen = { ok: 0, refused: 0, unknown: 0 };
    for (const section of sections) {
      const expected = lintVerdict(section, schema);
      seen[expected]++;
      const request = sectionRequest(section);
      const path = `/api/core/search/${request.target}${request.sort ? `?sort=${encodeURIComponent(request.sort)}` : ''}`;
      const answer = await call('POST', path, { searchExpression: searchExpressionObject(request) });
      const got: Verdict = answer.status === 200 ? 'ok' : answer.status === 400 ? (/not a searchable property|Unknown field/.test(String(answer.body.exceptionMessage)) ? 'unknown' : 'refused') : 'refused';
      if (answer.status !== 200 && answer.status !== 400) disagreements.push(`${section.name}: HTTP ${answer.status}`);
      else if (got !== expected) disagreements.push(`${section.name ?? section.expression}: lint says ${expected}, the emulator ${answer.status} ${String(answer.body.exceptionMessage ?? '')}`);
    }
    assert.deepEqual(disagreements, []);
    // The corpus exercises all three verdicts.
    assert.ok(seen.ok > 10 && seen.refused > 10 && seen.unknown > 0, JSON.stringify(seen));
  });

  it('finds real hits for what live clients search on, over the demo tenant', async () => {
    for (const expression of [
      'Keywords = sunset',
      'ContentStatus = Released',
      "LatestVersionOfMasterfile.FileName = '*.png'",
      "Classification.NamePath = '/Products*'",
      'Classification.Name = Garden',
      "Classification.LabelPath = '/Products*'",
      "FieldName('Photographer') = 'Ana Lima'",
      'Kind = PNG',
      "FileName = '*.pdf'",
      'IsMaster = true',
    ]) {
      const answer = await call('POST', '/api/core/search/records', { searchExpression: { expression } });
      assert.equal(answer.status, 200, `${expression}: ${JSON.stringify(answer.body)}`);
      assert.ok((answer.body.totalCount as number) > 0, `${expression} found nothing`);
    }
    const all = (await call('POST', '/api/core/search/records', { searchExpression: { expression: '*' } })).body.totalCount as number;
    const released = (await call('POST', '/api/core/search/records', { searchExpression: { expression: 'ContentStatus = Released' } })).body.totalCount as number;
    const notReleased = (await call('POST', '/api/core/search/records', { searchExpression: { expression: 'ContentStatus <> Released' } })).body.totalCount as number;
    assert.equal(released + notReleased, all);
    const withPng = (await call('POST', '/api/core/search/records', { searchExpression: { expression: "FileName = '*.png'" } })).body.totalCount as number;
    const withoutPng = (await call('POST', '/api/core/search/records', { searchExpression: { expression: "FileName <> '*.png'" } })).body.totalCount as number;
    assert.equal(withPng + withoutPng, all, 'on files, <> is "no file is equal"');
  });
});
