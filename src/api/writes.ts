// What a create or an update answered, read the same way whatever the service sent back: live tenants answer a
// create with the resource, or only `{ "id": … }`, or 201 with a Location and no body, and an update with 200 and
// the resource or 204 No Content (real-service-notes). Callers get the whole resource either way.
import type { z } from 'zod';
import { ResponseShapeError } from './errors';
import type { HttpClient, RequestSpec } from './http';

/** POSTs `spec` and answers the created resource: the body when it is whole, else read back by its id or Location. */
export async function createAndRead<T>(http: HttpClient, spec: RequestSpec<unknown>, schema: z.ZodType<T>, pathOfId: (id: string) => string): Promise<T> {
  const res = await http.request<unknown>({ ...spec, method: spec.method ?? 'POST', schema: undefined, idempotent: spec.idempotent ?? false });
  const whole = schema.safeParse(res.data);
  if (whole.success) return whole.data;
  const id = (res.data as { id?: unknown } | undefined)?.id;
  const readSpec = { accept: spec.accept, headers: spec.headers, endpoint: spec.endpoint, schema, signal: spec.signal };
  if (typeof id === 'string' || typeof id === 'number') return (await http.request({ ...readSpec, path: pathOfId(String(id)) })).data;
  const location = res.headers.get('location');
  if (location) return (await http.request({ ...readSpec, url: location })).data;
  throw new ResponseShapeError(`${spec.method ?? 'POST'} ${spec.path ?? spec.url} answered ${res.status} without the created resource, its id or a Location.`);
}

/** PUTs `spec` and reads the resource again at `path` (a 204 carries nothing; a 200 may carry a partial body). */
export async function updateAndRead<T>(http: HttpClient, spec: RequestSpec<unknown>, schema: z.ZodType<T>): Promise<T> {
  await http.request({ ...spec, method: spec.method ?? 'PUT', responseType: 'none', schema: undefined });
  return (await http.request({ path: spec.path, url: spec.url, endpoint: spec.endpoint, accept: spec.accept, headers: spec.headers, schema, signal: spec.signal })).data;
}
