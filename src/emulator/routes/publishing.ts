// The content API's routes the SDK's modules call beside records and files (issue 36): public links, renditions, public
// URIs, download links, file types, setting categories, a record's locks and a file's check-out. Registered before the
// catalogue's relation routes, which answer the relations the emulator keeps no data for.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { userGuid } from '../../core/contract';
import { Rights } from '../caller';
import type { EmulatorContext } from '../context';
import { configurationObjects } from '../domain/configurationObjects';
import { downloadUri, loadFiles } from '../domain/files';
import { core, load } from '../domain/model';
import type { OrderRow } from '../domain/orders';
import { downloadLinks, publicLinks, renditions, tenantObjects, type RenditionRow } from '../domain/publishing';
import { defineType, normaliseGuid, pagedCollection, parsePaging, render, renderContext } from '../hal';
import { ListQuery, Segment, created, noContent, route } from '../routeTable';
import { paged, resource } from '../schemas';
import { listSmall } from './collection';
import { objectType } from './configurationObjects';

const iso = (d: Date | string) => new Date(d).toISOString();

export const publicLinkType = objectType('publiclink', () => ({ origin: 'Api', status: 'Published', canDelete: true }));
export const fileTypeType = objectType('filetype', () => ({}), [
  // The model's icon and thumbnail links; the emulator keeps no pictures for a file type.
  { key: 'icon', type: 'image', many: false, href: (o, rc) => `${core(rc)}/filetype/${o.id}/icon`, load: async () => null },
  { key: 'thumbnail', type: 'image', many: false, href: (o, rc) => `${core(rc)}/filetype/${o.id}/thumbnail`, load: async () => null },
]);
export const settingCategoryType = objectType('settingcategory', () => ({}));

export const renditionType = defineType<RenditionRow>({
  name: 'rendition',
  self: (r, rc) => `${core(rc)}/rendition/${r.id}`,
  attributes: (r) => ({
    id: r.id,
    name: r.preset ?? r.name,
    type: r.preset ? 'Preset' : 'Custom',
    extension: r.format,
    width: r.width ?? 0,
    height: r.height ?? 0,
    resizeWidth: r.width ?? 0,
    resizeHeight: r.height ?? 0,
  }),
  optional: {
    uri: (r, rc) => downloadUri(rc, 'additionalfile', r.id),
    preview: (r, rc) => downloadUri(rc, 'additionalfile', r.id),
    publishedUri: (r) => (r.links[0]?.body.uri as string | undefined) ?? null,
  },
  relations: [{ key: 'publiclinks', type: 'publiclink', many: true, href: (r, rc) => `${core(rc)}/rendition/${r.id}/publiclinks`, load: async (r) => r.links }],
});

/** A download order read as the download link it made (the SDK's DownloadLink): links minted per read, as on the order. */
export const downloadLinkType = defineType<OrderRow>({
  name: 'downloadlink',
  self: (o, rc) => `${core(rc)}/downloadlink/${o.id}`,
  attributes: (o, rc) => {
    const failed = new Set(o.errors.map((e) => e.recordId));
    const succeeded = new Set(o.delivered.map((d) => d.recordId).filter((r) => !failed.has(r)));
    return {
      id: o.id,
      type: 'DownloadOrder',
      status: o.status,
      title: `Download of ${o.targets.length} record${o.targets.length === 1 ? '' : 's'}`,
      description: '',
      deliveredFiles: o.delivered.map((d) => (d.additionalFileId ? downloadUri(rc, 'additionalfile', d.additionalFileId) : downloadUri(rc, 'fileversion', d.fileVersionId))),
      downloadAgreementIds: [],
      errorDescription: o.errors.length ? o.errors.map((e) => e.message).join('; ') : null,
      failedRecordsCount: failed.size,
      failedTargetsCount: o.errors.length,
      succeededRecordsCount: succeeded.size,
      createdOn: iso(o.created_on),
    };
  },
  relations: [
    { key: 'targets', type: 'downloadlinktarget', many: true, href: (o, rc) => `${core(rc)}/downloadlink/${o.id}/targets`, load: async (o) => o.targets },
    { key: 'createdby', type: 'user', many: false, href: (o, rc) => `${core(rc)}/user/${userGuid(o.created_by)}`, load: async (o, rc) => (await load.users(rc.ctx.store, [o.created_by]))[0] ?? null },
  ],
});

const IdParams = z.object({ id: Segment });
const ObjectBody = z.record(z.string(), z.unknown());

