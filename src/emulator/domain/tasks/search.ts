// The work-management search body (PmSearchRequest in the SDK's model): comparisons of one field with a value, joined
// by and / or / not, evaluated over a rendered item. The route list documents POST api/<resources>/search; a browser
// inbox (Aprimo-Connect/aprimo-chrome-extension) sends an or of equals on workFlowTaskStatus and shows what comes back.

const COMPARISONS = ['equals', 'contains', 'greaterthan', 'lessthan', 'greaterthanorequalto', 'lessthanorequalto'] as const;

/** Why a criterion cannot be evaluated; the route turns it into a 400 with the error object. */
export class SearchCriteriaError extends Error {}

type Item = Record<string, unknown>;

/** Whether `item` meets `criteria`; every key of an object must hold (an empty object matches everything). */
export function matchesPmSearch(criteria: unknown, item: Item): boolean {
  if (criteria === null || criteria === undefined) return true;
  if (typeof criteria !== 'object' || Array.isArray(criteria)) throw new SearchCriteriaError('The search body must be an object of criteria (equals, contains, and, or, not, …).');
  return Object.entries(criteria as Record<string, unknown>).every(([rawKey, operand]) => {
    const key = rawKey.toLowerCase();
    if (key === 'and' || key === 'or') {
      if (!Array.isArray(operand)) throw new SearchCriteriaError(`'${rawKey}' takes a list of criteria.`);
      return key === 'and' ? operand.every((c) => matchesPmSearch(c, item)) : operand.length === 0 || operand.some((c) => matchesPmSearch(c, item));
    }
    if (key === 'not') return !matchesPmSearch(operand, item);
    if (key === 'isnull' || key === 'isnotnull') {
      const value = fieldOf(item, operand, rawKey);
      if (value === SKIP) return true;
      return key === 'isnull' ? value === null || value === undefined : value !== null && value !== undefined;
    }
    if ((COMPARISONS as readonly string[]).includes(key)) {
      const value = fieldOf(item, operand, rawKey);
      if (value === SKIP) return true;
      return compare(key as (typeof COMPARISONS)[number], value, (operand as { fieldValue?: unknown }).fieldValue);
    }
    // Paging and sorting keys of other bodies are not criteria.
    return true;
  });
}

const SKIP = Symbol('not evaluated');

/** The item's value of the operand's field (matched case-insensitively, as the service binds names). */
function fieldOf(item: Item, operand: unknown, op: string): unknown {
  if (!operand || typeof operand !== 'object') throw new SearchCriteriaError(`'${op}' takes { fieldName, fieldValue }.`);
  const o = operand as { fieldName?: unknown; collectionName?: unknown };
  // A comparison inside one of the item's collections (collectionName) is not modelled: it narrows nothing here.
  if (o.collectionName !== undefined) return SKIP;
  if (typeof o.fieldName !== 'string' || !o.fieldName) throw new SearchCriteriaError(`'${op}' needs a fieldName.`);
  const wanted = o.fieldName.toLowerCase();
  const name = Object.keys(item).find((k) => k.toLowerCase() === wanted && !k.startsWith('_'));
  if (name === undefined) {
    const known = Object.keys(item).filter((k) => !k.startsWith('_') && (item[k] === null || typeof item[k] !== 'object'));
    throw new SearchCriteriaError(`Unknown fieldName '${o.fieldName.slice(0, 60)}'; the fields are ${known.join(', ')}.`);
  }
  return item[name];
}

function compare(op: (typeof COMPARISONS)[number], actual: unknown, wanted: unknown): boolean {
  if (actual === null || actual === undefined) return false;
  if (op === 'contains') return String(actual).toLowerCase().includes(String(wanted ?? '').toLowerCase());
  const order = ordering(actual, wanted);
  if (order === undefined) return false;
  switch (op) {
    case 'equals':
      return order === 0;
    case 'greaterthan':
      return order > 0;
    case 'lessthan':
      return order < 0;
    case 'greaterthanorequalto':
      return order >= 0;
    default:
      return order <= 0;
  }
}

/** Numbers as numbers (a number sent as text too), dates as instants, the rest as text without case. */
function ordering(actual: unknown, wanted: unknown): number | undefined {
  if (typeof actual === 'number' || typeof actual === 'boolean') {
    const w = Number(wanted);
    if (wanted === null || wanted === undefined || wanted === '' || Number.isNaN(w)) return undefined;
    return Math.sign(Number(actual) - w);
  }
  const a = String(actual);
  const w = String(wanted ?? '');
  if (/^\d{4}-\d{2}-\d{2}/.test(a) && /^\d{4}-\d{2}-\d{2}/.test(w)) {
    const [ta, tw] = [instant(a), instant(w)];
    if (!Number.isNaN(ta) && !Number.isNaN(tw)) return Math.sign(ta - tw);
  }
  return a.toLowerCase().localeCompare(w.toLowerCase());
}

/** Work-management dates are naive (no offset, as the project's time zone keeps them): read as UTC on any machine. */
function instant(text: string): number {
  return Date.parse(/T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text) ? `${text}Z` : text);
}
