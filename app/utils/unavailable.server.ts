import { type DatabaseUnavailableCode, databaseUnavailableCode, reportDatabaseUnavailable } from "../db/errors";
import { isStorageFull } from "../integrations/storage/storage";

/**
 * "The store cannot do this now, try again later", as opposed to a bug: the database is busy, full or unreachable
 * (app/db/errors.ts: SQLite's lock past its wait, PostgreSQL's lock or statement timeout, a full disk, a lost
 * server), or the file storage has no room for an upload or an attachment (ENOSPC, EDQUOT, an object store's 507).
 * The doors answer these 503 with Retry-After and "Please try again in a few minutes", never a 500 with a stack:
 * pages through entry.server.tsx's handleError, the API through app/api/router.server.ts.
 */
export type UnavailableCode = DatabaseUnavailableCode | "STORAGE_FULL";

/** The Retry-After of every such 503, in seconds (pages and API alike). */
export const UNAVAILABLE_RETRY_AFTER_S = 60;

/** What an error stands for when the store cannot serve now, else null (a bug or a refusal: not a 503). */
export function unavailableCode(error: unknown): UnavailableCode | null {
  return databaseUnavailableCode(error) ?? (isStorageFull(error) ? "STORAGE_FULL" : null);
}

/**
 * Writes the one log line for an unavailable store and answers its code (the API's `data.error`). A full storage is
 * an error an operator must act on, like a full database disk.
 */
export function reportUnavailable(error: unknown, fields: Record<string, unknown> = {}): UnavailableCode {
  if (databaseUnavailableCode(error) || !isStorageFull(error)) return reportDatabaseUnavailable(error, fields);
  console.error(
    JSON.stringify({
      level: "error",
      msg: "file storage is full: answered 503; free disk space under DATA_DIR (or raise the object store's quota)",
      code: "STORAGE_FULL",
      ...fields,
      error: error instanceof Error ? error.message : String(error),
    }),
  );
  return "STORAGE_FULL";
}
