import type { Kysely } from "kysely";
import { isPostgres } from "../dialect";

/**
 * The operator console (app/admin/, app/market/operators/): operators apart from members, each with one role; their
 * sessions (idle and absolute expiry); and the audit log of every operator action, with the state before and after.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const id = (name: string) => {
    const table = db.schema.createTable(name);
    return isPostgres(db)
      ? table.addColumn("id", "serial", (c) => c.primaryKey())
      : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement());
  };
  await id("operators")
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("last_sign_in_at", "text")
    .execute();
  await db.schema.createIndex("operators_email_uq").unique().on("operators").column("email").execute();
  await db.schema
    .createTable("operator_sessions")
    .addColumn("id", "text", (c) => c.primaryKey()) // SHA-256 of the cookie's token
    .addColumn("operator_id", "integer", (c) => c.notNull().references("operators.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("last_seen_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("operator_sessions_operator_idx").on("operator_sessions").column("operator_id").execute();
  await id("audit_log")
    .addColumn("operator_id", "integer", (c) => c.references("operators.id").onDelete("set null"))
    .addColumn("operator_email", "text", (c) => c.notNull())
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("target_type", "text", (c) => c.notNull())
    .addColumn("target_id", "text")
    .addColumn("before_json", "text")
    .addColumn("after_json", "text")
    .addColumn("reason", "text")
    .addColumn("ip", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("audit_log_created_idx").on("audit_log").column("created_at").execute();
  await db.schema.createIndex("audit_log_target_idx").on("audit_log").columns(["target_type", "target_id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("audit_log").ifExists().execute();
  await db.schema.dropTable("operator_sessions").ifExists().execute();
  await db.schema.dropTable("operators").ifExists().execute();
}
