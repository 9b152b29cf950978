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

/**
 * Users and user groups have two ids, as on a tenant ("Fixed ids"): the content API names them by GUID, the
 * work-management API and analytics by integer. The GUID of integer id n ends in the decimal digits of 100 + n
 * (hex digits all), after a fixed prefix: user 1 (`admin`) is …a101, group 10 (`Marketing`) is …b110.
 */
const USER_GUID_PREFIX = '3f1c9a2e7b4d4e8fa6c2d5b8e0f7a101';
const GROUP_GUID_PREFIX = '8c4e2b6d1a9f4c37b5e0d2a6f8c3b110';

/** The contract's fixed content-API ids. */
export const CONTENT_API_IDS = {
  users: { admin: '3f1c9a2e7b4d4e8fa6c2d5b8e0f7a101', editor: '3f1c9a2e7b4d4e8fa6c2d5b8e0f7a102', reviewer: '3f1c9a2e7b4d4e8fa6c2d5b8e0f7a103' },
  groups: { Marketing: '8c4e2b6d1a9f4c37b5e0d2a6f8c3b110' },
} as const;

function toGuid(prefix: string, id: number): string {
  const digits = String(100 + id);
  return prefix.slice(0, 32 - digits.length) + digits;
}

function fromGuid(prefix: string, value: string): number | undefined {
  const guid = value.replace(/[{}-]/g, '').toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(guid)) return undefined;
  for (let length = 3; length <= 12; length++) {
    const digits = guid.slice(32 - length);
    if (guid.slice(0, 32 - length) === prefix.slice(0, 32 - length) && /^[1-9]\d*$/.test(digits) && Number(digits) > 100) return Number(digits) - 100;
  }
  return undefined;
}

/** The content-API GUID of a user's integer id. */
export const userGuid = (id: number): string => toGuid(USER_GUID_PREFIX, id);
/** The integer id of a user's content-API GUID (dashes and braces allowed); undefined when it names no user. */
export const userIdOfGuid = (guid: string): number | undefined => fromGuid(USER_GUID_PREFIX, guid);
/** The content-API GUID of a user group's integer id. */
export const groupGuid = (id: number): string => toGuid(GROUP_GUID_PREFIX, id);
/** The integer id of a user group's content-API GUID; undefined when it names no group. */
export const groupIdOfGuid = (guid: string): number | undefined => fromGuid(GROUP_GUID_PREFIX, guid);
