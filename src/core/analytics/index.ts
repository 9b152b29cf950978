// Facade of the analytics-query language: catalogue, schema, validation, lint and the typed builder.
export * from './catalogue';
export * from './codes';
export * from './dates';
export * from './schema';
export * from './validate';
export * from './builder';
export { lintAnalyticsText } from './lint';
