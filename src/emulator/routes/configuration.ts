// Configuration resources the spec names that the emulator keeps no data for: functional permissions (a fixed
// catalogue, the rights the emulator checks), a user group's permissions, a classification's permission sets,
// and translations. Configuration exporters read every one of them in a row (a workbook tool stops
// at the first 404), so each answers the shape a tenant does: a paged collection, empty where the emulator has nothing.
import { groupGuid } from '../../core/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { Rights } from '../caller';
import type { EmulatorContext } from '../context';
import { classifications } from '../domain/classifications';
import { groups } from '../domain/directory';
import { EN_US } from '../domain/languages';
import { core } from '../domain/model';
import { defineType, renderContext } from '../hal';
import { ListQuery, Segment, route } from '../routeTable';
import { paged, resource } from '../schemas';
import { listSmall } from './collection';

interface PermissionRow {
  name: string;
  label: string;
}

/** The functional permissions the emulator checks (caller.ts `Rights`), named as a tenant names them. */
const PERMISSIONS: PermissionRow[] = [
  { name: Rights.SystemAdministration, label: 'System administration' },
  { name: Rights.ExecuteMaintenanceJobs, label: 'Execute maintenance jobs' },
  { name: Rights.ViewMaintenanceJobs, label: 'View maintenance jobs' },
];

const permissionType = defineType<PermissionRow>({
  name: 'permission',
  self: (p, rc) => `${core(rc)}/permission/${encodeURIComponent(p.name)}`,
  attributes: (p) => ({ name: p.name, label: p.label, labels: [{ languageId: EN_US, value: p.label }] }),
  relations: [],
});

/** Nothing is kept for these: the types only name the collections (they list no rows). */
const emptyType = (name: string) => defineType<never>({ name, self: (_r, rc) => `${core(rc)}/${name}`, attributes: () => ({}), relations: [] });

const PermissionSchema = resource({ name: z.string(), labels: z.array(z.object({ languageId: z.string(), value: z.string() })) });
const GroupPermissionSchema = z.object({ name: z.string(), value: z.string() });
const ClassificationPermissionsSchema = z
  .object({
    breakInheritance: z.boolean(),
    permissions: z.array(z.object({ userGroupId: z.union([z.string(), z.number()]), accessRight: z.string() })),
  })
  .loose();
const IdParams = z.object({ id: Segment });
const PERMISSION_SETS = ['ClassificationTreePermissions', 'RecordPermissions', 'DownloadPermissions'] as const;

export function register(app: FastifyInstance, ctx: EmulatorContext) {
  const base = '/api/core';
  const tag = 'Configuration';

  route(app, ctx, {
    method: 'GET',
    url: `${base}/permissions`,
    summary: 'List functional permissions (the rights the emulator checks)',
    tag,
    query: ListQuery,
    responses: { 200: { description: 'A page of permissions', schema: paged(PermissionSchema) } },
    handler: async ({ request }) => listSmall(ctx, request, permissionType, PERMISSIONS),
  });
  route(app, ctx, {
    method: 'GET',
    url: `${base}/usergroup/:id/permissions`,
    summary: "A user group's functional permissions (rights belong to callers here, so every one is None)",
    tag,
    params: IdParams,
    responses: { 200: { description: 'The permissions', schema: z.object({ items: z.array(GroupPermissionSchema) }).loose() } },
    handler: async ({ params, request }) => {
      const group = await groups.find(ctx.store, params.id);
      const items = PERMISSIONS.map((p) => ({ name: p.name, value: 'None' }));
      return { items, totalCount: items.length, _links: { self: { href: `${core(renderContext(ctx, request))}/usergroup/${groupGuid(group.id)}/permissions` } } };
    },
  });
  for (const set of PERMISSION_SETS) {
    route(app, ctx, {
      method: 'GET',
      url: `${base}/classification/:id/${set}`,
      summary: `A classification's ${set} (none set, inherited)`,
      tag,
      params: IdParams,
      responses: { 200: { description: 'The permission set', schema: ClassificationPermissionsSchema } },
      handler: async ({ params, request }) => {
        const row = await classifications.find(ctx.store, params.id);
        return { breakInheritance: false, permissions: [], _links: { self: { href: `${core(renderContext(ctx, request))}/classification/${row.id}/${set}` } } };
      },
    });
  }
  // Watermarks and rules are kept (configurationObjects.ts); translations are not.
  for (const [path, what] of [['translations', 'translations']] as const) {
    const type = emptyType(path);
    route(app, ctx, {
      method: 'GET',
      url: `${base}/${path}`,
      summary: `List ${what} (the emulator keeps none: an empty page)`,
      tag,
      query: ListQuery,
      responses: { 200: { description: `A page of ${what}`, schema: paged(resource({})) } },
      handler: async ({ request }) => listSmall(ctx, request, type, []),
    });
  }
}
