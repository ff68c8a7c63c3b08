import type { Kysely } from "kysely";

/**
 * Publishing from the operator console (issue 17): banners, key visuals and keywords can be hidden without being
 * deleted (the storefront and the API read the shown ones only).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("banners")
    .addColumn("visible", "integer", (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable("keywords")
    .addColumn("visible", "integer", (c) => c.notNull().defaultTo(1))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("keywords").dropColumn("visible").execute();
  await db.schema.alterTable("banners").dropColumn("visible").execute();
}
