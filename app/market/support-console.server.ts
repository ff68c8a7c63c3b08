import { sql } from "kysely";
import type { DB } from "../db/db.server";
import { attachmentType } from "./support.server";
import type { InquiryStatus, SupportCategory } from "./support-rules";

/**
 * The operator console's reading of 1:1 inquiries (the answer itself is answerInquiry in support.server.ts): every
 * member's and guest's inquiries, filtered and paged, newest first, and one inquiry with its member.
 */

export const CONSOLE_INQUIRY_PAGE_SIZE = 20;

export interface ConsoleInquiryFilter {
  status?: InquiryStatus;
  category?: SupportCategory;
  /** ISO instants: the caller turns Seoul days into them. */
  from?: string;
  to?: string;
  page: number;
}

export async function consoleInquiryPage(db: DB, f: ConsoleInquiryFilter) {
  let base = db.selectFrom("support_tickets as t").leftJoin("users as u", "u.id", "t.user_id");
  if (f.status) base = base.where("t.status", "=", f.status);
  if (f.category) base = base.where("t.category", "=", f.category);
  if (f.from) base = base.where("t.created_at", ">=", f.from);
  if (f.to) base = base.where("t.created_at", "<", f.to);
  const total = Number((await base.select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow()).n);
  const pages = Math.max(1, Math.ceil(total / CONSOLE_INQUIRY_PAGE_SIZE));
  const page = Math.min(Math.max(1, f.page), pages);
  const rows = await base
    .select([
      "t.id",
      "t.category",
      "t.title",
      "t.status",
      "t.email",
      "t.user_id",
      "t.attachment_path",
      "t.created_at",
      "t.answered_at",
      "u.nickname",
    ])
    .orderBy("t.created_at", "desc")
    .orderBy("t.id", "desc")
    .offset((page - 1) * CONSOLE_INQUIRY_PAGE_SIZE)
    .limit(CONSOLE_INQUIRY_PAGE_SIZE)
    .execute();
  return {
    rows: rows.map((r) => ({
      id: r.id,
      category: r.category as SupportCategory,
      title: r.title,
      status: r.status as InquiryStatus,
      email: r.email,
      member: r.user_id === null ? null : { id: r.user_id, nickname: r.nickname ?? "" },
      hasAttachment: r.attachment_path !== null,
      createdAt: r.created_at,
      answeredAt: r.answered_at,
    })),
    total,
    page,
    pages,
  };
}

/** One inquiry for the console: the question, its answer, its attachment's kind and the member (null for a guest). */
export async function consoleInquiry(db: DB, id: number) {
  const r = await db
    .selectFrom("support_tickets as t")
    .leftJoin("users as u", "u.id", "t.user_id")
    .select([
      "t.id",
      "t.category",
      "t.title",
      "t.description",
      "t.email",
      "t.status",
      "t.answer",
      "t.attachment_path",
      "t.created_at",
      "t.updated_at",
      "t.answered_at",
      "t.language",
      "t.user_id",
      "u.email as member_email",
      "u.nickname",
      "u.user_type",
      "u.organization",
    ])
    .where("t.id", "=", id)
    .executeTakeFirst();
  if (!r) return null;
  return {
    id: r.id,
    category: r.category as SupportCategory,
    title: r.title,
    description: r.description,
    email: r.email,
    status: r.status as InquiryStatus,
    answer: r.answer,
    attachment: r.attachment_path ? { type: attachmentType(r.attachment_path) } : null,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    answeredAt: r.answered_at,
    language: r.language,
    member:
      r.user_id === null
        ? null
        : {
            id: r.user_id,
            email: r.member_email ?? "",
            nickname: r.nickname ?? "",
            business: r.user_type === 2,
            organization: r.organization,
          },
  };
}
