// Offset ↔ line/column mapping (0-based internally; `dam lint` adds 1 when printing).

export interface Position {
  /** 0-based line. */
  line: number;
  /** 0-based UTF-16 column. */
  character: number;
}

/** Line starts of a text, computed once; lookups are binary searches. */
export class LineIndex {
  private readonly starts: number[];

  constructor(private readonly text: string) {
    const starts = [0];
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    this.starts = starts;
  }

  get lineCount(): number {
    return this.starts.length;
  }

  positionAt(offset: number): Position {
    const o = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: o - this.starts[lo] };
  }

  offsetAt(position: Position): number {
    if (position.line < 0) return 0;
    if (position.line >= this.starts.length) return this.text.length;
    const lineStart = this.starts[position.line];
    const lineEnd = position.line + 1 < this.starts.length ? this.starts[position.line + 1] - 1 : this.text.length;
    return Math.max(lineStart, Math.min(lineStart + position.character, lineEnd));
  }
}

/** One-off conversion; build a `LineIndex` when converting many offsets of the same text. */
export function positionAt(text: string, offset: number): Position {
  return new LineIndex(text).positionAt(offset);
}
