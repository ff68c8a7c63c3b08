import type { Kysely } from "kysely";
import { isPostgres } from "../dialect";

/** Passes in a member's cart (spec: passes are bought from the pricing pages and the cart). */
export async function up(db: Kysely<any>): Promise<void> {
  const table = db.schema.createTable("cart_passes");
  await (isPostgres(db)
    ? table.addColumn("id", "serial", (c) => c.primaryKey())
    : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
  )
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("pass_price_id", "integer", (c) => c.notNull().references("pass_prices.id"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("cart_passes_uq").unique().on("cart_passes").columns(["user_id", "pass_price_id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("cart_passes").ifExists().execute();
}
