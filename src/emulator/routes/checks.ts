// The check framework: the four fixed categories, checks, check results on file versions and their findings.
// Shapes follow real-service-notes (lists are `{ items }`, a result carries a `findings` link); rules follow the
// spec's tables: unique check names, the fixed actionTypeId, outcome values, a mandatory description, an
// outcome unless findings give the rollup, findings keyed by occurrence.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CHECK_ACTION_TYPE_ID } from '../../core/contract';
import type { EmulatorContext } from '../context';
import { core } from '../domain/model';
import { normaliseGuid, renderContext } from '../hal';
import { parseBody } from '../validate';


const Outcome = z.enum(['pass', 'fail', 'warning', 'info']);
const Guid = z.string().transform((s, ctx) => {
  const id = normaliseGuid(s);
  if (!id) ctx.addIssue({ code: 'custom', message: `'${s.slice(0, 60)}' is not a GUID` });
  return id ?? '';
});

const CheckBody = z.object({ name: z.string().trim().min(1).max(200), actionTypeId: Guid, checkCategoryId: Guid });
const CheckUpdate = CheckBody.partial();
const ResultBody = z.object({
  checkId: z.string().min(1).max(100),
  outcome: Outcome.nullable().optional(),
  description: z.string().min(1, 'description (the summary) is mandatory').max(100_000),
});
const ResultUpdate = z.object({ outcome: Outcome.nullable().optional(), description: z.string().min(1).max(100_000).optional() });
const FindingBody = z.object({
  occurrence: z.number().int().min(0).max(2 ** 31 - 1),
  finding: z.string().min(1).max(10_000),
  explanation: z.string().max(100_000).nullable().optional(),
  recommendation: z.string().max(100_000).nullable().optional(),
  outcome: Outcome,
});
const FindingUpdate = FindingBody.omit({ occurrence: true }).partial();

interface CheckRow {
  id: string;
  name: string;
  action_type_id: string;
  check_category_id: string;
  created_on: Date;
  modified_on: Date;
}
interface ResultRow {
  id: string;
  file_version_id: string;
  check_id: string;
  record_id: string;
  outcome: string | null;
  description: string;
  created_on: Date;
  modified_on: Date;
  created_by: number;
}
interface FindingRow {
  result_id: string;
  occurrence: number;
  id: string;
  finding: string;
  explanation: string | null;
  recommendation: string | null;
  outcome: string;
}

const iso = (d: Date) => new Date(d).toISOString();
const newId = () => randomUUID().replace(/-/g, '');

