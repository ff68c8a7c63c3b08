import { type Kysely, PostgresAdapter } from "kysely";

/** True when the Kysely instance talks to PostgreSQL (the only place engines are told apart). */
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
