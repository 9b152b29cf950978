// The check framework through the client and raw HTTP: categories, checks and their rules, one result per run,
// latest result per check, findings keyed by occurrence, the slow-check pattern, and the spec's rollup.
import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeEachBackend, failure, runDam, USER_AGENT } from './helpers';
import { checkFileJsonSchema } from '../../src/api/checkFile';
import { discPicture, uploadBytes } from './fileFixtures';
import { ApiError } from '../../src/api/errors';
import { CHECK_ACTION_TYPE_ID, rollup } from '../../src/api/checks';

describeEachBackend('check framework', { seed: 'demo' }, (env) => {
  const client = () => env().client();
  let versionId = '';

  /** Raw requests for the status codes and error bodies the client hides behind exceptions. */
  async function raw(method: string, path: string, body?: unknown) {
    const token = await client().tokens.getToken();
    const response = await fetch(`${env().url}/api/core${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/json',
        'api-version': '1',
        'user-agent': USER_AGENT,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, location: response.headers.get('location'), body: text ? JSON.parse(text) : undefined };
  }

  before(async () => {
    const token = await uploadBytes(client(), 'checked.png', await discPicture(300, 200));
    const record = await client().files.createRecordFromUpload({ token, title: 'Checked picture' });
    versionId = (await client().files.latestVersion(record.id))!.id;
  });

  it('lists the four fixed categories and reads one by id', async () => {
    const categories = await client().checks.categories();
    assert.deepEqual(categories.map((c) => c.name).sort(), ['Brand Consistency', 'Channel Readiness', 'Message Clarity', 'Risk & Compliance']);
    const one = await raw('GET', `/checkcategories/${categories[0].id}`);
    assert.equal(one.status, 200);
    assert.equal(one.body.name, categories[0].name);
    assert.equal((await raw('GET', '/checkcategories/00000000000000000000000000000009')).status, 404);
  });

  it('creates a check with a Location header; names are unique; actionTypeId and category are checked', async () => {
    const category = (await client().checks.categories())[0];
    const created = await raw('POST', '/checks', { name: 'Logo size', actionTypeId: CHECK_ACTION_TYPE_ID, checkCategoryId: category.id });
    assert.equal(created.status, 201);
    assert.match(created.location ?? '', new RegExp(`/checks/${created.body.id}$`));
    const again = await raw('POST', '/checks', { name: 'logo SIZE', actionTypeId: CHECK_ACTION_TYPE_ID, checkCategoryId: category.id });
    assert.equal(again.status, 409);
    assert.match(again.body.exceptionMessage, /already exists/);
    const wrongType = await raw('POST', '/checks', { name: 'Other', actionTypeId: '11111111111111111111111111111111', checkCategoryId: category.id });
    assert.equal(wrongType.status, 400);
    assert.match(wrongType.body.exceptionMessage, /actionTypeId/);
    const wrongCategory = await raw('POST', '/checks', { name: 'Other', actionTypeId: CHECK_ACTION_TYPE_ID, checkCategoryId: '22222222222222222222222222222222' });
    assert.equal(wrongCategory.status, 404);
    assert.match(wrongCategory.body.exceptionType, /NoDataFoundException$/);
    // Updates answer 204 No Content (real-service-notes): the change shows on the next read.
    const renamed = await raw('PUT', `/checks/${created.body.id}`, { name: 'Logo size (v2)' });
    assert.equal(renamed.status, 204);
    assert.equal((await raw('GET', `/checks/${created.body.id}`)).body.name, 'Logo size (v2)');
  });

  it('refuses a result without a description, an unknown outcome, and an unknown file version', async () => {
    const check = await client().checks.ensure('Rules check', 'Brand Consistency');
    const noDescription = await raw('POST', `/fileversion/${versionId}/CheckResults`, { checkId: check.id, outcome: 'pass' });
    assert.equal(noDescription.status, 400);
    assert.match(noDescription.body.exceptionMessage, /description/);
    const badOutcome = await raw('POST', `/fileversion/${versionId}/CheckResults`, { checkId: check.id, outcome: 'great', description: 'x' });
    assert.equal(badOutcome.status, 400);
    const missingVersion = await raw('POST', `/fileversion/33333333333333333333333333333333/CheckResults`, { checkId: check.id, outcome: 'pass', description: 'x' });
    assert.equal(missingVersion.status, 404);
    assert.match(missingVersion.body.exceptionType, /NoDataFoundException$/);
    // The client refuses a run that breaks the spec's rules before sending anything.
    await assert.rejects(client().checks.publish(versionId, { check: 'Rules check', description: 'no outcome, no findings' }), /needs an outcome/);
  });

  it('publishes one result per run with findings keyed by occurrence, and reads the latest per check', async () => {
    const first = await client().checks.publish(versionId, {
      check: 'Claims',
      category: 'Risk & Compliance',
      description: 'Two claims need **evidence**.',
      findings: [
        { finding: 'clinically proven', outcome: 'fail', explanation: 'Needs a study', recommendation: 'Cite it' },
        { finding: 'best in class', outcome: 'warning' },
        { finding: 'made in Oslo', outcome: 'pass' },
      ],
    });
    assert.equal(first.result.outcome, null);
    assert.deepEqual(first.findings.map((f) => f.occurrence), [1, 2, 3]);
    const findings = await client().checks.findings(versionId, first.result.id);
    assert.deepEqual(rollup(first.result.outcome, findings), { color: 'red', count: 2, label: '2' });
    const one = await raw('GET', `/fileversion/${versionId}/CheckResult/${first.result.id}/Findings/2`);
    assert.equal(one.body.finding, 'best in class');
    const duplicate = await raw('POST', `/fileversion/${versionId}/CheckResult/${first.result.id}/Findings`, { occurrence: 2, finding: 'x', outcome: 'info' });
    assert.equal(duplicate.status, 409);
    assert.equal((await raw('PUT', `/fileversion/${versionId}/CheckResult/${first.result.id}/Findings/2`, { outcome: 'pass' })).status, 204);
    const edited = await raw('GET', `/fileversion/${versionId}/CheckResult/${first.result.id}/Findings/2`);
    assert.equal(edited.body.outcome, 'pass');
    assert.equal(edited.body.finding, 'best in class');
    assert.equal((await raw('DELETE', `/fileversion/${versionId}/CheckResult/${first.result.id}/Findings/3`)).status, 204);
    assert.equal((await raw('GET', `/fileversion/${versionId}/CheckResult/${first.result.id}/Findings/3`)).status, 404);

    const second = await client().checks.publish(versionId, { check: 'Claims', outcome: 'pass', description: 'All claims backed.' });
    const latest = await client().checks.latest(versionId, first.check.id);
    assert.equal(latest?.id, second.result.id);
    const all = await client().checks.results(versionId);
    assert.deepEqual(all.filter((r) => r.checkId === first.check.id).map((r) => r.id), [first.result.id, second.result.id]);
  });

  it('follows the slow-check pattern: an info result in progress, then the final outcome on the same result', async () => {
    const { result } = await client().checks.start(versionId, 'Slow OCR', 'Message Clarity');
    assert.equal(result.outcome, 'info');
    const done = await client().checks.finish(versionId, result.id, { outcome: 'warning', description: 'One blurry paragraph.' });
    assert.equal(done.result.id, result.id);
    assert.equal(done.result.outcome, 'warning');
    const deleted = await raw('DELETE', `/fileversion/${versionId}/CheckResult/${result.id}`);
    assert.equal(deleted.status, 204);
    const gone = await failure<ApiError>(() => client().get(`fileversion/${versionId}/CheckResult/${result.id}`));
    assert.equal(gone.status, 404);
  });
});

describe('check rollup (spec table)', () => {
  const f = (...outcomes: ('pass' | 'fail' | 'warning' | 'info')[]) => outcomes.map((outcome) => ({ outcome }));
  const cases: [string, Parameters<typeof rollup>, ReturnType<typeof rollup>][] = [
    ['no findings: no badge', [null, []], undefined],
    ['a fail: red, fail + warning counted', [null, f('fail', 'warning', 'pass', 'warning')], { color: 'red', count: 3, label: '3' }],
    ['warnings, no fail: orange', [null, f('warning', 'pass', 'warning')], { color: 'orange', count: 2, label: '2' }],
    ['passes only: green', [null, f('pass', 'info', 'pass')], { color: 'green', count: 2, label: '2' }],
    ['info only: gray Info', [null, f('info', 'info')], { color: 'gray', label: 'Info' }],
    ['explicit outcome overrides the rollup', ['pass', f('fail')], { color: 'green', label: 'Pass' }],
  ];
  for (const [title, args, expected] of cases) it(title, () => assert.deepEqual(rollup(...args), expected));
});

describeEachBackend('dam checks publish', { seed: 'demo' }, (env) => {
  let versionId = '';
  let dir = '';
  before(async () => {
    const client = env().client();
    const token = await uploadBytes(client, 'ci.png', await discPicture(120, 80));
    const record = await client.files.createRecordFromUpload({ token, title: 'CI checked' });
    versionId = (await client.files.latestVersion(record.id))!.id;
    dir = await mkdtemp(join(tmpdir(), 'dam-checks-'));
  });

  it('publishes a .dam-check.json with findings as one result, and exits 1 when the rollup is a fail', async () => {
    const file = join(dir, 'brand.dam-check.json');
    await writeFile(file, JSON.stringify({
      check: 'CI brand check',
      category: 'Brand Consistency',
      description: 'Logo and colours checked by CI.',
      findings: [{ finding: 'Logo too small', outcome: 'fail', recommendation: 'Use the **large** logo' }, { finding: 'Blue is off-palette', outcome: 'warning' }],
    }));
    const res = await runDam(['checks', 'publish', file, '--file-version', versionId, '--json', '--url', env().url]);
    assert.equal(res.code, 1, res.stderr);
    const out = JSON.parse(res.stdout) as { result: { id: string; outcome: null }; badge: { color: string; count: number } };
    assert.deepEqual(out.badge, { color: 'red', count: 2, label: '2' });
    const results = await env().client().checks.results(versionId);
    assert.deepEqual(results.map((r) => r.id), [out.result.id]);
    assert.equal((await env().client().checks.findings(versionId, out.result.id)).length, 2);
  });

  it('exits 0 on an info result and 2 on a file that breaks the format, sending nothing', async () => {
    const good = join(dir, 'info.dam-check.json');
    await writeFile(good, JSON.stringify({ check: 'CI brand check', outcome: 'info', description: 'See [the report](https://example.invalid/r/1).' }));
    const ok = await runDam(['checks', 'publish', good, '--file-version', versionId, '--url', env().url]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /published result \w+ of check 'CI brand check'.*info/);
    const bad = join(dir, 'bad.dam-check.json');
    await writeFile(bad, JSON.stringify({ check: 'CI brand check', description: 'no outcome and no findings' }));
    const before = (await env().client().checks.results(versionId)).length;
    const refused = await runDam(['checks', 'publish', bad, '--file-version', versionId, '--url', env().url]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /needs an outcome/);
    const typo = join(dir, 'typo.dam-check.json');
    await writeFile(typo, JSON.stringify({ check: 'x', outcome: 'passed', description: 'd' }));
    const typoRun = await runDam(['checks', 'publish', typo, '--file-version', versionId, '--url', env().url]);
    assert.equal(typoRun.code, 2);
    assert.match(typoRun.stderr, /outcome/);
    assert.equal((await env().client().checks.results(versionId)).length, before);
  });

  it('the shipped JSON schema is the one generated from the format', async () => {
    const shipped = JSON.parse(await readFile(join(__dirname, '../../schemas/dam-check.schema.json'), 'utf8'));
    assert.deepEqual(shipped, JSON.parse(JSON.stringify(checkFileJsonSchema())));
  });
});

describeEachBackend('demo tenant checks', { seed: 'demo' }, (env) => {
  it('has a few checks with results on demo file versions, some with findings', async () => {
    const client = env().client();
    const checks = await client.checks.list();
    assert.ok(checks.length >= 3, `expected demo checks, got ${checks.length}`);
    const page = await client.search.records({ expression: 'ContentType = Image' }, { take: 30 });
    let withResults = 0;
    let withFindings = 0;
    for (const record of page.items) {
      const version = await client.files.latestVersion(record.id);
      if (!version) continue;
      const results = await client.checks.results(version.id);
      if (results.length) withResults++;
      for (const r of results) if ((await client.checks.findings(version.id, r.id)).length) withFindings++;
    }
    assert.ok(withResults > 0, 'no demo image version has a check result');
    assert.ok(withFindings > 0, 'no demo check result has findings');
  });
});

describeEachBackend('rules: hooks called when a file version is created', { seed: 'empty' }, (env) => {
  let server: Server;
  let hookUrl = '';
  const calls: { contentType: string; body: string }[] = [];
  let arrived: () => void = () => undefined;

  before(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        calls.push({ contentType: String(req.headers['content-type']), body });
        res.writeHead(204).end();
        arrived();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  const nextCall = () => new Promise<void>((r) => (arrived = r));
  async function putHooks(value: unknown) {
    return env().client().http.request({ method: 'PUT', path: '/setting/.fileVersionCreatedHooks', json: { value } });
  }

  it('refuses a setting that is not a list of hooks', async () => {
    const err = await failure<ApiError>(() => putHooks([{ url: 'not a url' }]));
    assert.equal(err.status, 400);
    assert.match(err.message, /fileVersionCreatedHooks/);
  });

  it('POSTs JSON naming the record and version, and the page-hook form with a working access-token', async () => {
    await putHooks([{ url: hookUrl, mode: 'json' }, { url: hookUrl, mode: 'page-hook' }]);
    const client = env().client();
    const token = await uploadBytes(client, 'hooked.png', await discPicture(64, 64));
    const record = await client.files.createRecordFromUpload({ token, title: 'Hooked' });
    const version = (await client.files.latestVersion(record.id))!;
    // The check and the wait happen in one turn of the event loop, so no call slips between them.
    while (calls.length < 2) await nextCall();
    const json = calls.find((c) => c.contentType.startsWith('application/json'))!;
    const event = JSON.parse(json.body) as { event: string; recordId: string; fileVersionId: string; fileVersionUrl: string };
    assert.deepEqual([event.event, event.recordId, event.fileVersionId], ['FileVersionCreated', record.id, version.id]);
    assert.match(event.fileVersionUrl, new RegExp(`/api/core/fileversion/${version.id}$`));
    const form = new URLSearchParams(calls.find((c) => c.contentType.startsWith('application/x-www-form-urlencoded'))!.body);
    assert.equal(form.get('fileVersionId'), version.id);
    // The integrator's service uses the page hook's token to write the result back.
    const res = await fetch(`${env().url}/api/core/fileversion/${version.id}/CheckResults`, {
      headers: { authorization: `Bearer ${form.get('access-token')}`, accept: 'application/json', 'api-version': '1', 'user-agent': USER_AGENT },
    });
    assert.equal(res.status, 200);
  });
});
