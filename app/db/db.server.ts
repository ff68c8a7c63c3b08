import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, type MigrationResultSet, Migrator, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import { migrations } from "./migrations";
import type { Database } from "./schema";

export type DB = Kysely<Database>;

// PostgreSQL returns COUNT(*) and other int8 values as strings; our counts fit in a JS number.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

/** Opens the database named by a DATABASE_URL (`file:...` for SQLite, `postgres://...`). */
export function createDb(url: string, options: { poolSize?: number } = {}): DB {
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) {
    // Short web queries: parallel plans cost more than they save, and re-run hashed subplans per worker. Random
    // reads cost about what sequential ones do on SSDs: without saying so, a broad full-text match reads and
    // tests every row of the index table instead of only those the GIN index names.
    const pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? 10,
      options: "-c max_parallel_workers_per_gather=0 -c random_page_cost=1.1",
    });
    // An idle connection the server closes (restart, failover, a dropped test database) is discarded by the pool;
    // without a listener its error would crash the process.
    pool.on("error", (error) =>
      console.warn(JSON.stringify({ level: "warn", msg: "idle database connection lost", error: String(error) })),
    );
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  const file = url.replace(/^file:/, "");
  if (file !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
}

/** Applies every pending migration; throws with the failing migration's name. */
export async function migrateToLatest(db: DB): Promise<MigrationResultSet> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const result = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === "Error");
    const err = result.error instanceof Error ? result.error : new Error(String(result.error));
    err.message = `Migration ${failed?.migrationName ?? "?"} failed: ${err.message}`;
    throw err;
  }
  return result;
}

let shared: DB | undefined;

/** The process-wide database, opened on first use from DATABASE_URL. */
export function getDb(): DB {
  if (!shared) {
    shared = createDb(process.env.DATABASE_URL || "file:./data/market.sqlite");
  }
  return shared;
}

/** Replaces the process-wide database (server start-up and tests). */
export function setDb(db: DB): void {
  shared = db;
}
