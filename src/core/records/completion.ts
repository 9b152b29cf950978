// Where a classification is being typed in a record document: an item of `classifications` or of a ClassificationList
// field, found from the text and the cursor (the document may be half typed), with the part typed so far. The
// editor completes name paths there one level at a time.
import { getLocation } from 'jsonc-parser';
import { findDefinition, type FieldDefinitionInfo } from './model';

export interface ClassificationSlot {
  /** The path typed so far (the string's content before the cursor). */
  typed: string;
  /** Offsets of what a completion replaces: the string's content, or the cursor itself where no string is yet. */
  start: number;
  end: number;
  /** Whether the cursor is inside a string (else a completion brings its own quotes). */
  quoted: boolean;
}

export function classificationSlotAt(text: string, offset: number, definitions: readonly FieldDefinitionInfo[]): ClassificationSlot | undefined {
  const location = getLocation(text, offset);
  if (location.isAtPropertyKey) return undefined;
  const path = location.path;
  const inClassifications = path.length === 2 && path[0] === 'classifications' && typeof path[1] === 'number';
  const inField =
    path.length === 3 && path[0] === 'fields' && typeof path[1] === 'string' && typeof path[2] === 'number' && findDefinition(definitions, path[1])?.dataType === 'ClassificationList';
  if (!inClassifications && !inField) return undefined;
  const node = location.previousNode;
  if (node?.type === 'string' && offset > node.offset && offset <= node.offset + node.length) {
    const closed = node.length >= 2 && text[node.offset + node.length - 1] === '"';
    const end = closed ? node.offset + node.length - 1 : node.offset + node.length;
    if (offset > end) return undefined;
    return { typed: text.slice(node.offset + 1, offset), start: node.offset + 1, end, quoted: true };
  }
  return { typed: '', start: offset, end: offset, quoted: false };
}

/** The name path whose children complete what was typed: '' for the roots (`/Pro` → '', `/Products/Sh` → '/Products'). */
export function parentPathOf(typed: string): string {
  const at = typed.lastIndexOf('/');
  return at <= 0 ? '' : typed.slice(0, at);
}
