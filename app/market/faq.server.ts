import { sql } from "kysely";
import type { DB } from "../db/db.server";
import type { Locale } from "../i18n/config";
import { PAGE_SIZE } from "./rules";

/** FAQ entries in the visitor's language, searched by keyword and category, 20 a page (the /support page). */
export async function searchFaq(db: DB, locale: Locale, filter: { keyword?: string; category?: string; page: number }) {
  const [found, categories] = await Promise.all([
    listFaq(db, locale, { ...filter, offset: (filter.page - 1) * PAGE_SIZE.faq, limit: PAGE_SIZE.faq }),
    db.selectFrom("faqs").select("category").distinct().orderBy("category").execute(),
  ]);
  const total = found.total_count;
  return {
    list: found.list,
    total,
    pages: Math.max(1, Math.ceil(total / PAGE_SIZE.faq)),
    categories: categories.map((r) => r.category),
  };
}

/**
 * FAQ entries in a language, by keyword (in the question or the answer, any case; `%` and `_` are plain
 * characters) and category, from `offset`: what the page and `GET support/faq` both show.
 */
export async function listFaq(db: DB, locale: Locale, filter: { keyword?: string; category?: string; offset: number; limit: number }) {
  const q = locale === "ko" ? "question_ko" : "question_en";
  const a = locale === "ko" ? "answer_ko" : "answer_en";
  let base = db.selectFrom("faqs");
  if (filter.category) base = base.where("category", "=", filter.category);
  if (filter.keyword) {
    const like = `%${filter.keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base = base.where((eb) => sql<boolean>`(lower(${eb.ref(q)}) like ${like} escape '\\' or lower(${eb.ref(a)}) like ${like} escape '\\')`);
  }
  const [rows, total] = await Promise.all([
    base
      .select(["id", "category", `${q} as question`, `${a} as answer`])
      .orderBy("sort")
      .orderBy("id")
      .offset(filter.offset)
      .limit(filter.limit)
      .execute(),
    base.select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow(),
  ]);
  return { list: rows, total_count: Number(total.n) };
}

/** One FAQ entry in the visitor's language. */
export async function getFaq(db: DB, id: number, locale: Locale) {
  const row = await db.selectFrom("faqs").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) return null;
  const ko = locale === "ko";
  return {
    id: row.id,
    category: row.category,
    question: ko ? row.question_ko : row.question_en,
    answer: ko ? row.answer_ko : row.answer_en,
  };
}
