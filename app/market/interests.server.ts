import type { DB } from "../db/db.server";
import type { ContentsType } from "../db/schema";
import type { Locale } from "../i18n/config";
import { addToCart } from "./cart.server";
import { CARD_COLUMNS, type ContentCard, toCard } from "./catalog/cards.server";
import { MarketError } from "./errors";

export interface Favorite extends ContentCard {
  interestId: number;
}

/** A member's favorites (interests), newest first, optionally of one type, with counts per type. */
export async function listFavorites(db: DB, userId: number, locale: Locale, type?: ContentsType) {
  const rows = await db
    .selectFrom("interests")
    .innerJoin("contents", "contents.id", "interests.content_id")
    .select(CARD_COLUMNS)
    .select("interests.id as interest_id")
    .where("interests.user_id", "=", userId)
    .orderBy("interests.created_at", "desc")
    .orderBy("interests.id", "desc")
    .execute();
  const all: Favorite[] = rows.map((r) => ({ ...toCard(r, locale), interestId: r.interest_id }));
  const counts: Record<ContentsType, number> = { video: 0, icon: 0, audio: 0, font: 0, package: 0 };
  for (const f of all) counts[f.type]++;
  return { list: type ? all.filter((f) => f.type === type) : all, counts };
}

/** Adds items to favorites by code; adding one twice is not an error. Answers how many were new. */
export async function addFavorites(db: DB, userId: number, codes: string[], now = new Date()): Promise<number> {
  let added = 0;
  await db.transaction().execute(async (trx) => {
    for (const code of codes) {
      const content = await trx.selectFrom("contents").select("id").where("code", "=", code).executeTakeFirst();
      if (!content) throw new MarketError("NOT_FOUND", 404, `No content with code ${code}`);
      const result = await trx
        .insertInto("interests")
        .values({ user_id: userId, content_id: content.id, created_at: now.toISOString() })
        .onConflict((oc) => oc.columns(["user_id", "content_id"]).doNothing())
        .executeTakeFirst();
      added += Number(result.numInsertedOrUpdatedRows ?? 0);
    }
  });
  return added;
}

export async function removeFavorites(db: DB, userId: number, interestIds: number[]): Promise<number> {
  if (!interestIds.length) return 0;
  const result = await db.deleteFrom("interests").where("user_id", "=", userId).where("id", "in", interestIds).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Moves favorites into the cart (they stay favorites); answers the cart outcome. */
export async function favoritesToCart(db: DB, userId: number, interestIds: number[]) {
  const rows = await db
    .selectFrom("interests")
    .innerJoin("contents", "contents.id", "interests.content_id")
    .select("contents.code")
    .where("interests.user_id", "=", userId)
    .where("interests.id", "in", interestIds.length ? interestIds : [-1])
    .execute();
  return addToCart(
    db,
    { userId, ngt: null },
    rows.map((r) => ({ code: r.code })),
  );
}
