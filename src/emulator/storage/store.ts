// The one storage interface every route uses; PGlite and node-postgres implement it with the same SQL dialect.

/** What a query may bind: values are always sent as parameters ($1, $2, …), never spliced into SQL. */
export type SqlParam = string | number | boolean | null | Date | string[] | number[] | Record<string, unknown> | unknown[];

export interface Queryable {
  /** Runs one parameterised statement and returns its rows. */
  query<T = Record<string, unknown>>(sql: string, params?: SqlParam[]): Promise<T[]>;
  /** Runs one or more statements without parameters (migrations, DDL). */
  exec(sql: string): Promise<void>;
}

export interface Store extends Queryable {
  /** Runs fn in one transaction: committed when fn resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** 'pglite' or 'postgres', for logs. */
  readonly kind: string;
}
