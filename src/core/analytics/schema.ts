// The analytics query object as a zod schema (the trust boundary of the route and the client) and its inferred type.
import { z } from 'zod';

export const orderDirectionSchema = z.enum(['asc', 'desc']);

export const filterSchema = z.strictObject({
  member: z.string(),
  operator: z.string(),
  values: z.array(z.string()).optional(),
});

export const timeDimensionSchema = z.strictObject({
  dimension: z.string(),
  granularity: z.string().optional(),
  dateRange: z.union([z.string(), z.tuple([z.string(), z.string()])]).optional(),
});

/** Cube takes `order` as an object (member → direction) or as an array of pairs; the spec documents the object. */
export const orderSchema = z.union([z.record(z.string(), orderDirectionSchema), z.array(z.tuple([z.string(), orderDirectionSchema]))]);

export const analyticsQuerySchema = z.strictObject({
  measures: z.array(z.string()).optional(),
  /** Old spelling seen in two of the spec's simple examples. */
  measure: z.union([z.string(), z.array(z.string())]).optional(),
  dimensions: z.array(z.string()).optional(),
  filters: z.array(filterSchema).optional(),
  timeDimensions: z.array(timeDimensionSchema).optional(),
  order: orderSchema.optional(),
  limit: z.number().int().min(0).optional(),
  offset: z.number().int().min(0).optional(),
  timezone: z.string().optional(),
});

export type AnalyticsQuery = z.infer<typeof analyticsQuerySchema>;
export type AnalyticsFilter = z.infer<typeof filterSchema>;
export type AnalyticsTimeDimension = z.infer<typeof timeDimensionSchema>;
export type OrderDirection = z.infer<typeof orderDirectionSchema>;

/** The attributes the query object may have, for messages and completion. */
export const queryAttributes = Object.keys(analyticsQuerySchema.shape) as (keyof AnalyticsQuery)[];

/** One row of an answer: every value is a string (or null), as the service sends them. */
export const analyticsRowSchema = z.record(z.string(), z.string().nullable());
export const analyticsAnswerSchema = z.object({ data: z.array(analyticsRowSchema) });
export type AnalyticsRow = z.infer<typeof analyticsRowSchema>;
export type AnalyticsAnswer = z.infer<typeof analyticsAnswerSchema>;
