import { sql } from "kysely";
import type { DB } from "../db/db.server";
import type { Locale } from "../i18n/config";
import { MarketError } from "./errors";
import { type Actor, recordAudit } from "./operators/audit.server";
import { PAGE_SIZE } from "./rules";
import { nextSort } from "./sort-order.server";
import type { SupportCategory } from "./support-rules";

/**
 * The FAQ: what /support and `GET support/faq` show (entries not hidden, in the visitor's language), and the
 * operator console's editing of it (both languages, hide or delete), each change with its audit line.
 */

/** FAQ entries in the visitor's language, searched by keyword and category, 20 a page (the /support page). */
export async function searchFaq(db: DB, locale: Locale, filter: { keyword?: string; category?: string; page: number }) {
  const [found, categories] = await Promise.all([
    listFaq(db, locale, { ...filter, offset: (filter.page - 1) * PAGE_SIZE.faq, limit: PAGE_SIZE.faq }),
    db.selectFrom("faqs").select("category").where("hidden", "=", 0).distinct().orderBy("category").execute(),
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
  let base = db.selectFrom("faqs").where("hidden", "=", 0);
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

/** One FAQ entry in the visitor's language (a hidden one is not found). */
export async function getFaq(db: DB, id: number, locale: Locale) {
  const row = await db.selectFrom("faqs").selectAll().where("id", "=", id).where("hidden", "=", 0).executeTakeFirst();
  if (!row) return null;
  const ko = locale === "ko";
  return {
    id: row.id,
    category: row.category,
    question: ko ? row.question_ko : row.question_en,
    answer: ko ? row.answer_ko : row.answer_en,
  };
}

/** An FAQ entry as the console edits it: both languages, its category and place in the list. */
export interface FaqInput {
  category: SupportCategory;
  questionKo: string;
  questionEn: string;
  answerKo: string;
  answerEn: string;
  sort: number;
  hidden: boolean;
}

export const CONSOLE_FAQ_PAGE_SIZE = 30;

const faqSnapshot = (r: {
  category: string;
  question_ko: string;
  question_en: string;
  answer_ko: string;
  answer_en: string;
  sort: number;
  hidden: number;
}) => ({
  category: r.category,
  questionKo: r.question_ko,
  questionEn: r.question_en,
  answerKo: r.answer_ko,
  answerEn: r.answer_en,
  sort: r.sort,
  hidden: r.hidden === 1,
});

const faqRow = (input: FaqInput) => ({
  category: input.category,
  question_ko: input.questionKo.trim(),
  question_en: input.questionEn.trim(),
  answer_ko: input.answerKo.trim(),
  answer_en: input.answerEn.trim(),
  sort: input.sort,
  hidden: input.hidden ? 1 : 0,
});

/** The console's FAQ list: every entry, hidden ones too, by category, keyword (either language) and place. */
export async function consoleFaqPage(db: DB, f: { category?: string; keyword?: string; page: number }) {
  let base = db.selectFrom("faqs");
  if (f.category) base = base.where("category", "=", f.category);
  if (f.keyword) {
    const like = `%${f.keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base = base.where(
      (eb) =>
        sql<boolean>`(lower(${eb.ref("question_ko")}) like ${like} escape '\\' or lower(${eb.ref("question_en")}) like ${like} escape '\\')`,
    );
  }
  const total = Number((await base.select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow()).n);
  const pages = Math.max(1, Math.ceil(total / CONSOLE_FAQ_PAGE_SIZE));
  const page = Math.min(Math.max(1, f.page), pages);
  const rows = await base
    .selectAll()
    .orderBy("sort")
    .orderBy("id")
    .offset((page - 1) * CONSOLE_FAQ_PAGE_SIZE)
    .limit(CONSOLE_FAQ_PAGE_SIZE)
    .execute();
  return { rows: rows.map((r) => ({ id: r.id, ...faqSnapshot(r) })), total, page, pages };
}

/** One FAQ entry with both languages, for the console's edit form (hidden or not). */
export async function consoleFaq(db: DB, id: number) {
  const row = await db.selectFrom("faqs").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? { id: row.id, ...faqSnapshot(row) } : null;
}

/** The place after the last entry (a new entry goes to the end unless told otherwise). */
export async function nextFaqSort(db: DB): Promise<number> {
  return nextSort(db, "faqs");
}

/** Adds an FAQ entry (faq.create in the audit log); answers its id. */
export async function createFaq(db: DB, input: FaqInput, actor: Actor, now = new Date()): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.insertInto("faqs").values(faqRow(input)).returning("id").executeTakeFirstOrThrow();
    await recordAudit(trx, actor, { action: "faq.create", targetType: "faq", targetId: row.id, after: faqSnapshot(faqRow(input)) }, now);
    return row.id;
  });
}

/** Changes an FAQ entry (faq.update, with the entry before and after); FAQ_NOT_FOUND when it is gone. */
export async function updateFaq(db: DB, id: number, input: FaqInput, actor: Actor, now = new Date()): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom("faqs").selectAll().where("id", "=", id).executeTakeFirst();
    if (!before) throw new MarketError("FAQ_NOT_FOUND", 404, "No FAQ entry with this id");
    await trx.updateTable("faqs").set(faqRow(input)).where("id", "=", id).execute();
    await recordAudit(
      trx,
      actor,
      { action: "faq.update", targetType: "faq", targetId: id, before: faqSnapshot(before), after: faqSnapshot(faqRow(input)) },
      now,
    );
  });
}

/** Hides an FAQ entry from the storefront or shows it again (faq.hide / faq.show). */
export async function setFaqHidden(db: DB, id: number, hidden: boolean, actor: Actor, now = new Date()): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom("faqs").select("hidden").where("id", "=", id).executeTakeFirst();
    if (!before) throw new MarketError("FAQ_NOT_FOUND", 404, "No FAQ entry with this id");
    await trx
      .updateTable("faqs")
      .set({ hidden: hidden ? 1 : 0 })
      .where("id", "=", id)
      .execute();
    await recordAudit(
      trx,
      actor,
      {
        action: hidden ? "faq.hide" : "faq.show",
        targetType: "faq",
        targetId: id,
        before: { hidden: before.hidden === 1 },
        after: { hidden },
      },
      now,
    );
  });
}

/** Deletes an FAQ entry for good (faq.delete, the whole entry kept in the log's "before"). */
export async function deleteFaq(db: DB, id: number, actor: Actor, now = new Date()): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom("faqs").selectAll().where("id", "=", id).executeTakeFirst();
    if (!before) throw new MarketError("FAQ_NOT_FOUND", 404, "No FAQ entry with this id");
    await trx.deleteFrom("faqs").where("id", "=", id).execute();
    await recordAudit(trx, actor, { action: "faq.delete", targetType: "faq", targetId: id, before: faqSnapshot(before) }, now);
  });
}
