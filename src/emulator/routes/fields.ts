// Field definitions and field groups: list (filter/sort/paging), read, create, partial update, delete.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { EmulatorContext } from '../context';
import { core, fieldDefinitionType, fieldGroupType, load, type FieldDefinitionRow, type FieldGroupRow } from '../domain/model';
import { newGuid } from '../domain/records';
import { normaliseGuid, render, renderContext } from '../hal';
import { FIELD_DATA_TYPES } from '../../core/search';
import { docSchema, parseBody } from '../validate';
import { listSmall } from './collection';

const Label = z.object({ languageId: z.string().max(100), value: z.string().max(1000) });
const Option = z.object({ id: z.string().max(100).optional(), name: z.string().min(1).max(500), label: z.string().max(1000).optional() });

export const FieldDefinitionBody = z
  .object({
    name: z.string().min(1).max(500).nullish(),
    labels: z.array(Label).max(100).nullish(),
    dataType: z.enum(FIELD_DATA_TYPES).nullish(),
    fieldGroupId: z.string().max(100).nullish(),
    isRequired: z.boolean().nullish(),
    isLocalizable: z.boolean().nullish(),
    defaultValue: z.object({ value: z.unknown().optional(), values: z.array(z.unknown()).max(1000).optional() }).nullish(),
    items: z
      .object({ addOrUpdate: z.array(Option).max(1000).optional(), remove: z.array(z.union([z.string(), z.object({ id: z.string() })])).max(1000).optional() })
      .nullish(),
    rootClassificationId: z.string().max(100).nullish(),
    sortIndex: z.number().int().nullish(),
  })
  .loose();

export const FieldGroupBody = z
  .object({ name: z.string().min(1).max(500).nullish(), labels: z.array(Label).max(100).nullish(), sortIndex: z.number().int().nullish() })
  .loose();

type Params = FastifyRequest<{ Params: { id: string } }>;

