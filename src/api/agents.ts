// The connections the client keeps open between requests. Without them every request paid a new TCP (and, to a
// real tenant, TLS) handshake: one or two extra round trips each, more than the request itself across the internet.
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';

/**
 * An idle connection is closed after this long: shorter than the idle timeouts of the servers and load balancers
 * in front of a tenant (60 s and more), so the client closes first and never sends a request on a connection the
 * server is closing at that instant (which a POST could not retry). Node also honours a shorter `Keep-Alive:
 * timeout=` the server announces.
 */
export const IDLE_CONNECTION_MS = 30_000;

const options = { keepAlive: true, timeout: IDLE_CONNECTION_MS, scheduling: 'lifo' as const };

/** One pool per process and protocol: every client of the same origin shares its open connections. */
export const httpAgent = new HttpAgent(options);
export const httpsAgent = new HttpsAgent(options);

export function agentFor(url: URL): HttpAgent {
  return url.protocol === 'https:' ? httpsAgent : httpAgent;
}
