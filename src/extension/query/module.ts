// Entry of dist/query.js: the `.dam-query` language features, results panel and analytics diagnostics,
// required on first use (lazyQuery.ts) so that activation loads neither the language core nor zod.
export { QueryLanguage, type QueryLanguageDeps, type ExportOutcome } from './language';
export { AnalyticsDiagnostics, diagnoseAnalytics, isAnalyticsDocument } from '../analytics/analyticsDiagnostics';
export type { RunOutcome } from './resultsPanel';
export type { LintStats } from './diagnostics';
