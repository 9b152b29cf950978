// zod at the HTTP boundary: bodies are parsed here and every failure becomes the 400 error object.
import { z } from 'zod';
import { errors } from './errors';

export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw errors.validation('The request body must be a JSON object.');
  }
  const result = schema.safeParse(body);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    throw errors.validation(`Invalid request body: ${where}${issue?.message ?? 'invalid'}`);
  }
  return result.data;
}

/** The JSON Schema of a body schema for /docs; schemas that cannot be represented are left out. */
export function docSchema(schema: z.ZodType): unknown {
  try {
    return z.toJSONSchema(schema, { unrepresentable: 'any' });
  } catch {
    return undefined;
  }
}
