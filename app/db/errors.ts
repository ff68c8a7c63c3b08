/**
 * The database cannot serve a request now: another process holds SQLite's write lock past the wait budget, the
 * disk is full, or the server is unreachable. The doors answer 503 "Please try again in a few minutes" instead of
 * a 500 with a stack (app/api/router.server.ts, app/entry.server.tsx).
 *
 * Recognised by `code`, not `instanceof`: server.ts opens the database with its own copy of this module and the
 * built app (build/index.js) bundles another, so a class check would fail between them.
 */
export type DatabaseUnavailableCode = "DATABASE_BUSY" | "DATABASE_FULL" | "DATABASE_UNREACHABLE";

const CODES: ReadonlySet<string> = new Set<DatabaseUnavailableCode>(["DATABASE_BUSY", "DATABASE_FULL", "DATABASE_UNREACHABLE"]);

export class DatabaseUnavailableError extends Error {
  readonly status = 503;
  constructor(
    readonly code: DatabaseUnavailableCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "DatabaseUnavailableError";
  }
}

/** Another connection held the write lock for the whole wait budget (SQLITE_BUSY). */
export class DatabaseBusyError extends DatabaseUnavailableError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("DATABASE_BUSY", message, options);
    this.name = "DatabaseBusyError";
  }
}

/** The disk (or the database's size limit) is full: SQLITE_FULL, PostgreSQL 53100. */
export class DatabaseFullError extends DatabaseUnavailableError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("DATABASE_FULL", message, options);
    this.name = "DatabaseFullError";
  }
}

// PostgreSQL SQLSTATEs that say "not now" rather than "this request is wrong": connection exceptions (class 08),
// insufficient resources (class 53), shutdown and start-up (57P01-57P03), and the ends of the session timeouts
// createDb sets (app/db/db.server.ts): lock_timeout (55P03 lock_not_available) and statement_timeout (57014
// query_canceled), both DATABASE_BUSY.
const PG_BUSY = new Set(["53300", "55P03", "57014"]);
const PG_UNREACHABLE = /^(08|53|57P0[123])/;

/** The unavailable-database code an error stands for (its own, or a raw SQLite/PostgreSQL error's), else null. */
export function databaseUnavailableCode(error: unknown): DatabaseUnavailableCode | null {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code !== "string") continue;
    if (CODES.has(code)) return code as DatabaseUnavailableCode;
    if (code.startsWith("SQLITE_BUSY")) return "DATABASE_BUSY";
    if (code === "SQLITE_FULL" || code === "53100") return "DATABASE_FULL";
    if (/^SQLITE_(IOERR|READONLY|CANTOPEN)/.test(code)) return "DATABASE_UNREACHABLE";
    if (PG_BUSY.has(code)) return "DATABASE_BUSY";
    if (PG_UNREACHABLE.test(code)) return "DATABASE_UNREACHABLE";
  }
  return null;
}

/** True when the error means "the database cannot serve this now": answer 503, log one line, no stack. */
export function isDatabaseUnavailable(error: unknown): boolean {
  return databaseUnavailableCode(error) !== null;
}

/**
 * Writes the one log line for an unavailable database and answers its code (for the API's `data.error`). A full
 * disk is an error an operator must act on; a busy or unreachable database is a warning (it passes by itself or
 * the health check already says so).
 */
export function reportDatabaseUnavailable(error: unknown, fields: Record<string, unknown> = {}): DatabaseUnavailableCode {
  const code = databaseUnavailableCode(error) ?? "DATABASE_UNREACHABLE";
  const detail = error instanceof Error ? error.message : String(error);
  const line = {
    level: code === "DATABASE_FULL" ? "error" : "warn",
    msg:
      code === "DATABASE_FULL"
        ? "database disk is full: answered 503; free disk space where the database lives"
        : code === "DATABASE_BUSY"
          ? "database busy (a lock held by another process or session past the wait, or a statement past its time): answered 503"
          : "database unreachable: answered 503",
    code,
    ...fields,
    error: detail,
  };
  if (code === "DATABASE_FULL") console.error(JSON.stringify(line));
  else console.warn(JSON.stringify(line));
  return code;
}
