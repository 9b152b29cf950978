// HAL helpers: reading `_links` (with `select-key`) and `_embedded`, and turning a read into a PUT body.
import { z } from 'zod';

export const HalLinkSchema = z.looseObject({
  href: z.string(),
  'select-key': z.string().optional(),
  templated: z.boolean().optional(),
  title: z.string().optional(),
});
export type HalLink = z.infer<typeof HalLinkSchema>;

/** A link relation may hold one link or an array of them. */
export const HalLinksSchema = z.record(z.string(), z.union([HalLinkSchema, z.array(HalLinkSchema)]));
export type HalLinks = z.infer<typeof HalLinksSchema>;

/** Any HAL resource; typed resources extend it through their own schemas. */
export const HalResourceSchema = z.looseObject({
  _links: HalLinksSchema.optional(),
  _embedded: z.record(z.string(), z.unknown()).optional(),
});
export type HalResource = z.infer<typeof HalResourceSchema>;

interface HasHal {
  _links?: HalLinks;
  _embedded?: Record<string, unknown>;
}

/** The first link of relation `rel`, or undefined (relations may appear any time; absent is normal). */
export function link(resource: HasHal, rel: string): HalLink | undefined {
  const value = resource._links?.[rel];
  return Array.isArray(value) ? value[0] : value;
}

/** All links of relation `rel`. */
export function links(resource: HasHal, rel: string): HalLink[] {
  const value = resource._links?.[rel];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

export function hasLink(resource: HasHal, rel: string): boolean {
  return link(resource, rel) !== undefined;
}

/** Relation name → `select-key`, for building `select-<resource>` headers from what the server offers. */
export function selectKeys(resource: HasHal): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [rel, value] of Object.entries(resource._links ?? {})) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first?.['select-key']) out[rel] = first['select-key'];
  }
  return out;
}

/**
 * The embedded value of `rel`: `undefined` when not embedded, `null` when selected but pointing to
 * missing data (spec: "null for that property when selected").
 */
export function embedded(resource: HasHal, rel: string): unknown {
  return resource._embedded?.[rel];
}

/** An embedded collection, read as `_embedded.<rel>.items[]` (or a bare array). */
export function embeddedItems(resource: HasHal, rel: string): unknown[] {
  const value = embedded(resource, rel);
  if (Array.isArray(value)) return value;
  if (value && typeof value === 'object' && Array.isArray((value as { items?: unknown }).items)) return (value as { items: unknown[] }).items;
  return [];
}

/** Parses an embedded resource with a schema; undefined when absent, null when selected as null. */
export function embeddedAs<T>(resource: HasHal, rel: string, schema: z.ZodType<T>): T | null | undefined {
  const value = embedded(resource, rel);
  if (value === undefined || value === null) return value;
  return schema.parse(value);
}

/** A copy without `_links` and `_embedded`: the read representation reused as a PUT body. */
export function stripHal<T extends object>(resource: T): Omit<T, '_links' | '_embedded'> {
  const { _links: _l, _embedded: _e, ...rest } = resource as T & HasHal;
  return rest as Omit<T, '_links' | '_embedded'>;
}
