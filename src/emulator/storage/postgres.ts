// The server backend: a PostgreSQL server reached by URL; each emulator state lives in one schema of it.
import pg from 'pg';
import { from as copyFromStdin, to as copyToStdout } from 'pg-copy-streams';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Queryable, SqlParam, Store, Transaction } from './store';

// Dates come back as strings so both backends hand routes the same shapes as PGlite's parsers.
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    // int8 (20) → number, like PGlite does for counts cast to int.
    if (oid === 20) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format);
  },
};

function identifierOk(name: string): boolean {
  return /^[a-z_][a-z0-9_]{0,62}$/.test(name);
}

/**
 * Opens a pool on `url`. The schema comes from the URL's `schema` query parameter (default `dam_emulator`);
 * it is created when missing, and every connection's search_path points at it, so several emulators can
 * share one server by using different schemas.
 */
export async function openPostgres(url: string): Promise<Store> {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get('schema') ?? 'dam_emulator';
  if (!identifierOk(schema)) throw new Error(`invalid schema name '${schema}' (use lower-case letters, digits and _)`);
  parsed.searchParams.delete('schema');
  // The search_path travels as a startup option, so every pooled connection sees the schema from its first query.
  const pool = new pg.Pool({ connectionString: parsed.toString(), max: 8, types, options: `-c search_path=${schema},public` });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on the next query.
  });
  const setup = await pool.connect();
  try {
    await setup.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await setup.query(`SET search_path TO "${schema}", public`);
    // In public, so every schema's search_path (schema, public) finds its operator classes.
    await setup.query('CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public');
  } finally {
    setup.release();
  }
  const wrapClient = (client: pg.Pool | pg.PoolClient): Queryable => ({
    async query<T>(sql: string, params: SqlParam[] = []) {
      const result = await client.query(sql, params as unknown[]);
      return result.rows as T[];
    },
    async exec(sql: string) {
      await client.query(sql);
    },
  });
  /** COPY needs one connection for its whole stream, which a transaction's client is. */
  const withCopy = (client: pg.PoolClient): Transaction => ({
    ...wrapClient(client),
    async copyTo(source: string) {
      const chunks: Buffer[] = [];
      for await (const chunk of client.query(copyToStdout(`COPY ${source} TO STDOUT`))) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
    async copyFrom(target: string, data: Buffer) {
      await pipeline(Readable.from([data]), client.query(copyFromStdin(`COPY ${target} FROM STDIN`)));
    },
  });
  const base = wrapClient(pool);
  return {
    kind: 'postgres',
    query: base.query,
    exec: base.exec,
    async transaction<T>(fn: (tx: Transaction) => Promise<T>) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(withCopy(client));
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
