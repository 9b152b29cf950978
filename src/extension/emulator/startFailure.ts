// Why the local emulator did not start, read from what it said: a port another program holds is a choice for the
// user (another port), not a log to read. Free of `vscode` so a unit test covers it.

/** The port of an `EADDRINUSE` in the emulator's words (`listen EADDRINUSE: address already in use 127.0.0.1:7070`). */
export function portInUse(message: string): number | undefined {
  const m = /EADDRINUSE\b[^\n]*?(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:]*\]|localhost|::):(\d{1,5})\b/i.exec(message);
  return m ? Number(m[1]) : undefined;
}

/** What to say when the port is taken: the port, why the emulator wanted it, and the two ways out. */
export function portInUseMessage(port: number): string {
  return `DAM: the local emulator could not start: port ${port} is in use by another program (the setting dam.emulator.port asks for it). Start it on a free port this time, or change the setting.`;
}
