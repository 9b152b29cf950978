// Puts every tenant request under the state gate (gate.ts): held from its onRequest hook (after the inspector's and
// the tenant-limits queue's) until the answer is sent, or, when the client goes away first, until the handler is done
// with the state.
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { HeaderPolicy } from '../context';
import type { StateGate } from './gate';

interface Hold {
  release?: () => void;
  handlerRunning: boolean;
  answered: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    stateHold: Hold | null;
  }
}

/** Devtools routes (snapshots, the request journal) work on the state from outside and never wait for it. */
const ungated = (policy: HeaderPolicy | undefined) => policy === 'devtools';

function letGo(hold: Hold): void {
  if (hold.answered && !hold.handlerRunning) {
    hold.release?.();
    hold.release = undefined;
  }
}

/** Registers the hooks; call before the first route is added (handlers are wrapped as routes are registered). */
export function holdRequestsAtGate(app: FastifyInstance, gate: StateGate): void {
  app.decorateRequest('stateHold', null);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.is404 || ungated(request.routeOptions.config?.headers)) return;
    const hold: Hold = { handlerRunning: false, answered: false };
    request.stateHold = hold;
    // 'close' comes once the answer is sent or the connection is gone, whichever is first.
    reply.raw.once('close', () => {
      hold.answered = true;
      letGo(hold);
    });
    hold.release = await gate.enter();
    if (hold.answered) letGo(hold);
  });
  app.addHook('onRoute', (route) => {
    if (ungated(route.config?.headers)) return;
    const handler = route.handler as RouteHandlerMethod;
    route.handler = function (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
      const hold = request.stateHold;
      if (!hold) return handler.call(this, request, reply);
      hold.handlerRunning = true;
      const done = () => {
        hold.handlerRunning = false;
        letGo(hold);
      };
      // A client that left during the hooks let the gate go; the handler still runs, so it holds it again.
      const start = hold.release ? Promise.resolve() : gate.enter().then((release) => void (hold.release = release));
      return start.then(() => handler.call(this, request, reply)).finally(done);
    } as RouteHandlerMethod;
  });
}
