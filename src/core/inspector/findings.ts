// The request inspector's findings: where a request breaks the spec, each with a stable code and whether a
// tenant would refuse it or only frown on it. The emulator produces them; the CLI and the extension show them.

/** `refuse`: a tenant answers an error (or will, once a deprecation date has passed). `frown`: it answers, but not as the client expects. */
export type FindingSeverity = 'refuse' | 'frown';

export interface Finding {
  /** Stable code, `DE` and four digits (see FINDING_CODES). */
  code: string;
  severity: FindingSeverity;
  /** What is wrong, in words. */
  message: string;
  /** What to send instead. */
  advice?: string;
}

interface CodeInfo {
  title: string;
  severity: FindingSeverity;
}

/**
 * Every code the emulator emits, by area: DE1xxx headers, DE2xxx values and limits, DE3xxx deprecated
 * functionality, DE4xxx/DE5xxx the reason of an error answer, DE6xxx leniency (what the emulator, like a
 * tenant, accepted although the spec writes it otherwise). Codes are never reused for another meaning.
 */
export const FINDING_CODES = {
  DE1001: { title: 'User-Agent header missing', severity: 'refuse' },
  DE1002: { title: 'Accept header missing', severity: 'refuse' },
  DE1003: { title: 'API-Version header missing on the content API', severity: 'refuse' },
  DE1004: { title: 'API-Version the service does not support', severity: 'refuse' },
  DE1005: { title: 'Accept names no media type the service answers', severity: 'refuse' },
  DE1006: { title: 'Authorization header missing', severity: 'refuse' },
  DE1007: { title: 'Authorization is not a Bearer token', severity: 'refuse' },
  DE1008: { title: 'Body sent without Content-Type', severity: 'refuse' },
  DE1009: { title: 'Content-Type the endpoint does not take', severity: 'refuse' },
  DE1010: { title: 'Secret in the URL', severity: 'frown' },
  DE1011: { title: 'Location-Alias outside its documented values', severity: 'frown' },
  DE1012: { title: 'select-resolve-default-values neither true nor false', severity: 'frown' },
  DE2001: { title: 'Page size above the cap (clamped silently)', severity: 'frown' },
  DE2002: { title: 'Paging parameter not a non-negative integer', severity: 'refuse' },
  DE2003: { title: 'Placeholders in a filter or sort parameter', severity: 'refuse' },
  DE2010: { title: 'Record status outside Draft, Released, Archived', severity: 'refuse' },
  DE2011: { title: 'Check outcome outside pass, fail, warning, info', severity: 'refuse' },
  DE2012: { title: 'Markdown in a finding text', severity: 'frown' },
  DE2013: { title: 'Check result without description', severity: 'refuse' },
  DE2014: { title: 'Check actionTypeId other than the fixed value', severity: 'refuse' },
  DE2015: { title: 'Maintenance job value outside its documented set', severity: 'refuse' },
  DE2020: { title: 'Simple-task rule broken', severity: 'refuse' },
  DE2021: { title: 'Simple-task field the service ignores', severity: 'frown' },
  DE2030: { title: 'Analytics query breaks a rule', severity: 'refuse' },
  DE2031: { title: 'Analytics query the service reads differently', severity: 'frown' },
  DE2040: { title: 'File name with a character uploads do not allow', severity: 'refuse' },
  DE2041: { title: 'Single-request upload above 20 MB', severity: 'refuse' },
  DE2050: { title: "Burst above the tenant's rate (a tenant queues it)", severity: 'frown' },
  DE2051: { title: "Burst beyond the tenant's queue (a tenant answers 429)", severity: 'refuse' },
  DE3001: { title: 'Deprecated OAuth route', severity: 'refuse' },
  DE3002: { title: 'Deprecated auth-code page hook', severity: 'refuse' },
  DE3003: { title: 'Authorization code without PKCE', severity: 'refuse' },
  DE4000: { title: 'Malformed or invalid request', severity: 'refuse' },
  DE4001: { title: 'Invalid search expression', severity: 'refuse' },
  DE4002: { title: 'Cursor of another search', severity: 'refuse' },
  DE4010: { title: 'Access token missing, unknown or expired', severity: 'refuse' },
  DE4030: { title: 'The caller lacks a right', severity: 'refuse' },
  DE4031: { title: 'Download link expired or altered', severity: 'refuse' },
  DE4032: { title: 'Blob URL signature missing, wrong or expired', severity: 'refuse' },
  DE4040: { title: 'No resource with that id', severity: 'refuse' },
  DE4041: { title: 'No such route', severity: 'refuse' },
  DE4050: { title: 'Method not allowed', severity: 'refuse' },
  DE4090: { title: 'Conflict with existing data', severity: 'refuse' },
  DE4100: { title: 'Removed route', severity: 'refuse' },
  DE4130: { title: 'Body too large', severity: 'refuse' },
  DE4150: { title: 'Unsupported media type', severity: 'refuse' },
  DE4160: { title: 'Range not satisfiable', severity: 'refuse' },
  DE4200: { title: 'Simple-task rule refused', severity: 'refuse' },
  DE4210: { title: 'Upload rule refused', severity: 'refuse' },
  DE4290: { title: 'Throttled (429)', severity: 'refuse' },
  DE4999: { title: 'Other client error', severity: 'refuse' },
  DE5000: { title: 'Server error', severity: 'refuse' },
  DE5040: { title: 'Gateway timeout (504)', severity: 'refuse' },
  DE6001: { title: 'JSON property name matched case-insensitively', severity: 'frown' },
  DE6002: { title: 'Single-quoted JSON accepted', severity: 'frown' },
  DE6003: { title: 'Empty JSON body read as no body', severity: 'frown' },
} as const satisfies Record<string, CodeInfo>;

export type FindingCode = keyof typeof FINDING_CODES;

/** A finding with the catalogue's severity for its code (a rule may still decide otherwise, e.g. before a deprecation date). */
export function finding(code: FindingCode, message: string, advice?: string, severity: FindingSeverity = FINDING_CODES[code].severity): Finding {
  return advice === undefined ? { code, severity, message } : { code, severity, message, advice };
}

export function isKnownFindingCode(code: string): code is FindingCode {
  return Object.prototype.hasOwnProperty.call(FINDING_CODES, code);
}
