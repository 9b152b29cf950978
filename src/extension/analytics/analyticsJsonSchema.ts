// Builds the JSON schema of `.dam-analytics.json` (schemas/dam-analytics.schema.json) from the analytics
// catalogue, so the editor's JSON validation names the same members, operators and limits as the core.
// No `vscode` here: a unit test regenerates it and compares it with the shipped file.
import {
  MAX_LIMIT,
  factDomainNames,
  filterOperators,
  granularities,
  joinedGroupNames,
  membersOf,
  type DomainName,
} from '../../core/analytics';

export function analyticsJsonSchema(): Record<string, unknown> {
  const domains: DomainName[] = [...factDomainNames, ...joinedGroupNames];
  const all = domains.flatMap((d) => membersOf(d));
  const measures = all.filter((m) => m.kind === 'measure').map((m) => m.name);
  const dimensions = all.filter((m) => m.kind === 'dimension').map((m) => m.name);
  const timeDimensions = all.filter((m) => m.kind === 'dimension' && m.type === 'time').map((m) => m.name);
  const member = { enum: [...measures, ...dimensions] };
  // A time dimension with a granularity is an output key of its own (`Views.viewDate.month`), which `order`
  // may name as the analytics core does: without these the ready-made "Downloads by month" failed the schema.
  const orderKey = { enum: [...measures, ...dimensions, ...timeDimensions.flatMap((d) => granularities.map((g) => `${d}.${g}`))] };
  const direction = { enum: ['asc', 'desc'] };
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'DAM analytics query',
    description: 'One analytics query object (Cube-style) for the analytics API. Generated from the analytics catalogue of DAM Workbench.',
    type: 'object',
    additionalProperties: false,
    properties: {
      measures: { type: 'array', items: { enum: measures }, uniqueItems: true, description: 'Measures to compute, `Domain.measure`.' },
      measure: { description: 'Older spelling of `measures` seen in the spec\'s examples.', anyOf: [{ enum: measures }, { type: 'array', items: { enum: measures } }] },
      dimensions: { type: 'array', items: { enum: dimensions }, uniqueItems: true, description: 'Dimensions to group by.' },
      filters: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['member', 'operator'],
          properties: {
            member,
            operator: { enum: [...filterOperators] },
            values: { type: 'array', items: { type: 'string' }, description: 'Values are strings, also for numbers and dates.' },
          },
        },
      },
      timeDimensions: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['dimension'],
          properties: {
            dimension: { enum: timeDimensions },
            granularity: { enum: [...granularities] },
            dateRange: {
              anyOf: [
                { type: 'string', description: 'A relative range such as `last 30 days`, `this month`.' },
                { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 2, description: '`[from, to]` dates, `YYYY-MM-DD`.' },
              ],
            },
          },
        },
      },
      order: {
        anyOf: [
          { type: 'object', propertyNames: orderKey, additionalProperties: direction },
          { type: 'array', items: { type: 'array', items: [orderKey, direction], minItems: 2, maxItems: 2 } },
        ],
      },
      limit: { type: 'integer', minimum: 0, maximum: MAX_LIMIT, description: `Rows per answer; the service returns at most ${MAX_LIMIT}.` },
      offset: { type: 'integer', minimum: 0 },
      timezone: { type: 'string', description: 'IANA time zone, e.g. `Europe/Amsterdam`.' },
    },
  };
}