export function register(app: FastifyInstance, ctx: EmulatorContext) {
  const base = '/api/core';
  const tag = 'Publishing and configuration (SDK modules)';
  const { errors } = ctx;

  async function versionOr404(id: string) {
    const v = await loadFiles.version(ctx.store, normaliseGuid(id) ?? '');
    if (!v) throw errors.noDataFound('file version', id.slice(0, 100));
    return v;
  }

  // Public links
  route(app, ctx, {
    method: 'POST',
    url: `${base}/publiclinks`,
    summary: 'Create a public link to a record, a file version or an additional file (uri, provider, exactly one target id)',
    tag,
    body: ObjectBody,
    responses: { 201: { description: 'The new public link', schema: resource({ id: z.string() }) } },
    handler: async ({ body, request, reply, caller }) => {
      const id = await configurationObjects.create(ctx.store, 'publiclink', await publicLinks.prepare(ctx.store, body), String(caller().userId));
      const rc = renderContext(ctx, request);
      return created(reply, `${core(rc)}/publiclink/${id}`, await render(publicLinkType, await configurationObjects.find(ctx.store, 'publiclink', id), rc));
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/publiclink/:id`,
    summary: 'Read a public link',
    tag,
    params: IdParams,
    responses: { 200: { description: 'The public link', schema: resource({ id: z.string() }) } },
    handler: async ({ params, request }) => render(publicLinkType, await configurationObjects.find(ctx.store, 'publiclink', params.id), renderContext(ctx, request)),
  });
  route(app, ctx, {
    method: 'PUT',
    url: `${base}/publiclink/:id`,
    summary: 'Change a public link\'s uri, provider, renditionName or fileSize (its target cannot change)',
    tag,
    params: IdParams,
    body: ObjectBody,
    responses: { 204: { description: 'Changed' } },
    handler: async ({ params, body, reply, caller }) => {
      const row = await configurationObjects.find(ctx.store, 'publiclink', params.id);
      await configurationObjects.update(ctx.store, row, publicLinks.changes(row, body), String(caller().userId));
      return noContent(reply);
    },
  });
  route(app, ctx, {
    method: 'DELETE',
    url: `${base}/publiclink/:id`,
    summary: 'Delete a public link',
    tag,
    params: IdParams,
    responses: { 204: { description: 'Deleted' } },
    handler: async ({ params, reply }) => {
      await configurationObjects.remove(ctx.store, await configurationObjects.find(ctx.store, 'publiclink', params.id));
      return noContent(reply);
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/fileversion/:id/publiclinks`,
    summary: 'The public links made for a file version (and its renditions)',
    tag,
    params: IdParams,
    query: ListQuery,
    responses: { 200: { description: 'A page of public links', schema: paged(resource({ id: z.string() })) } },
    handler: async ({ params, request }) => listSmall(ctx, request, publicLinkType, await publicLinks.byMember(ctx.store, 'fileVersionId', (await versionOr404(params.id)).id)),
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/fileversion/:id/publicuris`,
    summary: 'The CDN URIs published for a file version (the emulator publishes to no CDN of its own: none)',
    tag,
    params: IdParams,
    query: ListQuery,
    responses: { 200: { description: 'An empty page', schema: paged(resource({})) } },
    handler: async ({ params, request }) => {
      await versionOr404(params.id);
      return pagedCollection(renderContext(ctx, request), [], parsePaging(request, ctx.config.pageSizeMax, ctx.config.pageSizeDefault), 0);
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/publicuri/:id`,
    summary: 'Read a public URI (none is published on the emulator: every id answers 404)',
    tag,
    params: IdParams,
    responses: { 404: { description: 'No public URI with that id (none is published)' } },
    handler: async ({ params }) => {
      throw errors.noDataFound('public uri', params.id.slice(0, 100));
    },
  });

  // Renditions
  route(app, ctx, {
    method: 'GET',
    url: `${base}/fileversion/:id/renditions`,
    summary: 'A file version\'s renditions (its additional files, read as renditions)',
    tag,
    params: IdParams,
    query: ListQuery,
    responses: { 200: { description: 'A page of renditions', schema: paged(resource({ id: z.string() })) } },
    handler: async ({ params, request }) => listSmall(ctx, request, renditionType, await renditions.ofVersion(ctx.store, (await versionOr404(params.id)).id)),
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/rendition/:id`,
    summary: 'Read a rendition',
    tag,
    params: IdParams,
    responses: { 200: { description: 'The rendition', schema: resource({ id: z.string() }) } },
    handler: async ({ params, request }) => render(renditionType, await renditions.find(ctx.store, params.id), renderContext(ctx, request)),
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/rendition/:id/publiclinks`,
    summary: 'The public links made for a rendition',
    tag,
    params: IdParams,
    query: ListQuery,
    responses: { 200: { description: 'A page of public links', schema: paged(resource({ id: z.string() })) } },
    handler: async ({ params, request }) => listSmall(ctx, request, publicLinkType, (await renditions.find(ctx.store, params.id)).links),
  });

  // Download links
  route(app, ctx, {
    method: 'GET',
    url: `${base}/downloadlinks`,
    summary: 'Download links: what the download orders delivered, newest first',
    tag,
    query: ListQuery,
    responses: { 200: { description: 'A page of download links', schema: paged(resource({ id: z.string() })) } },
    handler: async ({ request }) => listSmall(ctx, request, downloadLinkType, await downloadLinks.list(ctx.store)),
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/downloadlink/:id`,
    summary: 'Read a download link',
    tag,
    params: IdParams,
    responses: { 200: { description: 'The download link', schema: resource({ id: z.string() }) } },
    handler: async ({ params, request }) => render(downloadLinkType, await downloadLinks.find(ctx.store, params.id), renderContext(ctx, request)),
  });

  // File types and setting categories: those the tenant's data implies, and those kept
  for (const [kind, plural, type] of [
    ['filetype', 'filetypes', fileTypeType],
    ['settingcategory', 'settingcategories', settingCategoryType],
  ] as const) {
    route(app, ctx, {
      method: 'GET',
      url: `${base}/${plural}`,
      summary: `List ${plural}`,
      tag,
      query: ListQuery,
      responses: { 200: { description: `A page of ${plural}`, schema: paged(resource({ id: z.string(), name: z.string() })) } },
      handler: async ({ request }) => listSmall(ctx, request, type, await tenantObjects.list(ctx.store, kind)),
    });
    route(app, ctx, {
      method: 'GET',
      url: `${base}/${kind}/:id`,
      summary: `Read a ${kind}`,
      tag,
      params: IdParams,
      responses: { 200: { description: `The ${kind}`, schema: resource({ id: z.string(), name: z.string() }) } },
      handler: async ({ params, request }) => render(type, (await tenantObjects.find(ctx.store, kind, params.id)).row, renderContext(ctx, request)),
    });
    route(app, ctx, {
      method: 'POST',
      url: `${base}/${plural}`,
      summary: `Create a ${kind} (a name is required)`,
      tag,
      body: ObjectBody,
      responses: { 201: { description: `The new ${kind}`, schema: resource({ id: z.string(), name: z.string() }) } },
      handler: async ({ body, request, reply, caller }) => {
        const id = await tenantObjects.create(ctx.store, kind, body, String(caller().userId));
        const rc = renderContext(ctx, request);
        return created(reply, `${core(rc)}/${kind}/${id}`, await render(type, await configurationObjects.find(ctx.store, kind, id), rc));
      },
    });
    route(app, ctx, {
      method: 'PUT',
      url: `${base}/${kind}/:id`,
      summary: `Change a ${kind}: only the members sent`,
      tag,
      params: IdParams,
      body: ObjectBody,
      responses: { 204: { description: 'Changed' } },
      handler: async ({ params, body, reply, caller }) => {
        await tenantObjects.update(ctx.store, kind, params.id, body, String(caller().userId));
        return noContent(reply);
      },
    });
    route(app, ctx, {
      method: 'DELETE',
      url: `${base}/${kind}/:id`,
      summary: `Delete a ${kind} created through the API (one the tenant's data implies is in use: 400)`,
      tag,
      params: IdParams,
      responses: { 204: { description: 'Deleted' } },
      handler: async ({ params, reply }) => {
        await tenantObjects.remove(ctx.store, kind, params.id);
        return noContent(reply);
      },
    });
  }

  // A record's locks, a file's check-out
  route(app, ctx, {
    method: 'GET',
    url: `${base}/record/:id/locks`,
    summary: 'A record\'s active locks (the emulator takes none)',
    tag,
    params: IdParams,
    responses: { 200: { description: 'The locks', schema: z.object({ items: z.array(z.unknown()) }).loose() } },
    handler: async ({ params, request }) => {
      const id = normaliseGuid(params.id) ?? '';
      if (!(await load.records(ctx.store, [id])).length) throw errors.noDataFound('record', params.id.slice(0, 100));
      return { items: [], _links: { self: { href: `${core(renderContext(ctx, request))}/record/${id}/locks` } } };
    },
  });
  for (const method of ['POST', 'DELETE'] as const) {
    route(app, ctx, {
      method,
      url: `${base}/file/:id/checkouts`,
      summary: method === 'POST' ? 'Check a file out to the caller' : 'Check a file back in',
      tag,
      params: IdParams,
      body: z.unknown(),
      bodyOptional: true,
      responses: { 204: { description: method === 'POST' ? 'Checked out' : 'Checked in' }, 409: { description: 'Checked out to someone else' } },
      handler: async ({ params, reply, caller }) => {
        const file = await loadFiles.file(ctx.store, normaliseGuid(params.id) ?? '');
        if (!file) throw errors.noDataFound('file', params.id.slice(0, 100));
        const me = caller().userId;
        if (file.checked_out_by !== null && file.checked_out_by !== me && !caller().privileges.has('*') && !caller().privileges.has(Rights.SystemAdministration)) {
          throw errors.conflict(`The file is checked out to user '${userGuid(file.checked_out_by)}'.`);
        }
        if (method === 'POST') await ctx.store.query('UPDATE files SET checked_out_by = $2, checked_out_on = $3 WHERE id = $1', [file.id, me, ctx.clock.now()]);
        else await ctx.store.query('UPDATE files SET checked_out_by = NULL, checked_out_on = NULL WHERE id = $1', [file.id]);
        return noContent(reply);
      },
    });
  }
}

