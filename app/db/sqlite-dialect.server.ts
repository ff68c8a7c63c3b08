import type SQLite from "better-sqlite3";
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  SelectQueryNode,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type TransactionSettings,
} from "kysely";
import { LRUCache } from "lru-cache";
import { DatabaseBusyError, DatabaseFullError, DatabaseUnavailableError } from "./errors";

/**
 * Kysely's SQLite dialect with SQLITE_BUSY waited out asynchronously. better-sqlite3 is synchronous: with a
 * busy_timeout, a statement that meets another process's write lock (a backup, the sqlite3 shell in a transaction,
 * a second server) sleeps on the event loop and the whole server stops answering. The connection runs with
 * busy_timeout 0; a busy statement is tried again after a setTimeout back-off (1, 2, 4 ... 100 ms) until the wait
 * budget (2 s by default) is spent, then fails with DatabaseBusyError, which the doors answer with 503.
 *
 * Only what is safe to repeat is repeated: a statement outside a transaction (nothing of it happened), BEGIN and
 * COMMIT. Transactions start with BEGIN IMMEDIATE, so the write lock is taken (and waited for) before the first
 * statement; inside, a statement cannot meet a busy lock any more. (A deferred transaction that read first and
 * then met another writer could only be rolled back: SQLITE_BUSY_SNAPSHOT.)
 *
 * The one connection is used by one caller at a time (a FIFO lock, as Kysely's own driver does); a caller waiting
 * out a busy lock outside a transaction lets the others go meanwhile, so reads, which WAL never blocks, still answer.
 */
export interface RetryingSqliteConfig {
  database: SQLite.Database;
  /** How long a statement may wait for another process's lock in all (ms). */
  busyBudgetMs?: number;
}

export const DEFAULT_BUSY_BUDGET_MS = 2000;

export class RetryingSqliteDialect implements Dialect {
  constructor(private readonly config: RetryingSqliteConfig) {}
  createDriver(): Driver {
    return new RetryingSqliteDriver(this.config.database, this.config.busyBudgetMs ?? DEFAULT_BUSY_BUDGET_MS);
  }
  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }
  createAdapter() {
    return new SqliteAdapter();
  }
  createIntrospector(db: Kysely<any>) {
    return new SqliteIntrospector(db);
  }
}

const isBusy = (error: unknown) => /^SQLITE_BUSY/.test(String((error as { code?: unknown })?.code ?? ""));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The wait before try `n` (0-based): doubling from 1 ms up to 100 ms, with a little jitter. */
const backoff = (n: number) => Math.min(100, 2 ** n) * (0.75 + Math.random() / 2);

/** A first-come, first-served lock. */
class Mutex {
  #locked = false;
  #waiters: (() => void)[] = [];
  lock(): Promise<void> {
    if (!this.#locked) {
      this.#locked = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiters.push(resolve));
  }
  unlock(): void {
    const next = this.#waiters.shift();
    if (next) next();
    else this.#locked = false;
  }
}

class RetryingSqliteDriver implements Driver {
  readonly #mutex = new Mutex();
  readonly #connection: RetryingSqliteConnection;

  constructor(
    private readonly db: SQLite.Database,
    budgetMs: number,
  ) {
    this.#connection = new RetryingSqliteConnection(db, this.#mutex, budgetMs);
  }
  async init() {}
  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#mutex.lock();
    return this.#connection;
  }
  async releaseConnection() {
    this.#mutex.unlock();
  }
  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    // A read-only transaction takes no write lock (WAL readers never wait); any other takes it at once.
    const begin = settings.accessMode === "read only" ? "begin" : "begin immediate";
    await (connection as RetryingSqliteConnection).execute(CompiledQuery.raw(begin), true);
  }
  async commitTransaction(connection: DatabaseConnection) {
    await (connection as RetryingSqliteConnection).execute(CompiledQuery.raw("commit"), true);
  }
  async rollbackTransaction(connection: DatabaseConnection) {
    // SQLite rolls a transaction back by itself on some errors (SQLITE_FULL, I/O errors): nothing left to undo.
    if (this.db.inTransaction) await connection.executeQuery(CompiledQuery.raw("rollback"));
  }
  async savepoint(connection: DatabaseConnection, name: string) {
    await connection.executeQuery(CompiledQuery.raw(`savepoint "${name}"`));
  }
  async rollbackToSavepoint(connection: DatabaseConnection, name: string) {
    await connection.executeQuery(CompiledQuery.raw(`rollback to "${name}"`));
  }
  async releaseSavepoint(connection: DatabaseConnection, name: string) {
    await connection.executeQuery(CompiledQuery.raw(`release "${name}"`));
  }
  async destroy() {
    this.db.close();
  }
}