export function register(app: FastifyInstance, ctx: EmulatorContext) {
  const base = '/api/core';
  const { errors } = ctx;

  async function findDefinition(id: string): Promise<FieldDefinitionRow> {
    const guid = normaliseGuid(id);
    const row = guid
      ? (await load.fieldDefinitions(ctx.store, [guid]))[0]
      : (await ctx.store.query<FieldDefinitionRow>('SELECT * FROM field_definitions WHERE lower(name) = lower($1::text)', [id]))[0];
    if (!row) throw errors.noDataFound('field definition', id.slice(0, 100));
    return row;
  }
  async function findGroup(id: string): Promise<FieldGroupRow> {
    const guid = normaliseGuid(id);
    const row = guid ? (await load.fieldGroups(ctx.store, [guid]))[0] : undefined;
    if (!row) throw errors.noDataFound('field group', id.slice(0, 100));
    return row;
  }

  app.get(`${base}/fielddefinitions`, { schema: { summary: 'List field definitions' } }, async (request) =>
    listSmall(ctx, request, fieldDefinitionType, await ctx.store.query<FieldDefinitionRow>('SELECT * FROM field_definitions ORDER BY sort_index, name')),
  );
  app.get(`${base}/fielddefinition/:id`, { schema: { summary: 'Read a field definition (by id or name)' } }, async (request: Params) =>
    render(fieldDefinitionType, await findDefinition(request.params.id), renderContext(ctx, request)),
  );

  async function writeDefinition(id: string, body: z.infer<typeof FieldDefinitionBody>, create: boolean) {
    await ctx.store.transaction(async (tx) => {
      const current = create ? undefined : (await tx.query<FieldDefinitionRow>('SELECT * FROM field_definitions WHERE id = $1', [id]))[0];
      if (create) {
        if (!body.name || !body.dataType) throw errors.validation('name and dataType are required.');
        await tx.query('INSERT INTO field_definitions (id, name, data_type, labels) VALUES ($1, $2, $3, $4)', [
          id,
          body.name,
          body.dataType,
          JSON.stringify(body.labels ?? [{ languageId: '00000000000000000000000000000000', value: body.name }]),
        ]);
      } else if (body.dataType && body.dataType !== current?.data_type) {
        throw errors.validation('The dataType of an existing field definition cannot change.');
      }
      const sets: string[] = [];
      const params: unknown[] = [];
      const set = (column: string, value: unknown) => {
        params.push(value);
        sets.push(`${column} = $${params.length}`);
      };
      if (body.name !== undefined && !create) {
        if (body.name === null) throw errors.validation('name cannot be reset.');
        set('name', body.name);
      }
      if (body.labels !== undefined && !create) set('labels', JSON.stringify(body.labels ?? []));
      if (body.fieldGroupId !== undefined) {
        const group = body.fieldGroupId === null ? null : normaliseGuid(body.fieldGroupId);
        if (body.fieldGroupId !== null && (!group || !(await tx.query('SELECT 1 FROM field_groups WHERE id = $1', [group])).length)) {
          throw errors.noDataFound('field group', body.fieldGroupId);
        }
        set('field_group_id', group);
      }
      if (body.isRequired !== undefined) set('is_required', body.isRequired ?? false);
      if (body.isLocalizable !== undefined) set('is_localizable', body.isLocalizable ?? false);
      if (body.defaultValue !== undefined) set('default_value', body.defaultValue === null ? null : JSON.stringify(body.defaultValue));
      if (body.rootClassificationId !== undefined) set('root_classification_id', body.rootClassificationId ? normaliseGuid(body.rootClassificationId) : null);
      if (body.sortIndex !== undefined) set('sort_index', body.sortIndex ?? 0);
      if (body.items) {
        let options = current?.options ?? [];
        const removed = new Set((body.items.remove ?? []).map((r) => (typeof r === 'string' ? r : r.id)).map((r) => normaliseGuid(r) ?? r));
        options = options.filter((o) => !removed.has(o.id));
        for (const o of body.items.addOrUpdate ?? []) {
          const oid = (o.id && normaliseGuid(o.id)) || newGuid();
          const next = { id: oid, name: o.name, label: o.label ?? o.name };
          const at = options.findIndex((x) => x.id === oid);
          if (at >= 0) options[at] = next;
          else options = [...options, next];
        }
        set('options', JSON.stringify(options));
      }
      set('modified_on', ctx.clock.now().toISOString());
      params.push(id);
      await tx.query(`UPDATE field_definitions SET ${sets.join(', ')} WHERE id = $${params.length}`, params as never[]);
    });
  }

  for (const path of [`${base}/fielddefinition`, `${base}/fielddefinitions`]) {
    app.post(path, { schema: { summary: 'Create a field definition' }, config: { bodySchema: docSchema(FieldDefinitionBody) } }, async (request, reply) => {
      const body = parseBody(FieldDefinitionBody, request.body);
      const id = newGuid();
      await writeDefinition(id, body, true);
      const rc = renderContext(ctx, request);
      reply.code(201).header('Location', `${core(rc)}/fielddefinition/${id}`);
      return render(fieldDefinitionType, await findDefinition(id), rc);
    });
  }
  app.put(`${base}/fielddefinition/:id`, { schema: { summary: 'Update a field definition' }, config: { bodySchema: docSchema(FieldDefinitionBody) } }, async (request: Params) => {
    const body = parseBody(FieldDefinitionBody, request.body);
    const row = await findDefinition(request.params.id);
    await writeDefinition(row.id, body, false);
    return render(fieldDefinitionType, await findDefinition(row.id), renderContext(ctx, request));
  });
  app.delete(`${base}/fielddefinition/:id`, { schema: { summary: 'Delete a field definition and its values' } }, async (request: Params, reply) => {
    const row = await findDefinition(request.params.id);
    await ctx.store.query('DELETE FROM field_definitions WHERE id = $1', [row.id]);
    return reply.code(204).send();
  });

  app.get(`${base}/fieldgroups`, { schema: { summary: 'List field groups' } }, async (request) =>
    listSmall(ctx, request, fieldGroupType, await ctx.store.query<FieldGroupRow>('SELECT * FROM field_groups ORDER BY sort_index, name')),
  );
  app.get(`${base}/fieldgroup/:id`, { schema: { summary: 'Read a field group' } }, async (request: Params) =>
    render(fieldGroupType, await findGroup(request.params.id), renderContext(ctx, request)),
  );
  for (const path of [`${base}/fieldgroup`, `${base}/fieldgroups`]) {
    app.post(path, { schema: { summary: 'Create a field group' }, config: { bodySchema: docSchema(FieldGroupBody) } }, async (request, reply) => {
      const body = parseBody(FieldGroupBody, request.body);
      if (!body.name) throw errors.validation('name is required.');
      const id = newGuid();
      await ctx.store.query('INSERT INTO field_groups (id, name, labels, sort_index) VALUES ($1, $2, $3, $4)', [
        id,
        body.name,
        JSON.stringify(body.labels ?? [{ languageId: '00000000000000000000000000000000', value: body.name }]),
        body.sortIndex ?? 0,
      ]);
      const rc = renderContext(ctx, request);
      reply.code(201).header('Location', `${core(rc)}/fieldgroup/${id}`);
      return render(fieldGroupType, await findGroup(id), rc);
    });
  }
  app.put(`${base}/fieldgroup/:id`, { schema: { summary: 'Update a field group' }, config: { bodySchema: docSchema(FieldGroupBody) } }, async (request: Params) => {
    const body = parseBody(FieldGroupBody, request.body);
    const row = await findGroup(request.params.id);
    if (body.name === null) throw errors.validation('name cannot be reset.');
    await ctx.store.query('UPDATE field_groups SET name = $1, labels = $2, sort_index = $3, modified_on = $4 WHERE id = $5', [
      body.name ?? row.name,
      JSON.stringify(body.labels === undefined ? row.labels : (body.labels ?? [])),
      body.sortIndex === undefined ? row.sort_index : (body.sortIndex ?? 0),
      ctx.clock.now().toISOString(),
      row.id,
    ]);
    return render(fieldGroupType, await findGroup(row.id), renderContext(ctx, request));
  });
  app.delete(`${base}/fieldgroup/:id`, { schema: { summary: 'Delete a field group' } }, async (request: Params, reply) => {
    const row = await findGroup(request.params.id);
    await ctx.store.query('DELETE FROM field_groups WHERE id = $1', [row.id]);
    return reply.code(204).send();
  });
}
