// What DAM: Compare the Emulator with This Tenant… says while it reads: which side, how many routes of how many, and
// a bar that fills (the tenant's half, then the emulator's), instead of each request's route. No `vscode` import:
// it reports to anything shaped like VS Code's progress.

export interface ProgressSink {
  report(value: { message?: string; increment?: number }): void;
}

/** One side of the comparison: its share of the bar (percent) and its name in the message. */
export interface ProbeSide {
  /** As the message says it: "the tenant Marketing", "the local emulator". */
  name: string;
  share: number;
}

export class ProbeProgress {
  /** Percent of the bar reported so far (VS Code adds increments). */
  private filled = 0;
  /** Percent of the bar the sides before the current one took. */
  private before = 0;

  constructor(private readonly sink: ProgressSink) {}

  /** Before a side's first answer: says what is next, with its count once known. */
  start(side: ProbeSide, total?: number): void {
    this.sink.report({ message: total ? `Reading ${side.name}: 0 of ${total} routes` : `Reading ${side.name}…` });
  }

  /** After each route of a side: `done` of `total` (the total can grow, as the tenant's root links more). */
  step(side: ProbeSide, done: number, total: number): void {
    const target = Math.min(this.before + side.share, this.before + (side.share * done) / Math.max(total, 1));
    const increment = target > this.filled ? target - this.filled : 0;
    this.filled += increment;
    this.sink.report({ message: `Reading ${side.name}: ${done} of ${total} routes`, ...(increment ? { increment } : {}) });
  }

  /** A side is done: the next one fills the rest of the bar from here. */
  finish(side: ProbeSide): void {
    this.before += side.share;
  }

  /** Both sides read: the answers are being compared (the bar is full). */
  comparing(): void {
    const increment = this.filled < 100 ? 100 - this.filled : 0;
    this.filled += increment;
    this.sink.report({ message: 'Comparing the answers…', ...(increment ? { increment } : {}) });
  }
}
