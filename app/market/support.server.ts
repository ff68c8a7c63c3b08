import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { sql } from "kysely";
import type { DB } from "../db/db.server";
import type { Locale } from "../i18n/config";
import { INQUIRY_ATTACHMENT_MAX_BYTES, PAGE_SIZE } from "./rules";
import { SUPPORT_CATEGORIES, type SupportCategory } from "./support-rules";

/** FAQ entries in the visitor's language, searched by keyword and category, 20 a page. */
export async function searchFaq(db: DB, locale: Locale, filter: { keyword?: string; category?: string; page: number }) {
  const q = locale === "ko" ? "question_ko" : "question_en";
  const a = locale === "ko" ? "answer_ko" : "answer_en";
  let base = db.selectFrom("faqs");
  if (filter.category) base = base.where("category", "=", filter.category);
  if (filter.keyword) {
    const like = `%${filter.keyword.toLowerCase()}%`;
    base = base.where((eb) => eb.or([eb(eb.fn("lower", [q]), "like", like), eb(eb.fn("lower", [a]), "like", like)]));
  }
  const [rows, total] = await Promise.all([
    base
      .select(["id", "category", `${q} as question`, `${a} as answer`])
      .orderBy("sort")
      .offset((filter.page - 1) * PAGE_SIZE.faq)
      .limit(PAGE_SIZE.faq)
      .execute(),
    base.select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow(),
  ]);
  const categories = (await db.selectFrom("faqs").select("category").distinct().orderBy("category").execute()).map((r) => r.category);
  return { list: rows, total: Number(total.n), pages: Math.max(1, Math.ceil(Number(total.n) / PAGE_SIZE.faq)), categories };
}

/** Which image an attachment really is, by its first bytes (the name and the browser's type can lie). */
export function imageKind(bytes: Uint8Array): "png" | "jpg" | null {
  if (bytes.length > 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return "png";
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpg";
  return null;
}

export interface NewInquiry {
  category: SupportCategory;
  title: string;
  description: string;
  email: string;
  attachment?: Uint8Array | null;
}

/**
 * Files a 1:1 inquiry. The attachment (jpg or png, up to 2 MB, checked by content) goes to private storage;
 * the row and the file are written together, and the file is removed if the row cannot be.
 */
export async function fileInquiry(db: DB, dataDir: string, userId: number | null, input: NewInquiry, now = new Date()): Promise<number> {
  if (!SUPPORT_CATEGORIES.includes(input.category)) throw new Error("bad category");
  let attachmentPath: string | null = null;
  if (input.attachment?.length) {
    const kind = imageKind(input.attachment);
    if (!kind || input.attachment.length > INQUIRY_ATTACHMENT_MAX_BYTES) throw new Error("ATTACHMENT_REFUSED");
    attachmentPath = path.join("inquiries", `${now.toISOString().slice(0, 10)}-${randomBytes(8).toString("hex")}.${kind}`);
    await fs.mkdir(path.join(dataDir, "storage", "inquiries"), { recursive: true });
    await fs.writeFile(path.join(dataDir, "storage", attachmentPath), input.attachment);
  }
  try {
    const row = await db
      .insertInto("support_tickets")
      .values({
        user_id: userId,
        category: input.category,
        title: input.title.trim(),
        description: input.description.trim(),
        email: input.email.trim().toLowerCase(),
        attachment_path: attachmentPath,
        status: "accepted",
        answer: null,
        created_at: now.toISOString(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  } catch (error) {
    if (attachmentPath) await fs.rm(path.join(dataDir, "storage", attachmentPath), { force: true });
    throw error;
  }
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
