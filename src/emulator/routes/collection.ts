// Lists a small table as a paged HAL collection with filter and sort evaluated over the resources' attributes.
import type { FastifyRequest } from 'fastify';
import type { EmulatorContext } from '../context';
import { pagedCollection, parsePaging, render, renderContext, requestParam, type ResourceType } from '../hal';
import { filterAndSort } from '../search/memory';

export async function listSmall<Row>(ctx: EmulatorContext, request: FastifyRequest, type: ResourceType<Row>, rows: Row[]) {
  const rc = renderContext(ctx, request);
  const paging = parsePaging(request, ctx.config.pageSizeMax, ctx.config.pageSizeDefault);
  const withAttributes = rows.map((row) => ({ row, attrs: type.attributes(row, rc) }));
  const kept = filterAndSort(
    withAttributes.map((w) => ({ ...w.attrs, __row: w.row })),
    requestParam(request, 'filter'),
    requestParam(request, 'sort'),
  );
  const page = kept.slice(paging.offset, paging.offset + paging.limit);
  const items = await Promise.all(page.map((k) => render(type, k.__row as Row, rc)));
  return pagedCollection(rc, items, paging, kept.length);
}
