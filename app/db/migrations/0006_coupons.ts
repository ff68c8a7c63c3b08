import type { Kysely } from "kysely";
import { isPostgres } from "../dialect";

/** One coupon per account (spec section 2): a redemption is written with the order that uses the coupon. */
export async function up(db: Kysely<any>): Promise<void> {
  const table = db.schema.createTable("coupon_redemptions");
  await (isPostgres(db)
    ? table.addColumn("id", "serial", (c) => c.primaryKey())
    : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
  )
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("code", "text", (c) => c.notNull())
    .addColumn("order_id", "integer", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("coupon_redemptions_uq").unique().on("coupon_redemptions").columns(["user_id", "code"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("coupon_redemptions").ifExists().execute();
}
