import type { Kysely } from "kysely";
import { isPostgres } from "../dialect";

/** Why members left (no personal data: the member's rows are gone). */
export async function up(db: Kysely<any>): Promise<void> {
  const table = db.schema.createTable("withdrawals");
  await (isPostgres(db)
    ? table.addColumn("id", "serial", (c) => c.primaryKey())
    : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
  )
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("detail", "text")
    .addColumn("user_type", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("withdrawals").ifExists().execute();
}
