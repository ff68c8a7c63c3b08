import { sql } from "kysely";
import type { DB } from "../db/db.server";
import type { Locale } from "../i18n/config";
import { PAGE_SIZE } from "./rules";

export interface Notice {
  id: number;
  title: string;
  body: string;
  pinned: boolean;
  publishedAt: string;
}

export const toNotice = (
  r: { id: number; title_ko: string; title_en: string; body_ko: string; body_en: string; pinned: number; published_at: string },
  locale: Locale,
): Notice => ({
  id: r.id,
  title: locale === "ko" ? r.title_ko : r.title_en,
  body: locale === "ko" ? r.body_ko : r.body_en,
  pinned: r.pinned === 1,
  publishedAt: r.published_at,
});

/** A window of the published notices, pinned first, newest first, with the total. */
export async function noticeWindow(
  db: DB,
  locale: Locale,
  window: { offset: number; limit: number },
  now = new Date(),
): Promise<{ list: Notice[]; total: number }> {
  const base = db.selectFrom("notices").where("published_at", "<=", now.toISOString());
  const [rows, total] = await Promise.all([
    base
      .selectAll()
      .orderBy("pinned", "desc")
      .orderBy("published_at", "desc")
      .orderBy("id", "desc")
      .offset(window.offset)
      .limit(window.limit)
      .execute(),
    base.select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map((r) => toNotice(r, locale)), total: Number(total.n) };
}

/** The notices page: 15 a page (spec section 9). */
export async function listNotices(db: DB, locale: Locale, page: number, now = new Date()) {
  const result = await noticeWindow(db, locale, { offset: (page - 1) * PAGE_SIZE.notices, limit: PAGE_SIZE.notices }, now);
  return { ...result, pages: Math.max(1, Math.ceil(result.total / PAGE_SIZE.notices)) };
}

export async function getNotice(db: DB, id: number, locale: Locale, now = new Date()): Promise<Notice | null> {
  const row = await db
    .selectFrom("notices")
    .selectAll()
    .where("id", "=", id)
    .where("published_at", "<=", now.toISOString())
    .executeTakeFirst();
  return row ? toNotice(row, locale) : null;
}
