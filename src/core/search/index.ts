// Facade of the search-expression language: the only module other layers import from src/core/search.
// Pure TypeScript, no `vscode`: the emulator evaluates these trees, the extension edits, the CLI lints.
export * from './ast';
export {
  DiagnosticCodes,
  LIMITS,
  diagnostic,
  hasErrors,
  phaseOf,
  shiftDiagnostic,
  type Diagnostic,
  type DiagnosticCode,
  type DiagnosticPhase,
  type DiagnosticSeverity,
  type QuickFix,
  type TextEdit,
} from './diagnostics';
export {
  ACCESSORS_BY_DATA_TYPE,
  SEARCH_PROPERTIES,
  FIELD_DATA_TYPES,
  OPERATORS_BY_TYPE,
  RANK_PROPERTY,
  lookupProperty,
  propertiesFor,
  type AccessorInfo,
  type PropertyScope,
  type PropertySource,
  type FieldDataType,
  type PropertyInfo,
  type PropertyType,
  type QueryTarget,
} from './catalogue';
export { FieldSchemaSchema, QuerySchemaSchema, findField, type FieldSchema, type OptionSchema, type QuerySchema } from './schema';
export { parseExpression, parseSort, type Expectation, type ParseOptions, type ParseResult } from './parser';
export {
  checkExpression,
  checkSort,
  resolvePath,
  implicitAccessor,
  operatorAllowed,
  type CheckOptions,
  type ResolvedPath,
} from './semantics';
export { guidKey, isBoolean, isGuid, isSearchNumber, parseSearchDate, type SearchDate } from './values';
export { diagnoseExpression, diagnoseSort, type DiagnoseOptions, type Diagnosed } from './diagnose';
export { bindParameters, parameterKey, type BindOptions, type BindResult } from './bind';
export { printExpression, printSort, printPath, formatExpression, formatSort, formatDocument, type FormatOptions } from './printer';
export {
  parseDocument,
  sectionAt,
  lintDocument,
  lintSection,
  type Directive,
  type LintOptions,
  type NamedParam,
  type QueryDocument,
  type QuerySection,
} from './document';
export { LineIndex, positionAt, type Position } from './positions';
export { complete, completeInDocument, mergeValues, valueKey, valuesUsedIn, type CompletionItem, type CompletionKind, type CompletionOptions, type DocumentCompletionOptions } from './completion';
export { hover, hoverInDocument, type HoverOptions, type HoverResult, type DocumentHoverOptions } from './hover';
export {
  SEARCH_DEFAULTS,
  searchExpressionObject,
  sectionRequest,
  withSearchDefaults,
  type ResolvedSearchRequest,
  type ResolvedSubExpression,
  type SearchRequest,
  type SubExpression,
} from './request';
export { quoteString } from './lexer';
