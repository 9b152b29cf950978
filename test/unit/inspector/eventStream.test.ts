// A reader of the live stream: what it missed is written as it takes it, never more than the high-water mark
// ahead; a reader that takes nothing is dropped when its buffer is full, rather than buffered without bound.
import { strict as assert } from 'node:assert';
import { EventEmitter } from 'node:events';
import { Journal, type JournalEntry } from '../../../src/emulator/inspector/journal';
import { EventStream, STREAM_HIGH_WATER } from '../../../src/emulator/inspector/routes';

class SlowSocket extends EventEmitter {
  writableLength = 0;
  written: string[] = [];
  ended = false;
  destroyed = false;
  write(chunk: string): boolean {
    this.written.push(chunk);
    this.writableLength += chunk.length;
    return this.writableLength < STREAM_HIGH_WATER;
  }
  end(): this {
    this.ended = true;
    return this;
  }
  destroy(): this {
    this.destroyed = true;
    this.writableLength = 0;
    return this;
  }
  drain(): void {
    this.writableLength = 0;
    this.emit('drain');
  }
}

const entry = (id: number, status = 200) => ({ id, at: 0, status, path: '/x', query: '', method: 'GET', client: null, route: null, findings: [] }) as unknown as JournalEntry;
const big = 'x'.repeat(64 * 1024);

describe('inspector event stream', () => {
  it('drops a reader that takes nothing once its buffer is full, and writes nothing more to it', () => {
    const socket = new SlowSocket();
    const stream = new EventStream(socket as never, {}, new Journal(10), () => big);
    for (let id = 1; id <= 20 && !socket.destroyed; id++) stream.send(entry(id));
    assert.equal(socket.destroyed, true);
    assert.ok(socket.written.length <= Math.ceil(STREAM_HIGH_WATER / big.length) + 1, `wrote ${socket.written.length}`);
    const before = socket.written.length;
    stream.send(entry(21));
    stream.comment('ping');
    assert.equal(socket.written.length, before);
    assert.equal(stream.ended, true);
  });

  it('writes what a reader missed as it takes it, oldest first, then follows live', () => {
    const journal = new Journal(100);
    for (let i = 0; i < 12; i++) journal.add((id) => entry(id, i % 2 ? 404 : 200));
    const socket = new SlowSocket();
    const stream = new EventStream(socket as never, { status: '4xx' }, journal, (e) => (e.id === 2 ? big.repeat(5) : String(e.id)), 0);
    // The first missed entry alone passes the high-water mark: the rest waits for the reader.
    assert.deepEqual(socket.written.map((w) => /^id: (\d+)/.exec(w)?.[1]), ['2']);
    journal.add((id) => entry(id, 404));
    stream.send(journal.get(13)!);
    assert.equal(socket.destroyed, false, 'a reader catching up is not dropped for a live entry');
    socket.drain();
    assert.deepEqual(socket.written.map((w) => /^id: (\d+)/.exec(w)?.[1]), ['2', '4', '6', '8', '10', '12', '13']);
    journal.add((id) => entry(id, 500));
    journal.add((id) => entry(id, 401));
    stream.send(journal.get(14)!);
    stream.send(journal.get(15)!);
    assert.equal(socket.written.at(-1), 'id: 15\nevent: request\ndata: 15\n\n');
  });

  it('sends only what matches its filter, and nothing after it ended', () => {
    const socket = new SlowSocket();
    const stream = new EventStream(socket as never, { status: '4xx' }, new Journal(10), (e) => String(e.id));
    stream.send(entry(1, 200));
    stream.send(entry(2, 404));
    stream.end();
    stream.send(entry(3, 404));
    assert.deepEqual(socket.written, ['id: 2\nevent: request\ndata: 2\n\n']);
    assert.equal(socket.ended, true);
  });
});
