// A segmented upload's checksum is taken while its segments arrive: each open session keeps a composition that reads
// the segments in index order, the next one while it is still being written (Composition.follow), so its commit has
// little left to read. Memory only: after a restart, or when a segment is sent again or fails after some of it was
// read, the commit starts over from the first segment.
import type { BlobInProgress, BlobStore, Composition, WrittenBlob } from '../blobs';
import type { SegmentRow } from './uploads';

interface Arrival {
  /** Set once the segment's file exists. */
  blob?: BlobInProgress;
  /** Settles when the segment's row is stored, or fails if it will not be. */
  stored: Promise<WrittenBlob>;
}

interface Run {
  composition: Composition;
  arrivals: Map<number, Arrival>;
  work: Promise<void>;
  /** The index being read, while one is. */
  reading?: number;
}

/** What the segment route tells the run about one segment: its file exists, its row is stored, or it failed. */
export interface SegmentTracker {
  started(blob: BlobInProgress): void;
  kept(blob: WrittenBlob): void;
  lost(): void;
}

export class SegmentRuns {
  private readonly running = new Map<string, Run>();

  constructor(private readonly blobs: BlobStore) {}

  get size(): number {
    return this.running.size;
  }

  tokens(): IterableIterator<string> {
    return this.running.keys();
  }

  forget(token: string): void {
    this.running.get(token)?.composition.discard();
    this.running.delete(token);
  }

  /** Reads the segments that are next in order, as far as they have begun to arrive. */
  private readOn(token: string, run: Run): void {
    run.work = run.work
      .then(async () => {
        for (let next = run.composition.keys.length; this.running.get(token) === run; next++) {
          const arrival = run.arrivals.get(next);
          if (!arrival?.blob) return;
          run.reading = next;
          await run.composition.follow(arrival.blob, arrival.stored);
          run.reading = undefined;
        }
      })
      .catch(() => {
        run.reading = undefined;
        if (this.running.get(token) === run) this.forget(token);
      });
  }

  /** A segment begins to arrive; `undefined` when it cannot count towards the running checksum. */
  segmentStarted(token: string, index: number): SegmentTracker | undefined {
    let run = this.running.get(token);
    if (run?.arrivals.has(index)) {
      // A segment sent again: what was read of the earlier copy no longer counts.
      this.forget(token);
      return undefined;
    }
    if (!run) {
      run = { composition: this.blobs.composition(), arrivals: new Map(), work: Promise.resolve() };
      this.running.set(token, run);
    }
    const current = run;
    let keep!: (blob: WrittenBlob) => void;
    let fail!: (err: Error) => void;
    const arrival: Arrival = { stored: new Promise<WrittenBlob>((resolve, reject) => ((keep = resolve), (fail = reject))) };
    // Awaited only when its turn comes, which a segment that fails first never has.
    arrival.stored.catch(() => undefined);
    current.arrivals.set(index, arrival);
    return {
      started: (blob) => {
        arrival.blob = blob;
        if (this.running.get(token) === current) this.readOn(token, current);
      },
      kept: keep,
      lost: () => {
        // Not read yet: it just leaves the list, for a copy sent again to take its place. Being read: the read
        // fails, and with it the run.
        if (current.reading !== index && current.composition.keys.length <= index) current.arrivals.delete(index);
        fail(new Error(`segment ${index} was not stored`));
      },
    };
  }

  /** The composition of a commit: the running one when it read exactly the first segments, else a new one. */
  async compositionFor(token: string, segments: SegmentRow[]): Promise<Composition> {
    const run = this.running.get(token);
    this.running.delete(token);
    if (run) {
      // A segment beyond the commit's count may still be arriving: not worth waiting for.
      if (run.reading === undefined || run.reading < segments.length) await run.work;
      const { keys } = run.composition;
      if (run.reading === undefined && keys.length <= segments.length && keys.every((key, i) => key === segments[i].blob)) return run.composition;
      run.composition.discard();
    }
    return this.blobs.composition();
  }
}
