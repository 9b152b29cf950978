// Hover: what the property, field, operator or keyword under the cursor means, as Markdown.
import type { Criterion, Expr, LogicalOperator, Range } from './ast';
import { ACCESSORS_BY_DATA_TYPE, ALL_ACCESSORS, OPERATORS_BY_TYPE, type QueryTarget } from './catalogue';
import { sectionAt } from './document';
import { T, lex, tokenValue } from './lexer';
import { parseExpression } from './parser';
import type { QuerySchema } from './schema';
import { resolvePath } from './semantics';

export interface HoverResult {
  range: Range;
  /** Markdown. */
  contents: string;
}

export interface HoverOptions {
  target?: QueryTarget;
  schema?: QuerySchema;
  supportWildcards?: boolean;
  defaultOperator?: LogicalOperator;
}

const KEYWORD_DOCS: Record<string, string> = {
  and: '**AND** (also `+`): both sides must match.',
  or: '**OR**: either side matches.',
  not: '**NOT** (also `-`): the criterion after it must not match.',
};

function inside(r: Range, offset: number): boolean {
  return r.start <= offset && offset <= r.end && r.end > r.start;
}

function findCriterion(e: Expr | null, offset: number): Criterion | null {
  if (!e || !inside(e.range, offset)) return null;
  if (e.kind === 'criterion') return e;
  if (e.kind === 'not') return findCriterion(e.operand, offset);
  if (e.kind === 'and' || e.kind === 'or') {
    for (const o of e.operands) {
      const c = findCriterion(o, offset);
      if (c) return c;
    }
  }
  return null;
}

export function hover(text: string, offset: number, options: HoverOptions = {}): HoverResult | null {
  const target = options.target ?? 'records';
  const { ast } = parseExpression(text, { supportWildcards: options.supportWildcards, defaultOperator: options.defaultOperator });
  const c = findCriterion(ast.body, offset);
  if (c) {
    const resolved = resolvePath(c.property, target, options.schema);
    if (inside(c.property.range, offset)) {
      if (c.property.kind === 'property') {
        const p = resolved.property;
        if (!p) return { range: c.property.range, contents: `\`${c.property.name}\`: not a known ${target} property; it is sent to the service as written.` };
        const ops = OPERATORS_BY_TYPE[p.type].map((o) => '`' + o + '`').join(' ');
        return {
          range: c.property.range,
          contents: `**${p.name}** (${p.scope}): ${p.type}${p.sortable ? ', sortable' : ''}\n\n${p.description}\n\nOperators: ${ops}`,
        };
      }
      const f = resolved.field;
      const acc = c.property.accessor.join('.');
      if (f) {
        const lines = [`**${f.name}**${f.label ? ` (label: ${f.label})` : ''}: ${f.dataType} field`];
        if (f.id) lines.push(`id \`${f.id}\``);
        lines.push('Properties: ' + ACCESSORS_BY_DATA_TYPE[f.dataType].map((a) => '`' + a.path + '`').join(', '));
        if (resolved.type) lines.push(`\`${acc}\` is ${resolved.type}; operators: ${OPERATORS_BY_TYPE[resolved.type].map((o) => '`' + o + '`').join(' ')}`);
        if (f.options?.length) lines.push('Options: ' + f.options.map((o) => o.name).join(', '));
        return { range: c.property.range, contents: lines.join('\n\n') };
      }
      const entry = ALL_ACCESSORS.get(acc.toLowerCase());
      const by = c.property.by;
      return {
        range: c.property.range,
        contents:
          `Field by ${by} '${c.property.key}'` +
          (entry ? `\n\n\`${entry.path}\` exists on: ${entry.dataTypes.join(', ')}` : '') +
          (resolved.type ? `\n\nType ${resolved.type}; operators: ${OPERATORS_BY_TYPE[resolved.type].map((o) => '`' + o + '`').join(' ')}` : ''),
      };
    }
    if (c.operator && inside(c.operator.range, offset)) {
      const allowed = resolved.type ? OPERATORS_BY_TYPE[resolved.type].includes(c.operator.op) : true;
      return {
        range: c.operator.range,
        contents: `\`${c.operator.op}\`${resolved.type ? ` on ${resolved.type}` : ''}${allowed ? '' : ' (not allowed for this type)'}`,
      };
    }
  }
  const tok = lex(text).tokens.find((t) => t.kind !== T.EOF && t.start <= offset && offset <= t.end);
  if (tok && tok.kind === T.Word) {
    const doc = KEYWORD_DOCS[tokenValue(text, tok).toLowerCase()];
    if (doc) return { range: { start: tok.start, end: tok.end }, contents: doc };
  }
  if (tok && tok.kind === T.Plus) return { range: { start: tok.start, end: tok.end }, contents: KEYWORD_DOCS.and };
  return null;
}

export interface DocumentHoverOptions {
  schema?: QuerySchema;
}

const DIRECTIVE_DOCS: Record<string, string> = {
  name: '`@name`: a name for the query.',
  target: '`@target records|classifications`: which search runs the query (default records).',
  sort: '`@sort`: a sort expression (comma-separated properties, each optionally `desc`; `Rank desc` by relevance).',
  param: '`@param Name = value`: fills the placeholder `@Name`.',
  wildcards: '`@wildcards on|off`: `supportWildcards`; off makes `*` and `?` literal.',
  operator: '`@operator AND|OR`: `defaultLogicalOperator`, joins criteria written side by side.',
};

/** Hover in a `.dam-query` file; reads only the section under the cursor. */
export function hoverInDocument(text: string, offset: number, options: DocumentHoverOptions = {}): HoverResult | null {
  const section = sectionAt(text, offset);
  if (!section) return null;
  for (const d of section.directives) {
    if (inside(d.keyRange, offset)) return { range: d.keyRange, contents: DIRECTIVE_DOCS[d.key] ?? `Unknown directive \`@${d.key}\`.` };
  }
  const local = offset - section.expressionOffset;
  if (local < 0 || local > section.expression.length) return null;
  const h = hover(section.expression, local, { target: section.target, schema: options.schema, supportWildcards: section.wildcards, defaultOperator: section.defaultOperator });
  return h ? { ...h, range: { start: h.range.start + section.expressionOffset, end: h.range.end + section.expressionOffset } } : null;
}