class RetryingSqliteConnection implements DatabaseConnection {
  /**
   * Prepared statements by their SQL: Kysely compiles the same few hundred statements again and again, and
   * preparing one costs as much as running a small query (2.4% of a fresh page's CPU before this).
   */
  private readonly statements = new LRUCache<string, SQLite.Statement>({ max: 500 });

  constructor(
    private readonly db: SQLite.Database,
    private readonly mutex: Mutex,
    private readonly budgetMs: number,
  ) {}

  private prepared(sql: string): SQLite.Statement {
    let stmt = this.statements.get(sql);
    if (stmt === undefined) {
      stmt = this.db.prepare(sql);
      this.statements.set(sql, stmt);
    }
    return stmt;
  }

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.execute(query, false);
  }

  /**
   * Runs a statement, waiting out a busy lock when that is safe: outside a transaction (the lock is handed to the
   * other callers while waiting), or for BEGIN/COMMIT (`repeatable`; the caller keeps the lock, as a transaction
   * of ours is open or opening).
   */
  async execute<R>(query: CompiledQuery, repeatable: boolean): Promise<QueryResult<R>> {
    const started = performance.now();
    for (let attempt = 0; ; attempt++) {
      try {
        return this.run<R>(query);
      } catch (error) {
        const waited = performance.now() - started;
        const inTransaction = this.db.inTransaction && !repeatable;
        if (!isBusy(error) || inTransaction || waited >= this.budgetMs) throw this.translate(error, waited);
      }
      const outside = !this.db.inTransaction;
      if (outside) this.mutex.unlock();
      try {
        await sleep(backoff(attempt));
      } finally {
        if (outside) await this.mutex.lock();
      }
    }
  }

  private run<R>(query: CompiledQuery): QueryResult<R> {
    const stmt = this.prepared(query.sql);
    const parameters = query.parameters as unknown[];
    if (stmt.reader) return { rows: stmt.all(parameters) as R[] };
    const { changes, lastInsertRowid } = stmt.run(parameters);
    return {
      numAffectedRows: changes !== undefined && changes !== null ? BigInt(changes) : undefined,
      insertId: lastInsertRowid !== undefined && lastInsertRowid !== null ? BigInt(lastInsertRowid) : undefined,
      rows: [],
    };
  }

  /** SQLite's environment failures as the errors the doors answer with 503; anything else as it is. */
  private translate(error: unknown, waitedMs: number): unknown {
    const code = String((error as { code?: unknown })?.code ?? "");
    const file = this.db.name;
    if (isBusy(error)) {
      return new DatabaseBusyError(
        `database busy: another connection held the lock on ${file} (${code}, waited ${Math.round(waitedMs)} ms)`,
        {
          cause: error,
        },
      );
    }
    if (code === "SQLITE_FULL") return new DatabaseFullError(`database or disk is full (SQLITE_FULL) writing ${file}`, { cause: error });
    if (/^SQLITE_(IOERR|READONLY|CANTOPEN)/.test(code)) {
      return new DatabaseUnavailableError("DATABASE_UNREACHABLE", `database ${file} cannot be read or written (${code})`, { cause: error });
    }
    return error;
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(query.query)) throw new Error("Sqlite driver only supports streaming of select queries");
    const stmt = this.db.prepare(query.sql);
    for (const row of stmt.iterate(query.parameters as unknown[])) yield { rows: [row as R] };
  }
}

/**
 * Whether this connection could take the write lock now, tried for at most `budgetMs` without holding up anyone
 * (for the health check). A transaction of our own already holds it.
 */
export async function probeSqliteWriteLock(db: SQLite.Database, budgetMs = 250): Promise<"ok" | "busy" | "unreachable"> {
  const started = performance.now();
  for (let attempt = 0; ; attempt++) {
    if (db.inTransaction) return "ok";
    try {
      db.prepare("select count(*) from sqlite_schema").get();
      db.exec("begin immediate; rollback");
      return "ok";
    } catch (error) {
      // A statement of ours is being stepped through (a streamed select): the database answers.
      if (error instanceof TypeError && /busy executing/.test(error.message)) return "ok";
      if (!isBusy(error)) return "unreachable";
      if (performance.now() - started >= budgetMs) return "busy";
    }
    await sleep(backoff(attempt + 3));
  }
}
