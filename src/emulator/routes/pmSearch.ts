// POST api/<resources>/search, one rule for every work-management resource (tasks, projects, activities, users,
// groups): the body is a PmSearchRequest (the SDK types every search body so), applied to the items as rendered,
// then paged by limit and offset into the collection shape.
import type { FastifyRequest } from 'fastify';
import type { EmulatorContext } from '../context';
import type { Json } from '../hal';
import { collection, parseWindow } from '../domain/tasks/render';
import { SearchCriteriaError, matchesPmSearch } from '../domain/tasks/search';

/** The items that meet a PmSearchRequest; criteria that cannot be evaluated are a 400 with the error object. */
export function matchingOr400(ctx: EmulatorContext, items: Json[], criteria: unknown): Json[] {
  try {
    return items.filter((item) => matchesPmSearch(criteria, item as Record<string, unknown>));
  } catch (err) {
    if (err instanceof SearchCriteriaError) throw ctx.errors.badRequest(err.message);
    throw err;
  }
}

/** A page of the items that meet the request's body (none sent: every item), `_embedded.<type>`. */
export function searchPage(ctx: EmulatorContext, request: FastifyRequest, type: string, items: Json[]): Json {
  const window = parseWindow(request);
  const matching = matchingOr400(ctx, items, request.body ?? {});
  return collection(type, matching.slice(window.offset, window.offset + window.limit), matching.length, window, request, ctx.origin(request));
}

/** Whether a body is a PmSearchRequest (a criterion at its top level) rather than an older flat form of criteria. */
export function isPmSearchRequest(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const keys = ['equals', 'contains', 'greaterthan', 'lessthan', 'greaterthanorequalto', 'lessthanorequalto', 'isnull', 'isnotnull', 'and', 'or', 'not'];
  return Object.keys(body).some((k) => keys.includes(k.toLowerCase()));
}
