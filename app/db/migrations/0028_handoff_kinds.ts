import { type Kysely, sql } from "kysely";

/**
 * The editor's hand-off by kind of key (issue 24, point 1; docs/editor-sign-in.md): a token now says what it opens —
 * a member's session (`member`), the key-only webview for that key alone (`key`), or the join-and-link page
 * (`join`) — and only `member` rows name an account. The table is made anew (tokens live two minutes, so an
 * unredeemed one lost in the upgrade costs one more click in the editor).
 *
 * Before this change a business (B2BG) key's hand-off opened the representative's session. Those sessions are
 * revoked here: every session opened at the moment a hand-off for a business key was redeemed, for that hand-off's
 * account (the redemption wrote the session and `used_at` with the same instant).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    DELETE FROM sessions WHERE EXISTS (
      SELECT 1 FROM sign_in_handoffs h JOIN licenses l ON l.id = h.license_id
      WHERE l.owner_kind = 'b2bg' AND h.used_at IS NOT NULL
        AND h.user_id = sessions.user_id AND h.used_at = sessions.created_at
    )`.execute(db);
  await db.schema.dropTable("sign_in_handoffs").execute();
  await db.schema
    .createTable("sign_in_handoffs")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("license_id", "integer", (c) => c.notNull().references("licenses.id").onDelete("cascade"))
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sign_in_handoffs_expires_idx").on("sign_in_handoffs").column("expires_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("sign_in_handoffs").execute();
  await db.schema
    .createTable("sign_in_handoffs")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("license_id", "integer", (c) => c.notNull().references("licenses.id").onDelete("cascade"))
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sign_in_handoffs_expires_idx").on("sign_in_handoffs").column("expires_at").execute();
}
