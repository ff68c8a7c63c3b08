import type { Kysely } from "kysely";

/**
 * When an item was discontinued (issue 18, point 11): a purchase made before it keeps its download right for its 90
 * days. Null for items on sale and for items discontinued before this column existed (their time is unknown, so no
 * purchase is taken to predate it).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("contents").addColumn("discontinued_at", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("contents").dropColumn("discontinued_at").execute();
}
