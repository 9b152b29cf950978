// Random query-like text for property tests: real tokens, a few broken ones, random spacing.
import fc from 'fast-check';

/** Tokens real queries are made of, plus a few broken ones; the soup is these joined by random spacing. */
const TOKENS = [
  'Title', 'title', 'Kind', 'FileCount', 'CreatedOn', 'a', 'b*', 'x?y', "'sun set'", '"q"', "'it\\'s'", '\\/Root', 'a\\ b', '\\and',
  '=', '<>', '>=', '<', 'in', 'contains', 'AND', 'and', 'OR', 'or', 'NOT', 'not', '-', '+', '(', ')', '*', '?', '@P', '@',
  "FieldName('S')", "fieldid('1')", '.Value', '.Option.Name', '.', ',', '!=', '==', ';', '\\', '2024-01-01', '-5', 'today', "FieldLabel(", "'", '"',
  'desc', 'asc',
];
export const soup = fc
  .array(fc.tuple(fc.constantFrom(...TOKENS), fc.constantFrom(' ', ' ', ' ', '', '\n', '  ')), { maxLength: 14 })
  .map((parts) => parts.map(([t, s]) => t + s).join(''));

