// The one storage interface every route uses; PGlite and node-postgres implement it with the same SQL dialect.

/** What a query may bind: values are always sent as parameters ($1, $2, …), never spliced into SQL. */
export type SqlParam = string | number | boolean | null | Date | string[] | number[] | Record<string, unknown> | unknown[];

export interface Queryable {
  /** Runs one parameterised statement and returns its rows. */
  query<T = Record<string, unknown>>(sql: string, params?: SqlParam[]): Promise<T[]>;
  /** Runs one or more statements without parameters (migrations, DDL). */
  exec(sql: string): Promise<void>;
}

/**
 * PostgreSQL's COPY in its text format, which both backends speak: what state snapshots write and load, as it is
 * the fastest way in and out of a table and the same bytes load into either backend. `source` is a quoted table
 * name with its column list, or for copyTo a parenthesised SELECT.
 */
export interface BulkCopy {
  copyTo(source: string): Promise<Buffer>;
  copyFrom(target: string, data: Buffer): Promise<void>;
}

/** A transaction's handle. */
export type Transaction = Queryable & BulkCopy;

export interface Store extends Queryable {
  /** Runs fn in one transaction: committed when fn resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** 'pglite' or 'postgres', for logs. */
  readonly kind: string;
}
