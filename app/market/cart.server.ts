import { sql } from "kysely";
import type { DB } from "../db/db.server";
import { CART_KEEP_DAYS } from "./rules";

export interface CartOwner {
  userId: number | null;
  ngt: string | null;
}

/** Items in a member's cart, or an anonymous cart (ngt), not older than the keep period. */
export async function countCart(db: DB, owner: CartOwner, now = new Date()): Promise<number> {
  if (!owner.userId && !owner.ngt) return 0;
  const since = new Date(now.getTime() - CART_KEEP_DAYS * 86_400_000).toISOString();
  const row = await db
    .selectFrom("carts")
    .select(sql<number>`count(*)`.as("n"))
    .$if(Boolean(owner.userId), (q) => q.where("user_id", "=", owner.userId as number))
    .$if(!owner.userId, (q) => q.where("ngt", "=", owner.ngt as string).where("user_id", "is", null))
    .where("created_at", ">=", since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
