// Runs a conformance suite against every storage backend available: PGlite always, PostgreSQL when
// DAM_TEST_DATABASE_URL is set (a fresh database per emulator start, dropped afterwards).
import { PassThrough } from 'node:stream';
import { main } from '../../src/cli/main';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { startEmulator, type EmulatorOptions } from '../../src/emulator/server';
import { DamClient, type DamClientOptions } from '../../src/api/client';
import { type Profile } from '../../src/api/profile';
import { EMULATOR_CLIENT, emulatorProfile } from '../../src/api/endpoints';
import type { RequestEvent } from '../../src/api/http';
import { UNPACED } from '../../src/api/pacing';

export interface Backend {
  name: string;
  /** Prepares storage; returns the emulator's `database` option (undefined = PGlite) and a cleanup. */
  prepare(): Promise<{ database?: string; cleanup(): Promise<void> }>;
}

const pglite: Backend = {
  name: 'pglite',
  async prepare() {
    return { cleanup: async () => undefined };
  },
};

function postgres(adminUrl: string): Backend {
  return {
    name: 'postgres',
    async prepare() {
      const name = `dam_test_${randomBytes(6).toString('hex')}`;
      const admin = new Client({ connectionString: adminUrl });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end();
      }
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return {
        database: url.toString(),
        async cleanup() {
          const c = new Client({ connectionString: adminUrl });
          await c.connect();
          try {
            await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          } finally {
            await c.end();
          }
        },
      };
    },
  };
}

export function backends(): Backend[] {
  const url = process.env.DAM_TEST_DATABASE_URL;
  return url ? [pglite, postgres(url)] : [pglite];
}

export const USER_AGENT = 'dam-workbench-conformance/1';

export interface Env {
  backend: string;
  /** The emulator's origin, e.g. http://127.0.0.1:40123 */
  url: string;
  profile: Profile;
  /** A client with the contract's client credentials; `events` collects its request log. */
  client(overrides?: Partial<DamClientOptions>): DamClient;
  events: RequestEvent[];
}

export type SuiteOptions = Omit<EmulatorOptions, 'port' | 'data' | 'database'>;

/**
 * `describe` once per backend with one emulator for the whole file (started in `before`, closed
 * in `after`), so a suite costs one start per backend on a small machine.
 */
export function describeEachBackend(title: string, options: SuiteOptions, body: (env: () => Env) => void): void {
  for (const backend of backends()) {
    describe(`${title} [${backend.name}]`, function () {
      this.timeout(120_000);
      let env: Env | undefined;
      let close: (() => Promise<void>) | undefined;
      before(async function () {
        const storage = await backend.prepare();
        const emulator = await startEmulator({ seed: 'demo', ...options, port: 0, data: ':memory:', database: storage.database });
        close = async () => {
          await emulator.close();
          await storage.cleanup();
        };
        const profile = emulatorProfile(emulator.url);
        const events: RequestEvent[] = [];
        env = {
          backend: backend.name,
          url: emulator.url,
          profile,
          events,
          client: (overrides = {}) =>
            new DamClient({
              profile,
              secrets: { clientSecret: EMULATOR_CLIENT.clientSecret, password: EMULATOR_CLIENT.password },
              userAgent: USER_AGENT,
              onRequest: (e) => events.push(e),
              // These suites test the emulator's answers, not the client's pacing (tenantLimits.test.ts does):
              // unpaced, they run as fast as before it existed.
              pacing: UNPACED,
              ...overrides,
            }),
        };
      });
      after(async () => {
        await close?.();
      });
      body(() => {
        if (!env) throw new Error('the emulator did not start');
        return env;
      });
    });
  }
}

/** Runs `fn` and returns the error it throws (failing the test when it does not throw). */
export async function failure<E = Error>(fn: () => Promise<unknown>): Promise<E> {
  try {
    await fn();
  } catch (err) {
    return err as E;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the `dam` CLI in-process, as a shell would, and collects its exit code and output. */
export async function runDam(argv: string[], env: NodeJS.ProcessEnv = {}, signal = new AbortController().signal): Promise<CliRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (b: Buffer) => out.push(b));
  stderr.on('data', (b: Buffer) => err.push(b));
  const code = await main(argv, { stdout, stderr, env, signal });
  return { code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
}

