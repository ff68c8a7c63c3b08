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

/**
 * How much of an inquiry post is read (app/utils/multipart.server.ts). A file over 2 MB is read past, not kept,
 * so the page can keep what was typed; past 20 MB reading stops, and the fields before the file (all of them,
 * in the page's order) are still kept.
 */
export const INQUIRY_FORM_LIMITS = { maxFileBytes: INQUIRY_ATTACHMENT_MAX_BYTES, maxParts: 10, maxBodyBytes: 20 * 1024 * 1024 };

export interface NewInquiry {
  category: SupportCategory;
  title: string;
  description: string;
  email: string;
  attachment?: Uint8Array | null;
}

/**
 * Files a 1:1 inquiry. The attachment (jpg or png, up to 2 MB, checked by content) goes to private storage, and
 * only with its row: it is written under a temporary name, then the row is inserted and the file renamed into
 * place in one transaction. A failure at any step (a full disk midway through the write, the insert, the
 * rename, the commit) removes whatever was written, so no partial or orphan file and no row without its file
 * is left. (A crash between the write and the rename leaves only a `.tmp-*` file, never a final name.)
 */
export async function fileInquiry(db: DB, dataDir: string, userId: number | null, input: NewInquiry, now = new Date()): Promise<number> {
  if (!SUPPORT_CATEGORIES.includes(input.category)) throw new Error("bad category");
  let attachment: { path: string; final: string; temp: string } | null = null;
  if (input.attachment?.length) {
    const kind = imageKind(input.attachment);
    if (!kind || input.attachment.length > INQUIRY_ATTACHMENT_MAX_BYTES) throw new Error("ATTACHMENT_REFUSED");
    const name = `${now.toISOString().slice(0, 10)}-${randomBytes(8).toString("hex")}.${kind}`;
    const dir = path.join(dataDir, "storage", "inquiries");
    attachment = { path: path.join("inquiries", name), final: path.join(dir, name), temp: path.join(dir, `.tmp-${name}`) };
    await fs.mkdir(dir, { recursive: true });
  }
  try {
    if (attachment) await fs.writeFile(attachment.temp, input.attachment as Uint8Array, { flag: "wx" });
    return await db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto("support_tickets")
        .values({
          user_id: userId,
          category: input.category,
          title: input.title.trim(),
          description: input.description.trim(),
          email: input.email.trim().toLowerCase(),
          attachment_path: attachment?.path ?? null,
          status: "accepted",
          answer: null,
          created_at: now.toISOString(),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      if (attachment) await fs.rename(attachment.temp, attachment.final);
      return row.id;
    });
  } catch (error) {
    if (attachment) {
      await fs.rm(attachment.temp, { force: true });
      // The rename happened but the commit did not.
      await fs.rm(attachment.final, { force: true });
    }
    throw error;
  }
}

/**
 * Removes attachment files a crash left half-made (`.tmp-*`, see fileInquiry) once they are older than any write
 * could take; answers how many went. Final files are never touched: each has its row.
 */
export async function sweepStaleAttachments(dataDir: string, now = new Date(), olderThanMs = 60 * 60_000): Promise<number> {
  const dir = path.join(dataDir, "storage", "inquiries");
  const names = await fs.readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [] as string[];
    throw error;
  });
  let removed = 0;
  for (const name of names) {
    if (!name.startsWith(".tmp-")) continue;
    const stat = await fs.stat(path.join(dir, name)).catch(() => null);
    if (stat && now.getTime() - stat.mtimeMs >= olderThanMs) {
      await fs.rm(path.join(dir, name), { force: true });
      removed++;
    }
  }
  return removed;
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
