// The fixed points of the emulator contract (shared/spec/emulator-contract.md) that the client, the CLI,
// the extension and the emulator all need: one copy, so the two sides cannot drift apart.

/** The emulator's full-rights client registration and the password-flow user ("Credentials"). */
export const EMULATOR_CLIENT = { clientId: 'dam-emulator', clientSecret: 'dam-emulator-secret', username: 'admin', password: 'admin' } as const;

/** The second client: acts as user 2 (`editor`) without administrative privileges. */
export const EMULATOR_LIMITED_CLIENT = { clientId: 'dam-emulator-limited', clientSecret: 'dam-emulator-limited-secret' } as const;

/** The check `actionTypeId`: "the fixed value supplied to integrators". */
export const CHECK_ACTION_TYPE_ID = '7a3c2e10c4b24f7e9d5a1b6c8e0f3d21';

/** Port the emulator listens on when none is given. */
export const DEFAULT_EMULATOR_PORT = 7070;

/** The one line the emulator prints when it is ready ("Starting it"); nothing is served before it. */
export function listeningLine(url: string): string {
  return `dam emulator listening on ${url}`;
}

/** The emulator's address from its output, once the ready line has been printed; undefined before. */
export function parseListening(output: string): string | undefined {
  return /listening on (http:\/\/[^\s]+)/.exec(output)?.[1];
}
