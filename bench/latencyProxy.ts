// A tenant far away, on this machine: an HTTP proxy in front of the emulator that holds every request for one round
// trip (half before it goes on, half before the answer comes back) and every NEW connection for its handshake (one
// round trip for TCP, two more for TLS), and keeps what it saw: each connection and each request with when it
// started and ended, so a bench can count the requests of an action and the round trips on its critical path.
import { Agent, createServer as createHttpServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';

export interface LatencyProxyOptions {
  /** The emulator's origin, e.g. http://127.0.0.1:7070 */
  target: string;
  /** One round trip, in milliseconds (100 by default). */
  rttMs?: number;
  /** Round trips a new connection pays before its first request: 1 for TCP, 3 for TCP and TLS 1.2, 2 for TLS 1.3. */
  handshakeRoundTrips?: number;
}

/** Something that took round trips: a new connection's handshake, or one request and its answer. */
export interface Span {
  kind: 'connection' | 'request';
  /** Wall-clock milliseconds (performance.timeOrigin + performance.now()), comparable across processes. */
  start: number;
  end: number;
  roundTrips: number;
  label: string;
}

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise<void>((resolve) => (ms > 0 ? setTimeout(resolve, ms) : setImmediate(resolve)));

// Hop-by-hop headers are the proxy's own business on each side, never forwarded.
const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'content-length']);

function forwardable(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP.has(name)) out[name] = value;
  return out;
}

export class LatencyProxy {
  readonly spans: Span[] = [];
  readonly rttMs: number;
  readonly handshakeRoundTrips: number;
  private readonly target: URL;
  private readonly upstream = new Agent({ keepAlive: true });
  private readonly http: Server;
  private readonly net: NetServer;
  private readonly sockets = new Set<Socket>();
  url = '';

  constructor(options: LatencyProxyOptions) {
    this.target = new URL(options.target);
    this.rttMs = options.rttMs ?? 100;
    this.handshakeRoundTrips = options.handshakeRoundTrips ?? 1;
    this.http = createHttpServer({ keepAliveTimeout: 65_000 }, (req, res) => void this.forward(req, res));
    // The socket reaches the HTTP server only once its handshake has "happened": what the client sent meanwhile waits.
    this.net = createNetServer({ pauseOnConnect: true }, (socket) => {
      const start = now();
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      void sleep(this.rttMs * this.handshakeRoundTrips).then(() => {
        this.spans.push({ kind: 'connection', start, end: now(), roundTrips: this.handshakeRoundTrips, label: 'new connection' });
        this.http.emit('connection', socket);
        socket.resume();
      });
    });
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.net.listen(0, '127.0.0.1', resolve));
    const address = this.net.address();
    if (!address || typeof address !== 'object') throw new Error('the latency proxy did not listen');
    this.url = `http://127.0.0.1:${address.port}`;
    return this;
  }

  private async forward(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse): Promise<void> {
    const start = now();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    await sleep(this.rttMs / 2);
    try {
      const answer = await new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        const headers = forwardable(req.headers);
        if (body.length) headers['content-length'] = String(body.length);
        const upstream = httpRequest(
          { host: this.target.hostname, port: this.target.port, method: req.method, path: req.url, headers, agent: this.upstream },
          (r) => {
            const parts: Buffer[] = [];
            r.on('data', (c: Buffer) => parts.push(c));
            r.on('end', () => resolve({ status: r.statusCode ?? 502, headers: r.headers, body: Buffer.concat(parts) }));
            r.on('error', reject);
          },
        );
        upstream.on('error', reject);
        upstream.end(body);
      });
      await sleep(this.rttMs / 2);
      res.writeHead(answer.status, { ...forwardable(answer.headers), 'content-length': String(answer.body.length) });
      res.end(answer.body);
    } catch (err) {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`latency proxy: ${(err as Error).message}`);
    }
    this.spans.push({ kind: 'request', start, end: now(), roundTrips: 1, label: `${req.method} ${(req.url ?? '').split('?')[0]}` });
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.upstream.destroy();
    await new Promise<void>((resolve) => this.net.close(() => resolve()));
  }
}

/**
 * The round trips on the critical path of what happened between `from` and `to`: the longest chain of spans each
 * of which started after the one before it ended (the ones that had to wait for each other), counting each span's
 * round trips. Spans running side by side count once.
 */
export function criticalRoundTrips(spans: readonly Span[], from: number, to: number): number {
  const inside = spans.filter((s) => s.start >= from && s.end <= to + 1).sort((a, b) => a.end - b.end);
  const best: number[] = [];
  let max = 0;
  for (let i = 0; i < inside.length; i++) {
    let before = 0;
    // A span that ended before this one started could have been what it waited for.
    for (let j = 0; j < i; j++) if (inside[j].end <= inside[i].start + 0.5) before = Math.max(before, best[j]);
    best[i] = before + inside[i].roundTrips;
    max = Math.max(max, best[i]);
  }
  return max;
}
