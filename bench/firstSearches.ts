// The searches live clients make (real-service-notes: titles, statuses, content types, classifications by id and by
// name path, file names, field values, dates, and their combinations), each kind in several variants so that every
// request is a search the emulator has not answered before: what a user's first request of a search costs.
import { ADJECTIVES, PHOTOGRAPHERS, WORDS } from '../src/emulator/seed/demo';

export interface FirstSearch {
  kind: string;
  expression: string;
  namedParameters?: Record<string, string>;
  sort?: string;
}

const month = (i: number) => `2025-${String(1 + (i % 12)).padStart(2, '0')}-01`;
const TYPES = ['Image', 'Video', 'Document'];
const STATUSES = ['Released', 'Draft', 'Archived'];
const OPTIONS = ['Unrestricted', 'InternalOnly', 'Licensed'];

/** `variants` searches of each kind; classifications are the tenant's (not roots), by id and name path. */
export function firstSearches(variants: number, classifications: { id: string; namePath: string }[]): FirstSearch[] {
  const kinds: [string, (i: number) => Omit<FirstSearch, 'kind'>][] = [
    ['Title contains', (i) => ({ expression: `Title contains ${ADJECTIVES[i % 12].toLowerCase()}` })],
    ['word', (i) => ({ expression: `${WORDS[i % 12]}` })],
    ['ContentStatus', (i) => ({ expression: `ContentStatus = ${STATUSES[i % 3]} AND CreatedOn >= ${month(i)}` })],
    ['ContentType', (i) => ({ expression: `ContentType = ${TYPES[i % 3]}`, sort: i % 2 ? 'Title' : undefined })],
    ['Classification (id)', (i) => ({ expression: 'Classification = @c', namedParameters: { c: classifications[i % classifications.length].id } })],
    ['Classification.NamePath', (i) => ({ expression: `Classification.NamePath = "${classifications[(i + 3) % classifications.length].namePath}"` })],
    ['FileName', (i) => ({ expression: `LatestVersionOfMasterfile.FileName = ${WORDS[i % 12]}*` })],
    ['field value (option)', (i) => ({ expression: `FieldName('UsageRights').Option.Name = ${OPTIONS[i % 3]} AND ModifiedOn >= ${month(i)}` })],
    ['field value (text)', (i) => ({ expression: `FieldName('Photographer') = "${PHOTOGRAPHERS[i % 5]}"` })],
    ['dates', (i) => ({ expression: `CreatedOn >= ${month(i)} AND CreatedOn < 2025-12-${String(1 + (i % 28)).padStart(2, '0')}` })],
    ['combination', (i) => ({ expression: `Title contains ${ADJECTIVES[(i + 5) % 12].toLowerCase()} AND ContentType = ${TYPES[i % 3]} AND Classification.NamePath = "${classifications[i % classifications.length].namePath}"` })],
  ];
  const out: FirstSearch[] = [];
  for (let i = 0; i < variants; i++) for (const [kind, make] of kinds) out.push({ kind, ...make(i) });
  return out;
}
