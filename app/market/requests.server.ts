import type { DB } from "../db/db.server";

/**
 * Purchase requests waiting for a business representative (spec section 3: "request count is loaded" for
 * user_type 2): key-only users of their licences asked them to pay, and the deadline has not passed.
 */
export async function countOpenRequests(db: DB, ownerUserId: number, now = new Date()): Promise<number> {
  const row = await db
    .selectFrom("purchase_requests")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("owner_user_id", "=", ownerUserId)
    .where("status", "=", "waiting")
    .where("expires_at", ">", now.toISOString())
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
