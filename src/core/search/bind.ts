// Substitutes `?` and `@Name` placeholders with the request's parameter values, or reports the missing ones.
import type { Expr, ScalarValue, SearchExpression, Value } from './ast';
import { DiagnosticCodes, diagnostic, type Diagnostic } from './diagnostics';

/** A named parameter's key as it travels (emulator contract: without the `@`); a key written with `@` is accepted. */
export function parameterKey(name: string): string {
  return name.startsWith('@') ? name.slice(1) : name;
}

export interface BindOptions {
  /** As `supportWildcards`: when true (default) a bound value containing `*` or `?` becomes a wildcard pattern. */
  supportWildcards?: boolean;
}

export interface BindResult {
  /** A new tree without placeholders (the input is not modified); a missing one stays a placeholder. */
  ast: SearchExpression;
  /** One error per placeholder without a value. */
  diagnostics: Diagnostic[];
}

/**
 * `positional` fills `?` in source order; `named` fills `@Name` (keys without `@`, as the contract says;
 * a key written with `@` is accepted too). A name may be used several times.
 */
export function bindParameters(
  ast: SearchExpression,
  positional: readonly unknown[],
  named: Readonly<Record<string, unknown>>,
  options: BindOptions = {},
): BindResult {
  const diagnostics: Diagnostic[] = [];
  const wildcards = options.supportWildcards ?? true;
  const lookup = new Map<string, unknown>();
  for (const [k, v] of Object.entries(named)) lookup.set(parameterKey(k), v);

  const bindScalar = (v: ScalarValue): ScalarValue => {
    if (v.kind !== 'placeholder') return v;
    let found: unknown;
    let has = false;
    if (v.name !== null) {
      if (lookup.has(v.name)) {
        has = true;
        found = lookup.get(v.name);
      } else {
        for (const [k, x] of lookup) {
          if (k.toLowerCase() === v.name.toLowerCase()) {
            has = true;
            found = x;
            break;
          }
        }
      }
    } else if (v.index !== null && v.index < positional.length) {
      has = true;
      found = positional[v.index];
    }
    if (!has || found === undefined) {
      const what = v.name !== null ? `\`@${v.name}\` has no value in namedParameters` : `\`?\` number ${(v.index ?? 0) + 1} has no value in parameters (${positional.length} given)`;
      diagnostics.push(diagnostic(DiagnosticCodes.UnboundPlaceholder, 'error', `${what}.`, v.range));
      return v;
    }
    if (found !== null && typeof found === 'object') {
      diagnostics.push(diagnostic(DiagnosticCodes.InvalidValue, 'error', 'Parameter values must be strings, numbers or booleans.', v.range));
      return v;
    }
    // An explicit null is an empty value (`Tag = ?` with null finds records without a tag).
    const text = found === null ? '' : String(found);
    if (wildcards && (text.includes('*') || text.includes('?'))) return { kind: 'wildcard', pattern: text, quote: "'", range: v.range };
    return { kind: 'literal', value: text, quote: "'", range: v.range };
  };

  const bindValue = (v: Value): Value => (v.kind === 'list' ? { ...v, items: v.items.map(bindScalar) } : bindScalar(v));

  const bindExpr = (e: Expr): Expr => {
    switch (e.kind) {
      case 'criterion':
        return e.value ? { ...e, value: bindValue(e.value) } : e;
      case 'text':
        return { ...e, value: bindScalar(e.value) };
      case 'not':
        return { ...e, operand: bindExpr(e.operand) };
      case 'and':
      case 'or':
        return { ...e, operands: e.operands.map(bindExpr) };
      default:
        return e;
    }
  };

  return { ast: { ...ast, body: ast.body ? bindExpr(ast.body) : null }, diagnostics };
}
