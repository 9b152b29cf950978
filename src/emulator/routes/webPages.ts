// The emulator's stand-in for the tenant's web UI: a plain HTML page per record and classification at
// `/web/record/{id}` and `/web/classification/{id}`, which a browser opens without a bearer token (Open in Web UI
// on an emulator record opened the API's JSON and got a 401). Loopback only, like the whole emulator.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { EmulatorContext } from '../context';
import { load } from '../domain/model';
import { normaliseGuid } from '../hal';
import { Segment, route } from '../routeTable';

const IdParams = z.object({ id: Segment });
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, rows: [string, string][], note: string): string {
  const body = rows.map(([k, v]) => `<tr><th scope="row">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join('');
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} · DAM emulator</title>
<style>body{font:15px system-ui,sans-serif;margin:2rem;max-width:50rem}th{text-align:left;padding-right:1.5rem;vertical-align:top}td,th{padding:.25rem 0}</style></head>
<body><p>DAM emulator · web page</p><h1>${escapeHtml(title)}</h1><table>${body}</table><p>${escapeHtml(note)}</p></body></html>`;
}

export function register(app: FastifyInstance, ctx: EmulatorContext) {
  const tag = 'Web pages';
  const html = 'text/html; charset=utf-8';
  route(app, ctx, {
    method: 'GET',
    url: '/web/record/:id',
    summary: "A record's page, as the tenant's web UI would show it (HTML, no token needed)",
    tag,
    policy: 'docs',
    params: IdParams,
    responses: { 200: { description: 'The page', contentType: 'text/html' } },
    handler: async ({ params, reply }) => {
      const id = normaliseGuid(params.id);
      const row = id ? (await load.records(ctx.store, [id]))[0] : undefined;
      if (!row) throw ctx.errors.noDataFound('record', params.id.slice(0, 100));
      const rows: [string, string][] = [
        ['Status', row.status],
        ['Content type', row.content_type],
        ['Files', String(row.file_count)],
        ['Created', row.created_on.toISOString()],
        ['Modified', row.modified_on.toISOString()],
        ['Id', row.id],
      ];
      return reply.type(html).header('Cache-Control', 'no-store').send(page(row.title || '(no title)', rows, 'The emulator has no web UI of its own: this page shows what the record holds. Its files, fields and previews are in VS Code.'));
    },
  });
  route(app, ctx, {
    method: 'GET',
    url: '/web/classification/:id',
    summary: "A classification's page, as the tenant's web UI would show it (HTML, no token needed)",
    tag,
    policy: 'docs',
    params: IdParams,
    responses: { 200: { description: 'The page', contentType: 'text/html' } },
    handler: async ({ params, reply }) => {
      const id = normaliseGuid(params.id);
      const row = id ? (await load.classifications(ctx.store, [id]))[0] : undefined;
      if (!row) throw ctx.errors.noDataFound('classification', params.id.slice(0, 100));
      const rows: [string, string][] = [
        ['Name path', row.name_path],
        ['Identifier', row.identifier],
        ['Created', row.created_on.toISOString()],
        ['Modified', row.modified_on.toISOString()],
        ['Id', row.id],
      ];
      return reply.type(html).header('Cache-Control', 'no-store').send(page(row.labels[0]?.value || row.name, rows, 'The emulator has no web UI of its own: this page shows what the classification holds.'));
    },
  });
}
