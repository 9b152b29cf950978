// The tenant's limits (real-service-notes): one rate shared by every client of the tenant, a queue of requests
// served at that rate, then 429 as an HTML page with Retry-After. With `enforce` the emulator does what a tenant
// does; without it, every request is served at once and the one a tenant would have queued or refused gets a
// finding instead (DE2050, DE2051), counted exactly as a tenant would count it.
//
// Why not @fastify/rate-limit: it counts per key in fixed windows and answers 429 the moment a window is full;
// a tenant first queues (100 by default) and serves the queue at its rate. The queue is a token bucket in debt
// (core/limits): each request learns when its turn comes and waits on a timer, so nothing blocks the event loop,
// and it waits before authentication and before the state gate, so a queued request holds no database connection.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TokenBucket, burstOf, type TenantLimitsConfig } from '../core/limits';
import type { Clock, HeaderPolicy } from './context';
import { addFinding, finding } from './inspector';

/**
 * Calls into the REST API count: the content API ('api'), the upload service, work management and analytics
 * ('service'). The token endpoint and authorize page ('login'), discovery (`/`, `/supportedVersions`), the docs,
 * file downloads and blob URLs (served by storage, not the API) and the emulator's own devtools do not.
 */
function counts(policy: HeaderPolicy | undefined): boolean {
  return policy === 'api' || policy === 'service';
}

const throttledPage = (retryAfter: number) =>
  `<!DOCTYPE html><html><head><title>429 Too Many Requests</title></head><body><h1>429 Too Many Requests</h1>` +
  `<p>The tenant's request queue is full. Retry after ${retryAfter} second${retryAfter === 1 ? '' : 's'}.</p></body></html>`;

/**
 * Registers the rate hook; call after the inspector (so a refusal is journaled) and before the state gate. The bucket
 * counts on the emulator's clock, so a test that holds the clock still sees exactly the burst it sent.
 */
export function registerTenantLimits(app: FastifyInstance, config: TenantLimitsConfig, clock: Clock): void {
  const bucket = new TokenBucket(config.rate, burstOf(config.rate), config.queue, () => clock.now().getTime());
  const rateWords = `${config.rate} requests/s across all clients, a queue of ${config.queue}`;
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.is404 || request.method === 'OPTIONS' || !counts(request.routeOptions.config?.headers)) return;
    const reservation = bucket.reserve();
    if (!reservation) {
      const retryAfter = Math.max(1, Math.ceil(bucket.msUntilRoom() / 1000));
      if (!config.enforce) {
        addFinding(
          request,
          finding('DE2051', `A tenant would have answered 429 Too Many Requests: its queue was full (${rateWords}).`, 'Pace the requests (at most 15/s for all clients of the tenant together) and honour Retry-After on a 429.'),
        );
        return;
      }
      return reply.code(429).header('Retry-After', String(retryAfter)).type('text/html; charset=utf-8').send(throttledPage(retryAfter));
    }
    if (reservation.delayMs <= 0) return;
    if (!config.enforce) {
      addFinding(
        request,
        finding('DE2050', `A tenant would have queued this request about ${Math.ceil(reservation.delayMs)} ms: the burst went above ${rateWords}.`, 'Pace the requests (at most 15/s for all clients of the tenant together); a full queue answers 429.'),
      );
      return;
    }
    const gone = await waitTurn(reply, reservation.delayMs);
    if (!gone) return;
    // The client left while queued: its place goes to the next request, and nothing is served to nobody.
    reservation.cancel();
    reply.hijack();
    reply.raw.destroy();
  });
}

/** Waits `ms` on a timer; resolves true early when the client goes away meanwhile. */
function waitTurn(reply: FastifyReply, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const onClose = () => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      reply.raw.off('close', onClose);
      resolve(false);
    }, ms);
    reply.raw.once('close', onClose);
  });
}
