// What a terminal gets from the extension, as plain functions (no `vscode`): the CLI's DAM_* variables for a
// connection, and the `dam` launcher scripts.
import { EMULATOR_CLIENT } from '../../api/endpoints';
import type { Profile } from '../../api/profile';

/** Every variable this extension may set in a terminal, so a change of connection leaves none behind. */
export const MANAGED = ['DAM_URL', 'DAM_AUTH_URL', 'DAM_BASE_URL', 'DAM_CORE_URL', 'DAM_UPLOAD_URL', 'DAM_OPS_URL', 'DAM_ANALYTICS_URL', 'DAM_CLIENT_ID', 'DAM_FLOW', 'DAM_USERNAME', 'DAM_CONNECTION'] as const;

/** The DAM_* variables that point the CLI at a connection (no secrets). */
export function connectionVariables(profile: Profile | undefined): Partial<Record<(typeof MANAGED)[number], string>> {
  if (!profile) return {};
  const e = profile.endpoints;
  const oneOrigin = [e.auth, e.upload, e.ops, e.analytics].every((url) => url === e.base) && e.core === `${e.base}/api/core`;
  const vars: Partial<Record<(typeof MANAGED)[number], string>> = { DAM_CONNECTION: profile.name };
  if (oneOrigin) vars.DAM_URL = e.base;
  else Object.assign(vars, { DAM_AUTH_URL: e.auth, DAM_BASE_URL: e.base, DAM_CORE_URL: e.core, DAM_UPLOAD_URL: e.upload, DAM_OPS_URL: e.ops, DAM_ANALYTICS_URL: e.analytics });
  // The emulator's own client needs nothing more: the CLI fills in its published credentials.
  if (profile.clientId !== EMULATOR_CLIENT.clientId) {
    vars.DAM_CLIENT_ID = profile.clientId;
    vars.DAM_FLOW = profile.flow;
    if (profile.username) vars.DAM_USERNAME = profile.username;
  }
  return vars;
}

/** A path inside single quotes for sh. */
const shQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** The launchers: `dam` (sh) and `dam.cmd` (Windows), each running the bundled CLI with this Node.js. */
export function launchers(nodePath: string, cliPath: string): { sh: string; cmd: string } {
  // ELECTRON_RUN_AS_NODE makes VS Code's Electron binary behave as plain Node.js (a plain node ignores it).
  const sh = ['#!/bin/sh', '# dam, as the DAM Workbench extension carries it (written by the extension at each start).', `ELECTRON_RUN_AS_NODE=1 exec ${shQuote(nodePath)} ${shQuote(cliPath)} "$@"`, ''].join('\n');
  const cmd = ['@echo off', 'rem dam, as the DAM Workbench extension carries it (written by the extension at each start).', 'setlocal', 'set ELECTRON_RUN_AS_NODE=1', `"${nodePath}" "${cliPath}" %*`, ''].join('\r\n');
  return { sh, cmd };
}
