// Facade of the request inspector's contract: findings and their codes, the journal's wire shape and filter, the
// findings header, and how an entry is turned back into a curl or `dam` command. Emulator, client, CLI and
// extension import only this file.
export * from './findings';
export * from './entry';
export * from './header';
export * from './format';
export { SCRUBBED, curlCommand, damCommand, shellQuote, tokenSubshell, type Reproduction } from './reproduce';
