import { sql } from "kysely";
import type { DB } from "../../db/db.server";
import type { ContentsType } from "../../db/schema";
import type { Locale } from "../../i18n/config";
import { type BpmBand, bpmBand } from "../rules";
import { CARD_COLUMNS, type ContentCard, selectCards, toCard } from "./cards.server";

import { CONTENT_TYPES } from "./kinds";

export { CONTENT_TYPES };
export const isContentType = (v: unknown): v is ContentsType => typeof v === "string" && (CONTENT_TYPES as readonly string[]).includes(v);

export interface ContentDetail extends ContentCard {
  description: string;
  tags: string[];
  category: { id: number; name: string } | null;
  genre: { id: number; name: string } | null;
  mood: { id: number; name: string } | null;
  width: number | null;
  height: number | null;
  fileSize: number | null;
  bpmBand: BpmBand | null;
  releasedAt: string;
  /** What a visitor needs to use the item: free needs the licensed editor and an account; benefit a paid purchase. */
  requirement: "purchase" | "license_and_account" | "paid_purchase";
  bundle: ContentCard[];
}

const lang = (locale: Locale, ko: string, en: string) => (locale === "ko" ? ko : en);

/** One item by its code (the detail pages) or id (the API), with its taxonomy and, for packages, what they bundle. */
export async function contentDetail(db: DB, key: { code: string } | { id: number }, locale: Locale): Promise<ContentDetail | null> {
  const row = await selectCards(db.selectFrom("contents"))
    .leftJoin("taxonomy as cat", "cat.id", "contents.category_id")
    .leftJoin("taxonomy as genre", "genre.id", "contents.genre_id")
    .leftJoin("taxonomy as mood", "mood.id", "contents.mood_id")
    .select([
      "contents.description_ko",
      "contents.description_en",
      "contents.tags_ko",
      "contents.tags_en",
      "contents.width",
      "contents.height",
      "contents.file_size",
      "contents.category_id",
      "contents.genre_id",
      "contents.mood_id",
      "cat.name_ko as cat_ko",
      "cat.name_en as cat_en",
      "genre.name_ko as genre_ko",
      "genre.name_en as genre_en",
      "mood.name_ko as mood_ko",
      "mood.name_en as mood_en",
    ])
    .$if("code" in key, (q) => q.where("contents.code", "=", (key as { code: string }).code))
    .$if("id" in key, (q) => q.where("contents.id", "=", (key as { id: number }).id))
    .executeTakeFirst();
  if (!row) return null;
  const card = toCard(row, locale);
  const bundle =
    card.type === "package"
      ? (
          await db
            .selectFrom("package_items")
            .innerJoin("contents", "contents.id", "package_items.content_id")
            .select(CARD_COLUMNS)
            .where("package_items.package_id", "=", row.id)
            .orderBy("package_items.sort")
            .execute()
        ).map((r) => toCard(r, locale))
      : [];
  const term = (id: number | null, ko: string | null, en: string | null) => (id && ko && en ? { id, name: lang(locale, ko, en) } : null);
  return {
    ...card,
    description: lang(locale, row.description_ko, row.description_en),
    tags: lang(locale, row.tags_ko, row.tags_en)
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean),
    category: term(row.category_id, row.cat_ko, row.cat_en),
    genre: term(row.genre_id, row.genre_ko, row.genre_en),
    mood: term(row.mood_id, row.mood_ko, row.mood_en),
    width: row.width,
    height: row.height,
    fileSize: row.file_size,
    bpmBand: row.bpm ? bpmBand(row.bpm) : null,
    releasedAt: row.released_at,
    requirement: card.priceType === "free" ? "license_and_account" : card.priceType === "benefit" ? "paid_purchase" : "purchase",
    bundle,
  };
}

/**
 * Items related to one item: the same type in the same genre (audio) or category, most popular first,
 * active items only, the item itself excluded.
 */
export async function relatedContents(
  db: DB,
  id: number,
  locale: Locale,
  page: { offset: number; limit: number; withTotal?: boolean },
): Promise<{ list: ContentCard[]; total: number | null } | null> {
  const item = await db
    .selectFrom("contents")
    .select(["id", "contents_type", "category_id", "genre_id"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!item) return null;
  const base = db
    .selectFrom("contents")
    .where("contents.status", "=", "active")
    .where("contents.id", "!=", item.id)
    .where("contents.contents_type", "=", item.contents_type)
    .$if(item.genre_id !== null, (q) => q.where("contents.genre_id", "=", item.genre_id))
    .$if(item.genre_id === null && item.category_id !== null, (q) => q.where("contents.category_id", "=", item.category_id));
  const [rows, count] = await Promise.all([
    selectCards(base).orderBy("contents.popularity", "desc").orderBy("contents.id").offset(page.offset).limit(page.limit).execute(),
    // Counting a genre of a big catalog costs more than the page itself: only callers that show it ask.
    page.withTotal === false ? Promise.resolve(null) : base.select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map((r) => toCard(r, locale)), total: count ? Number(count.n) : null };
}
