// How the extension orders names: as people read them, not by character code. Case and accents aside
// (`big` before `Vivid`), numbers by value (`photo 2` before `photo 10`), in the user's locale.
const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

export function compareNames(a: string, b: string): number {
  return collator.compare(a, b);
}

/** Records by title as people read them; equal titles keep a fixed order (by id), so a redraw does not shuffle them. */
export function byTitle<T extends { record: { id: string; title?: string | null } }>(a: T, b: T): number {
  return compareNames(a.record.title || a.record.id, b.record.title || b.record.id) || (a.record.id < b.record.id ? -1 : a.record.id > b.record.id ? 1 : 0);
}
