// Who may use the emulator's devtools (every route with header policy 'devtools', /_emulator/…): callers on this
// machine, addressing it by a loopback name, unless the emulator was told to listen beyond loopback (--host).
// The guard is attached to those routes only, so tenant routes pay nothing for it.
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { errors } from '../errors';

export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/** `localhost`, `*.localhost`, 127.x.y.z and ::1, with or without a port. */
export function isLoopbackHostName(host: string | undefined): boolean {
  if (!host) return false;
  const name = host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.replace(/:\d+$/, '');
  const lower = name.toLowerCase();
  return lower === 'localhost' || lower.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(lower) || lower === '::1';
}

/** Attaches the loopback rule to every devtools route registered after this call. `host`: what the emulator listens on. */
export function guardDevtools(app: FastifyInstance, host: string | undefined): void {
  if (host && !isLoopbackHostName(host)) return;
  const guard: onRequestHookHandler = (request, _reply, done) => {
    if (!isLoopbackAddress(request.socket.remoteAddress)) return done(errors.devtoolsForbidden('The emulator devtools answer only callers on this machine (the emulator listens on loopback).'));
    // A web page that rebinds its own host name to 127.0.0.1 still sends that name: it must not read the journal.
    if (!isLoopbackHostName(request.headers.host)) return done(errors.devtoolsForbidden(`The emulator devtools answer only requests addressed to a loopback name, not '${String(request.headers.host ?? '').slice(0, 100)}'.`));
    done();
  };
  app.addHook('onRoute', (route) => {
    if (route.config?.headers !== 'devtools') return;
    route.onRequest = route.onRequest === undefined ? [guard] : [guard, ...(Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest])];
  });
}
