// A slow reader of the live stream: the emulator never buffers more than its high-water mark for it; what the
// reader missed is counted and told once it drains.
import { strict as assert } from 'node:assert';
import { EventEmitter } from 'node:events';
import type { JournalEntry } from '../../../src/emulator/inspector/journal';
import { EventStream, STREAM_HIGH_WATER } from '../../../src/emulator/inspector/routes';

class SlowSocket extends EventEmitter {
  writableLength = 0;
  written: string[] = [];
  ended = false;
  write(chunk: string): boolean {
    this.written.push(chunk);
    this.writableLength += chunk.length;
    return this.writableLength < STREAM_HIGH_WATER;
  }
  end(): this {
    this.ended = true;
    return this;
  }
  drain(): void {
    this.writableLength = 0;
    this.emit('drain');
  }
}

const entry = (id: number, status = 200) => ({ id, status, path: '/x', method: 'GET', client: null, route: null, findings: [] }) as unknown as JournalEntry;

describe('inspector event stream', () => {
  it('drops events past the high-water mark, then says how many it dropped', () => {
    const socket = new SlowSocket();
    const stream = new EventStream(socket as never, {});
    const big = 'x'.repeat(64 * 1024);
    for (let id = 1; id <= 20; id++) stream.send(entry(id), () => big);
    const sent = socket.written.length;
    assert.ok(sent < 20 && sent >= 4, `sent ${sent}`);
    assert.ok(socket.writableLength <= STREAM_HIGH_WATER + big.length + 100);
    socket.drain();
    assert.equal(socket.written[sent], `event: dropped\ndata: {"count":${20 - sent}}\n\n`);
    stream.send(entry(21), () => '{}');
    assert.equal(socket.written[sent + 1], 'id: 21\nevent: request\ndata: {}\n\n');
  });

  it('sends only what matches its filter, and nothing after it ended', () => {
    const socket = new SlowSocket();
    const stream = new EventStream(socket as never, { status: '4xx' });
    stream.send(entry(1, 200), () => 'a');
    stream.send(entry(2, 404), () => 'b');
    stream.end();
    stream.send(entry(3, 404), () => 'c');
    assert.deepEqual(socket.written, ['id: 2\nevent: request\ndata: b\n\n']);
    assert.equal(socket.ended, true);
  });
});
