// How the emulator reads what ASP.NET clients send: names in any case, scalars converted as Newtonsoft converts them,
// repeated query parameters, and the Accept header with its weights.
import { strict as assert } from 'node:assert';
import { z } from 'zod';
import { isAcceptable, wantsPlainJson } from '../../../src/emulator/hal';
import { RecordBody } from '../../../src/emulator/domain/records';
import { parsePart } from '../../../src/emulator/routeTable';

describe('request leniency', () => {
  it('binds the files section of a record body in PascalCase, down to each version', () => {
    const body = parsePart(RecordBody, { Files: { AddOrUpdate: [{ Versions: { AddOrUpdate: [{ Id: 'tok', FileName: 'b.txt', VersionLabel: 'v2' }] } }] } }, 'body');
    assert.deepEqual(body.files?.addOrUpdate?.[0]?.versions?.addOrUpdate?.[0], { id: 'tok', filename: 'b.txt', versionLabel: 'v2' });
  });

  it('reads a number or a boolean as text where the model has a string', () => {
    const renamed: string[] = [];
    assert.deepEqual(parsePart(z.object({ title: z.string(), note: z.string() }), { title: 123, note: true }, 'body', renamed), { title: '123', note: 'true' });
    assert.equal(renamed.length, 2);
  });

  it('binds a scalar query parameter sent twice to its first value, a list parameter to all of them', () => {
    const schema = z.object({ pageSize: z.string().optional(), languages: z.array(z.string()).optional() });
    assert.deepEqual(parsePart(schema, { pagesize: ['1', '2'], languages: ['a', 'b'] }, 'query'), { pageSize: '1', languages: ['a', 'b'] });
    assert.throws(() => parsePart(z.object({ title: z.string() }), { title: ['a', 'b'] }, 'body'), /title/);
  });
});

describe('content negotiation', () => {
  const cases: [string, boolean, boolean][] = [
    // Accept, acceptable, plain JSON
    ['application/hal+json', true, false],
    ['application/json', true, true],
    ['text/json', true, true],
    ['*/*', true, false],
    ['application/json, */*', true, true],
    ['application/hal+json, application/json', true, false],
    ['application/hal+json;q=0.5, application/json', true, true],
    ['application/json;q=0.1, */*', true, false],
    ['text/plain', false, false],
    ['application/json;q=0', false, false],
  ];
  for (const [accept, acceptable, plain] of cases) {
    it(`${accept}: ${acceptable ? (plain ? 'plain JSON' : 'HAL') : 'not acceptable'}`, () => {
      assert.equal(isAcceptable(accept), acceptable);
      assert.equal(wantsPlainJson(accept), plain);
    });
  }
});