export function register(app: FastifyInstance, ctx: EmulatorContext) {
  const { store, errors } = ctx;
  const base = (request: FastifyRequest) => core(renderContext(ctx, request));
  const param = (request: FastifyRequest, name: string) => String((request.params as Record<string, string>)[name] ?? '');

  const renderCategory = (request: FastifyRequest, c: { id: string; name: string }) => ({
    _links: { self: { href: `${base(request)}/checkcategories/${c.id}` } },
    id: c.id,
    name: c.name,
  });
  const renderCheck = (request: FastifyRequest, c: CheckRow) => ({
    _links: { self: { href: `${base(request)}/checks/${c.id}` }, category: { href: `${base(request)}/checkcategories/${c.check_category_id}` } },
    id: c.id,
    name: c.name,
    actionTypeId: c.action_type_id,
    checkCategoryId: c.check_category_id,
    createdOn: iso(c.created_on),
    modifiedOn: iso(c.modified_on),
  });
  const resultHref = (request: FastifyRequest, r: ResultRow) => `${base(request)}/fileversion/${r.file_version_id}/CheckResult/${r.id}`;
  const renderResult = (request: FastifyRequest, r: ResultRow) => ({
    _links: {
      self: { href: resultHref(request, r) },
      findings: { href: `${resultHref(request, r)}/Findings` },
      check: { href: `${base(request)}/checks/${r.check_id}` },
      fileversion: { href: `${base(request)}/fileversion/${r.file_version_id}` },
    },
    id: r.id,
    fileVersionId: r.file_version_id,
    checkId: r.check_id,
    recordId: r.record_id,
    outcome: r.outcome,
    description: r.description,
    createdOn: iso(r.created_on),
    modifiedOn: iso(r.modified_on),
    createdBy: r.created_by,
  });
  const renderFinding = (request: FastifyRequest, r: ResultRow, f: FindingRow) => ({
    _links: { self: { href: `${resultHref(request, r)}/Findings/${f.occurrence}` } },
    id: f.id,
    occurrence: f.occurrence,
    finding: f.finding,
    explanation: f.explanation,
    recommendation: f.recommendation,
    outcome: f.outcome,
  });

  async function category(id: string) {
    const rows = await store.query<{ id: string; name: string }>('SELECT id, name FROM check_categories WHERE id = $1', [normaliseGuid(id) ?? id]);
    if (!rows[0]) throw errors.noDataFound('check category', id);
    return rows[0];
  }
  async function check(id: string) {
    const rows = await store.query<CheckRow>('SELECT * FROM checks WHERE id = $1', [normaliseGuid(id) ?? id]);
    if (!rows[0]) throw errors.noDataFound('check', id);
    return rows[0];
  }
  async function fileVersion(id: string) {
    const rows = await store.query<{ id: string; record_id: string }>('SELECT id, record_id FROM file_versions WHERE id = $1', [normaliseGuid(id) ?? id]);
    if (!rows[0]) throw errors.noDataFound('file version', id);
    return rows[0];
  }
  async function result(versionId: string, resultId: string) {
    const version = await fileVersion(versionId);
    const rows = await store.query<ResultRow>('SELECT * FROM check_results WHERE id = $1 AND file_version_id = $2', [normaliseGuid(resultId) ?? resultId, version.id]);
    if (!rows[0]) throw errors.noDataFound('check result', resultId);
    return rows[0];
  }
  async function finding(r: ResultRow, occurrenceText: string) {
    const occurrence = Number(occurrenceText);
    if (!/^\d{1,10}$/.test(occurrenceText) || occurrence > 2 ** 31 - 1) throw errors.badRequest(`The occurrence '${occurrenceText.slice(0, 40)}' is not a whole number.`);
    const rows = await store.query<FindingRow>('SELECT * FROM check_findings WHERE result_id = $1 AND occurrence = $2', [r.id, occurrence]);
    if (!rows[0]) throw errors.noDataFound('finding', occurrenceText);
    return rows[0];
  }
  function checkRules(body: { actionTypeId?: string; checkCategoryId?: string }) {
    if (body.actionTypeId !== undefined && body.actionTypeId !== CHECK_ACTION_TYPE_ID) {
      throw errors.validation(`actionTypeId must be the fixed value supplied to integrators (${CHECK_ACTION_TYPE_ID}), not '${body.actionTypeId}'.`);
    }
  }
  async function uniqueName(name: string, except?: string) {
    const rows = await store.query<{ id: string }>('SELECT id FROM checks WHERE lower(name) = lower($1) AND id <> $2', [name, except ?? '']);
    if (rows[0]) throw errors.conflict(`A check named '${name}' already exists (id ${rows[0].id}); check names are unique.`);
  }

  app.get('/api/core/checkcategories', async (request) => {
    const rows = await store.query<{ id: string; name: string }>('SELECT id, name FROM check_categories ORDER BY name');
    return { items: rows.map((c) => renderCategory(request, c)), totalCount: rows.length };
  });
  app.get('/api/core/checkcategories/:id', async (request) => renderCategory(request, await category(param(request, 'id'))));

  app.get('/api/core/checks', async (request) => {
    const rows = await store.query<CheckRow>('SELECT * FROM checks ORDER BY name');
    return { items: rows.map((c) => renderCheck(request, c)), totalCount: rows.length };
  });
  app.get('/api/core/checks/:id', async (request) => renderCheck(request, await check(param(request, 'id'))));
  app.post('/api/core/checks', async (request, reply) => {
    const body = parseBody(CheckBody, request.body);
    checkRules(body);
    await category(body.checkCategoryId);
    await uniqueName(body.name);
    const rows = await store.query<CheckRow>(
      'INSERT INTO checks (id, name, action_type_id, check_category_id) VALUES ($1, $2, $3, $4) RETURNING *',
      [newId(), body.name, body.actionTypeId, body.checkCategoryId],
    );
    const out = renderCheck(request, rows[0]);
    return reply.code(201).header('Location', out._links.self.href).send(out);
  });
  app.put('/api/core/checks/:id', async (request) => {
    const existing = await check(param(request, 'id'));
    const body = parseBody(CheckUpdate, request.body);
    checkRules(body);
    if (body.checkCategoryId) await category(body.checkCategoryId);
    if (body.name) await uniqueName(body.name, existing.id);
    const rows = await store.query<CheckRow>(
      `UPDATE checks SET name = coalesce($2, name), action_type_id = coalesce($3, action_type_id),
         check_category_id = coalesce($4, check_category_id), modified_on = now() WHERE id = $1 RETURNING *`,
      [existing.id, body.name ?? null, body.actionTypeId ?? null, body.checkCategoryId ?? null],
    );
    return renderCheck(request, rows[0]);
  });

  app.post('/api/core/fileversion/:versionId/CheckResults', async (request, reply) => {
    const version = await fileVersion(param(request, 'versionId'));
    const body = parseBody(ResultBody, request.body);
    const c = await check(body.checkId);
    const caller = ctx.auth.caller(request);
    // A result created without an outcome is waiting for findings to give the rollup (spec: outcome may be null then).
    const rows = await store.query<ResultRow>(
      `INSERT INTO check_results (id, file_version_id, check_id, record_id, outcome, description, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
      [newId(), version.id, c.id, version.record_id, body.outcome ?? null, body.description, caller.userId],
    );
    const out = renderResult(request, rows[0]);
    return reply.code(201).header('Location', out._links.self.href).send(out);
  });
  app.get('/api/core/fileversion/:versionId/CheckResults', async (request) => {
    const version = await fileVersion(param(request, 'versionId'));
    const rows = await store.query<ResultRow>('SELECT * FROM check_results WHERE file_version_id = $1 ORDER BY created_on, id', [version.id]);
    return { items: rows.map((r) => renderResult(request, r)), totalCount: rows.length };
  });
  app.get('/api/core/fileversion/:versionId/CheckResult', async (request) => {
    const version = await fileVersion(param(request, 'versionId'));
    const query = request.query as Record<string, unknown>;
    const checkId = Object.entries(query).find(([k]) => k.toLowerCase() === 'checkid')?.[1];
    if (typeof checkId !== 'string' || !checkId) throw errors.badRequest('The query parameter CheckId is required (GET …/CheckResult?CheckId=<check id>).');
    const c = await check(checkId);
    const rows = await store.query<ResultRow>(
      'SELECT * FROM check_results WHERE file_version_id = $1 AND check_id = $2 ORDER BY created_on DESC, id DESC LIMIT 1',
      [version.id, c.id],
    );
    if (!rows[0]) throw errors.notFound(`File version ${version.id} has no result of check ${c.id}.`);
    return renderResult(request, rows[0]);
  });
  app.get('/api/core/fileversion/:versionId/CheckResult/:resultId', async (request) =>
    renderResult(request, await result(param(request, 'versionId'), param(request, 'resultId'))),
  );
  app.put('/api/core/fileversion/:versionId/CheckResult/:resultId', async (request) => {
    const existing = await result(param(request, 'versionId'), param(request, 'resultId'));
    const body = parseBody(ResultUpdate, request.body);
    const outcome = body.outcome === undefined ? existing.outcome : body.outcome;
    const rows = await store.query<ResultRow>(
      'UPDATE check_results SET outcome = $2, description = coalesce($3, description), modified_on = now() WHERE id = $1 RETURNING *',
      [existing.id, outcome, body.description ?? null],
    );
    return renderResult(request, rows[0]);
  });
  app.delete('/api/core/fileversion/:versionId/CheckResult/:resultId', async (request, reply) => {
    const existing = await result(param(request, 'versionId'), param(request, 'resultId'));
    await store.query('DELETE FROM check_results WHERE id = $1', [existing.id]);
    return reply.code(204).send();
  });

  const findingsPath = '/api/core/fileversion/:versionId/CheckResult/:resultId/Findings';
  app.post(findingsPath, async (request, reply) => {
    const r = await result(param(request, 'versionId'), param(request, 'resultId'));
    const body = parseBody(FindingBody, request.body);
    const taken = await store.query('SELECT 1 FROM check_findings WHERE result_id = $1 AND occurrence = $2', [r.id, body.occurrence]);
    if (taken.length) throw errors.conflict(`Check result ${r.id} already has a finding with occurrence ${body.occurrence}; occurrences are unique per result.`);
    const rows = await store.query<FindingRow>(
      `INSERT INTO check_findings (result_id, occurrence, id, finding, explanation, recommendation, outcome)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
      [r.id, body.occurrence, newId(), body.finding, body.explanation ?? null, body.recommendation ?? null, body.outcome],
    );
    const out = renderFinding(request, r, rows[0]);
    return reply.code(201).header('Location', out._links.self.href).send(out);
  });
  app.get(findingsPath, async (request) => {
    const r = await result(param(request, 'versionId'), param(request, 'resultId'));
    const rows = await store.query<FindingRow>('SELECT * FROM check_findings WHERE result_id = $1 ORDER BY occurrence', [r.id]);
    return { items: rows.map((f) => renderFinding(request, r, f)), totalCount: rows.length };
  });
  app.get(`${findingsPath}/:occurrence`, async (request) => {
    const r = await result(param(request, 'versionId'), param(request, 'resultId'));
    return renderFinding(request, r, await finding(r, param(request, 'occurrence')));
  });
  app.put(`${findingsPath}/:occurrence`, async (request) => {
    const r = await result(param(request, 'versionId'), param(request, 'resultId'));
    const existing = await finding(r, param(request, 'occurrence'));
    const body = parseBody(FindingUpdate, request.body);
    const rows = await store.query<FindingRow>(
      `UPDATE check_findings SET finding = $3, explanation = $4, recommendation = $5, outcome = $6
       WHERE result_id = $1 AND occurrence = $2 RETURNING *`,
      [
        r.id,
        existing.occurrence,
        body.finding ?? existing.finding,
        body.explanation === undefined ? existing.explanation : body.explanation,
        body.recommendation === undefined ? existing.recommendation : body.recommendation,
        body.outcome ?? existing.outcome,
      ],
    );
    return renderFinding(request, r, rows[0]);
  });
  app.delete(`${findingsPath}/:occurrence`, async (request, reply) => {
    const r = await result(param(request, 'versionId'), param(request, 'resultId'));
    const existing = await finding(r, param(request, 'occurrence'));
    await store.query('DELETE FROM check_findings WHERE result_id = $1 AND occurrence = $2', [r.id, existing.occurrence]);
    return reply.code(204).send();
  });
}
