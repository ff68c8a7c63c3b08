import type { Kysely } from "kysely";

/**
 * The language a checkout was made in (issue 26, point 7): a key-only buyer has no member and so no language of
 * their own; their order mails are written in the language they bought in. Null for orders placed before this
 * column existed (their mails fall back to the currency's language, as before).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").addColumn("language", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").dropColumn("language").execute();
}
