import type { DB } from "../../app/db/db.server";
import { updateContent } from "../../app/market/catalog/manage.server";

/** Renames an item's English title through the domain, as the console's item form does, the rest as it is. */
export async function renameItem(db: DB, id: number, titleEn: string) {
  const item = await db.selectFrom("contents").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const operator = await db.selectFrom("operators").select(["id", "email"]).orderBy("id").executeTakeFirstOrThrow();
  return updateContent(db, { id: operator.id, email: operator.email }, item.id, {
    titleKo: item.title_ko,
    titleEn,
    descriptionKo: item.description_ko,
    descriptionEn: item.description_en,
    tagsKo: item.tags_ko,
    tagsEn: item.tags_en,
    priceType: item.price_type,
    priceKrw: item.price_krw,
    priceUsd: item.price_usd,
    categoryId: item.category_id,
    genreId: item.genre_id,
    moodId: item.mood_id,
    bpm: item.bpm,
    audioSub: item.contents_type_sub,
  });
}
