// The check framework: the four fixed categories, checks, check results on file versions and their findings.
// Shapes follow real-service-notes (lists are `{ items }`, a result carries a `findings` link, creates answer the
// resource, updates 204); check definitions are the administrator's, results anyone's who may read the version.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { Rights } from '../caller';
import type { EmulatorContext } from '../context';
import { checkResults, checks, findings, type CheckRow, type FindingRow, type ResultRow } from '../domain/checks';
import { core } from '../domain/model';
import { normaliseGuid, renderContext } from '../hal';
import { Segment, created, noContent, route } from '../routeTable';
import { CheckCategorySchema, CheckResultSchema, CheckSchema, FindingSchema, list } from '../schemas';

// Enums bind case-insensitively in ASP.NET: a public SDK's examples send "Pass" and "Fail".
const Outcome = z.preprocess((v) => (typeof v === 'string' ? v.toLowerCase() : v), z.enum(['pass', 'fail', 'warning', 'info']));
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

const IdParams = z.object({ id: Segment });
const VersionParams = z.object({ versionId: Segment });
const ResultParams = VersionParams.extend({ resultId: Segment });
const FindingParams = ResultParams.extend({ occurrence: Segment });

const iso = (d: Date) => new Date(d).toISOString();

export function register(app: FastifyInstance, ctx: EmulatorContext) {
  const { store } = ctx;
  const tag = 'Checks';
  const base = (request: FastifyRequest) => core(renderContext(ctx, request));

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

  route(app, ctx, {
    method: 'GET',
    url: '/api/core/checkcategories',
    summary: 'The four fixed check categories',
    tag,
    responses: { 200: { description: 'The categories', schema: list(CheckCategorySchema) } },
    handler: async ({ request }) => {
      const rows = await checks.categories(store);
      return { items: rows.map((c) => renderCategory(request, c)), totalCount: rows.length };
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: '/api/core/checkcategories/:id',
    summary: 'Read a check category',
    tag,
    params: IdParams,
    responses: { 200: { description: 'The category', schema: CheckCategorySchema } },
    handler: async ({ params, request }) => renderCategory(request, await checks.category(store, params.id)),
  });

  route(app, ctx, {
    method: 'GET',
    url: '/api/core/checks',
    summary: 'List checks',
    tag,
    responses: { 200: { description: 'The checks', schema: list(CheckSchema) } },
    handler: async ({ request }) => {
      const rows = await checks.list(store);
      return { items: rows.map((c) => renderCheck(request, c)), totalCount: rows.length };
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: '/api/core/checks/:id',
    summary: 'Read a check',
    tag,
    params: IdParams,
    responses: { 200: { description: 'The check', schema: CheckSchema } },
    handler: async ({ params, request }) => renderCheck(request, await checks.find(store, params.id)),
  });
  route(app, ctx, {
    method: 'POST',
    url: '/api/core/checks',
    summary: 'Create a check (name unique, the fixed actionTypeId, one of the four categories)',
    tag,
    rights: [Rights.SystemAdministration],
    action: 'define checks',
    body: CheckBody,
    responses: { 201: { description: 'The new check', schema: CheckSchema } },
    handler: async ({ body, request, reply }) => {
      const out = renderCheck(request, await checks.create(store, body));
      return created(reply, out._links.self.href, out);
    },
  });
  route(app, ctx, {
    method: 'PUT',
    url: '/api/core/checks/:id',
    summary: 'Update a check',
    tag,
    rights: [Rights.SystemAdministration],
    action: 'change check definitions',
    params: IdParams,
    body: CheckUpdate,
    responses: { 204: { description: 'Changed' } },
    handler: async ({ params, body, reply }) => {
      await checks.update(store, await checks.find(store, params.id), body);
      return noContent(reply);
    },
  });

  route(app, ctx, {
    method: 'DELETE',
    url: '/api/core/checks/:id',
    summary: 'Delete a check and its results',
    tag,
    rights: [Rights.SystemAdministration],
    action: 'delete check definitions',
    params: IdParams,
    responses: { 204: { description: 'Deleted' } },
    handler: async ({ params, reply }) => {
      await checks.remove(store, await checks.find(store, params.id));
      return noContent(reply);
    },
  });

  route(app, ctx, {
    method: 'POST',
    url: '/api/core/fileversion/:versionId/CheckResults',
    summary: 'Publish a check result on a file version (outcome may be null when findings give the rollup)',
    tag,
    params: VersionParams,
    body: ResultBody,
    responses: { 201: { description: 'The new result; `id` is what later calls name', schema: CheckResultSchema } },
    handler: async ({ params, body, request, reply, caller }) => {
      const version = await checkResults.fileVersion(store, params.versionId);
      const check = await checks.find(store, body.checkId);
      const out = renderResult(request, await checkResults.create(store, version, check.id, body.outcome ?? null, body.description, caller().userId));
      return created(reply, out._links.self.href, out);
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: '/api/core/fileversion/:versionId/CheckResults',
    summary: 'All check results of a file version',
    tag,
    params: VersionParams,
    responses: { 200: { description: 'The results', schema: list(CheckResultSchema) } },
    handler: async ({ params, request }) => {
      const version = await checkResults.fileVersion(store, params.versionId);
      const rows = await checkResults.ofVersion(store, version.id);
      return { items: rows.map((r) => renderResult(request, r)), totalCount: rows.length };
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: '/api/core/fileversion/:versionId/CheckResult',
    summary: 'The newest result of one check on a file version (?CheckId=)',
    tag,
    params: VersionParams,
    query: z.object({ CheckId: z.string().max(100).optional() }).loose(),
    responses: { 200: { description: 'The result', schema: CheckResultSchema } },
    handler: async ({ params, query, request }) => {
      const version = await checkResults.fileVersion(store, params.versionId);
      if (!query.CheckId) throw ctx.errors.badRequest('The query parameter CheckId is required (GET …/CheckResult?CheckId=<check id>).');
      const check = await checks.find(store, query.CheckId);
      return renderResult(request, await checkResults.latest(store, version.id, check.id));
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: '/api/core/fileversion/:versionId/CheckResult/:resultId',
    summary: 'Read a check result',
    tag,
    params: ResultParams,
    responses: { 200: { description: 'The result', schema: CheckResultSchema } },
    handler: async ({ params, request }) => renderResult(request, await checkResults.find(store, params.versionId, params.resultId)),
  });
  route(app, ctx, {
    method: 'PUT',
    url: '/api/core/fileversion/:versionId/CheckResult/:resultId',
    summary: 'Change a result (a slow check posts `info` first, then its final outcome here)',
    tag,
    params: ResultParams,
    body: ResultUpdate,
    responses: { 204: { description: 'Changed' } },
    handler: async ({ params, body, reply }) => {
      const existing = await checkResults.find(store, params.versionId, params.resultId);
      await checkResults.update(store, existing.id, body.outcome === undefined ? existing.outcome : body.outcome, body.description);
      return noContent(reply);
    },
  });
  route(app, ctx, {
    method: 'DELETE',
    url: '/api/core/fileversion/:versionId/CheckResult/:resultId',
    summary: 'Delete a check result and its findings',
    tag,
    params: ResultParams,
    responses: { 204: { description: 'Deleted' } },
    handler: async ({ params, reply }) => {
      await checkResults.remove(store, (await checkResults.find(store, params.versionId, params.resultId)).id);
      return noContent(reply);
    },
  });

  const findingsPath = '/api/core/fileversion/:versionId/CheckResult/:resultId/Findings';
  route(app, ctx, {
    method: 'POST',
    url: findingsPath,
    summary: 'Add a finding (its occurrence is its key)',
    tag,
    params: ResultParams,
    body: FindingBody,
    responses: { 201: { description: 'The new finding', schema: FindingSchema } },
    handler: async ({ params, body, request, reply }) => {
      const result = await checkResults.find(store, params.versionId, params.resultId);
      const out = renderFinding(request, result, await findings.create(store, result.id, body.occurrence, body));
      return created(reply, out._links.self.href, out);
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: findingsPath,
    summary: 'Findings of a check result',
    tag,
    params: ResultParams,
    responses: { 200: { description: 'The findings', schema: list(FindingSchema) } },
    handler: async ({ params, request }) => {
      const result = await checkResults.find(store, params.versionId, params.resultId);
      const rows = await findings.ofResult(store, result.id);
      return { items: rows.map((f) => renderFinding(request, result, f)), totalCount: rows.length };
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: `${findingsPath}/:occurrence`,
    summary: 'Read a finding',
    tag,
    params: FindingParams,
    responses: { 200: { description: 'The finding', schema: FindingSchema } },
    handler: async ({ params, request }) => {
      const result = await checkResults.find(store, params.versionId, params.resultId);
      return renderFinding(request, result, await findings.find(store, result.id, params.occurrence));
    },
  });
  route(app, ctx, {
    method: 'PUT',
    url: `${findingsPath}/:occurrence`,
    summary: 'Change a finding',
    tag,
    params: FindingParams,
    body: FindingUpdate,
    responses: { 204: { description: 'Changed' } },
    handler: async ({ params, body, reply }) => {
      const result = await checkResults.find(store, params.versionId, params.resultId);
      await findings.update(store, await findings.find(store, result.id, params.occurrence), body);
      return noContent(reply);
    },
  });
  route(app, ctx, {
    method: 'DELETE',
    url: `${findingsPath}/:occurrence`,
    summary: 'Delete a finding',
    tag,
    params: FindingParams,
    responses: { 204: { description: 'Deleted' } },
    handler: async ({ params, reply }) => {
      const result = await checkResults.find(store, params.versionId, params.resultId);
      await findings.remove(store, await findings.find(store, result.id, params.occurrence));
      return noContent(reply);
    },
  });
}
