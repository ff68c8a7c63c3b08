import { randomBytes } from "node:crypto";
import path from "node:path";
import { sql } from "kysely";
import type { DB } from "../db/db.server";
import type { Locale } from "../i18n/config";
import { isSafeKey, type Storage } from "../integrations/storage/storage";
import { seoulText } from "../utils/dates";
import { MarketError } from "./errors";
import { inquiryAnsweredMail, inquiryReceivedMail } from "./mail/messages.server";
import { queueMail } from "./mail/queue.server";
import { type Actor, recordAudit } from "./operators/audit.server";
import { INQUIRY_ATTACHMENT_MAX_BYTES, PAGE_SIZE } from "./rules";
import { type InquiryStatus, SUPPORT_CATEGORIES, type SupportCategory } from "./support-rules";

/**
 * 1:1 inquiries (the FAQ is faq.server.ts): filing one with its attachment in private storage
 * (`storage/inquiries/` in the store's storage), the member's list, detail and edits on My page and through the API, the answer the
 * operator console writes (answerInquiry), and the owner-only attachment. The form's schema is inquiry-forms.server.ts.
 */

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
  /** The language the inquiry is written from (the answer's mail is sent in it). */
  language?: Locale;
}

/** An attachment on its way into private storage: written under the key `temp`, moved to `final` with its row. */
interface StagedAttachment {
  storage: Storage;
  /** The row's attachment_path, relative to the private storage (`storage/`). */
  path: string;
  final: string;
  temp: string;
}

/**
 * Checks an attachment (jpg or png by content, up to 2 MB; else "ATTACHMENT_REFUSED") and writes it under a
 * temporary name (`.tmp-*`) under storage/inquiries/.
 */
async function stageAttachment(storage: Storage, bytes: Uint8Array, now: Date): Promise<StagedAttachment> {
  const kind = imageKind(bytes);
  if (!kind || bytes.length > INQUIRY_ATTACHMENT_MAX_BYTES) throw new Error("ATTACHMENT_REFUSED");
  const name = `${now.toISOString().slice(0, 10)}-${randomBytes(8).toString("hex")}.${kind}`;
  const staged = { storage, path: `inquiries/${name}`, final: `${INQUIRIES}${name}`, temp: `${INQUIRIES}.tmp-${name}` };
  try {
    await storage.put(staged.temp, bytes, { contentType: attachmentType(name) });
  } catch (error) {
    await storage.delete(staged.temp).catch(() => {});
    throw error;
  }
  return staged;
}

/** Where inquiry attachments are kept (the key prefix; the rows hold the path below `storage/`). */
const INQUIRIES = "storage/inquiries/";

/** Removes what a staged attachment left, whether or not it was renamed into place (its row was not committed). */
async function unstage(staged: StagedAttachment | null) {
  if (!staged) return;
  await staged.storage.delete(staged.temp);
  await staged.storage.delete(staged.final);
}

/**
 * Files a 1:1 inquiry. The attachment (jpg or png, up to 2 MB, checked by content) goes to private storage, and
 * only with its row: it is written under a temporary name, then the row is inserted and the file renamed into
 * place in one transaction. A failure at any step (a full disk midway through the write, the insert, the
 * rename, the commit) removes whatever was written, so no partial or orphan file and no row without its file
 * is left. (A crash between the write and the rename leaves only a `.tmp-*` file, never a final name.)
 */
export async function fileInquiry(db: DB, storage: Storage, userId: number | null, input: NewInquiry, now = new Date()): Promise<number> {
  if (!SUPPORT_CATEGORIES.includes(input.category)) throw new Error("bad category");
  const attachment = input.attachment?.length ? await stageAttachment(storage, input.attachment, now) : null;
  try {
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
          language: input.language ?? null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      if (attachment) await storage.move(attachment.temp, attachment.final);
      // The sender hears that it arrived, in the same transaction. The title is quoted only to the signed-in
      // member's own address; any other address is only what the form says, so it gets no word of the text.
      const email = input.email.trim().toLowerCase();
      const member =
        userId === null ? undefined : await trx.selectFrom("users").select("email").where("id", "=", userId).executeTakeFirst();
      const quoted = member !== undefined && member.email.trim().toLowerCase() === email;
      await queueMail(trx, inquiryReceivedMail(email, input.language === "en" ? "en" : "ko", { title: input.title.trim(), quoted }), now);
      return row.id;
    });
  } catch (error) {
    // The rename may have happened but the commit did not.
    await unstage(attachment);
    throw error;
  }
}

/** The content type of a stored attachment (its name carries the kind found in its bytes). */
export const attachmentType = (file: string) => (file.toLowerCase().endsWith(".png") ? "image/png" : "image/jpeg");

/** The member's inquiries, newest first, from `offset` (My page and `GET support/qna`). */
export async function listInquiries(db: DB, userId: number, page: { offset: number; limit: number }) {
  const base = db.selectFrom("support_tickets").where("user_id", "=", userId);
  const [rows, total] = await Promise.all([
    base
      .select(["id", "category", "title", "status", "attachment_path", "created_at", "updated_at", "answered_at"])
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    base.select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow(),
  ]);
  return {
    list: rows.map(({ attachment_path, ...r }) => ({
      ...r,
      category: r.category as SupportCategory,
      status: r.status as InquiryStatus,
      has_attachment: attachment_path !== null,
    })),
    total_count: Number(total.n),
  };
}

/** /mypage/qna: one page of the member's inquiries (10 a page), dates spelled on the server (utils/dates.ts). */
export async function inquiryListPage(db: DB, userId: number, requestedPage: number, locale: Locale) {
  const first = await listInquiries(db, userId, { offset: (requestedPage - 1) * PAGE_SIZE.inquiries, limit: PAGE_SIZE.inquiries });
  const pages = Math.max(1, Math.ceil(first.total_count / PAGE_SIZE.inquiries));
  // A page past the end shows the last one.
  const page = Math.min(requestedPage, pages);
  const found =
    page === requestedPage
      ? first
      : await listInquiries(db, userId, { offset: (page - 1) * PAGE_SIZE.inquiries, limit: PAGE_SIZE.inquiries });
  return {
    rows: found.list.map((r, i) => ({
      id: r.id,
      // Numbered as a board is, the oldest 1.
      number: found.total_count - (page - 1) * PAGE_SIZE.inquiries - i,
      category: r.category,
      title: r.title,
      status: r.status,
      date: seoulText(r.created_at, locale, "date"),
      hasAttachment: r.has_attachment,
    })),
    totalCount: found.total_count,
    page,
    pages,
  };
}

/**
 * One of the member's inquiries, or null when it is not theirs (or does not exist): the question, the
 * attachment's kind, and the answer once the inquiry is completed.
 */
export async function getInquiry(db: DB, userId: number, id: number) {
  const row = await db
    .selectFrom("support_tickets")
    .select([
      "id",
      "category",
      "title",
      "description",
      "email",
      "status",
      "answer",
      "attachment_path",
      "created_at",
      "updated_at",
      "answered_at",
    ])
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!row) return null;
  const { attachment_path, answer, ...rest } = row;
  const completed = row.status === "completed";
  return {
    ...rest,
    category: row.category as SupportCategory,
    status: row.status as InquiryStatus,
    answer: completed ? answer : null,
    answered_at: completed ? row.answered_at : null,
    attachment: attachment_path ? { type: attachmentType(attachment_path) } : null,
    editable: !completed,
  };
}

/** A stored attachment's key, or null for a path that would leave the inquiries' folder. */
function storedFile(attachmentPath: string): string | null {
  const key = `storage/${attachmentPath}`;
  return key.startsWith(INQUIRIES) && isSafeKey(key) ? key : null;
}

/**
 * The attachment of one of the member's inquiries: its file in private storage, content type and a validator
 * that changes when it is replaced; null when the inquiry is not theirs, has none, or the file is gone.
 */
export async function inquiryAttachment(db: DB, storage: Storage, userId: number, id: number) {
  return attachmentOf(db, storage, id, userId);
}

/**
 * The attachment of any inquiry, a member's or a guest's, for the operator console (its route checks the
 * operator's role): null when the inquiry has none or the file is gone.
 */
/**
 * An inquiry's attachment for an operator. Handing its bytes out (`viewer`; a HEAD, which sends none, passes null)
 * is a line of the audit log (`inquiry.attachment_view`), written once the file is found.
 */
export async function inquiryAttachmentForOperator(db: DB, storage: Storage, id: number, viewer: Actor | null) {
  const found = await attachmentOf(db, storage, id, "any");
  if (found && viewer) await recordAudit(db, viewer, { action: "inquiry.attachment_view", targetType: "inquiry", targetId: id });
  return found;
}

async function attachmentOf(db: DB, storage: Storage, id: number, userId: number | "any") {
  let q = db.selectFrom("support_tickets").select("attachment_path").where("id", "=", id);
  if (userId !== "any") q = q.where("user_id", "=", userId);
  const row = await q.executeTakeFirst();
  const key = row?.attachment_path ? storedFile(row.attachment_path) : null;
  if (!key) return null;
  const stat = await storage.stat(key);
  if (!stat) return null;
  return { key, size: stat.size, type: attachmentType(key), etag: `"${path.posix.basename(key)}"` };
}

/** What an edit does with the attachment: keeps it, removes it, or replaces it with these bytes. */
export type AttachmentChange = "keep" | "remove" | Uint8Array;

export interface InquiryEdit {
  category: SupportCategory;
  title: string;
  description: string;
  email: string;
  attachment: AttachmentChange;
}

/** Why an edit was refused: not the member's inquiry, already answered, or an attachment that is not a jpg/png up to 2 MB. */
export type InquiryEditRefusal = "not_found" | "answered" | "attachment";

/**
 * The member changes an inquiry that has not been answered yet (status accepted): category, title, description,
 * e-mail, and the attachment kept, removed or replaced. The update is conditional on the inquiry still being
 * accepted and still having the attachment read first, so an answer written meanwhile wins ("answered") and two
 * edits at once never orphan a file. A new file is written and renamed with the row's update in one transaction,
 * like fileInquiry; the file it replaces is deleted after the commit.
 */
export async function editInquiry(
  db: DB,
  storage: Storage,
  userId: number,
  id: number,
  input: InquiryEdit,
  now = new Date(),
): Promise<{ ok: true } | { ok: false; reason: InquiryEditRefusal }> {
  if (!SUPPORT_CATEGORIES.includes(input.category)) throw new Error("bad category");
  const replacement = input.attachment instanceof Uint8Array && input.attachment.length ? input.attachment : null;
  if (replacement && (!imageKind(replacement) || replacement.length > INQUIRY_ATTACHMENT_MAX_BYTES))
    return { ok: false, reason: "attachment" };
  for (let attempt = 0; attempt < 3; attempt++) {
    const current = await db
      .selectFrom("support_tickets")
      .select(["status", "attachment_path"])
      .where("id", "=", id)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    if (!current) return { ok: false, reason: "not_found" };
    if (current.status !== "accepted") return { ok: false, reason: "answered" };
    const staged = replacement ? await stageAttachment(storage, replacement, now) : null;
    const next = staged ? staged.path : input.attachment === "remove" ? null : current.attachment_path;
    let updated: boolean;
    try {
      updated = await db.transaction().execute(async (trx) => {
        let update = trx
          .updateTable("support_tickets")
          .set({
            category: input.category,
            title: input.title.trim(),
            description: input.description.trim(),
            email: input.email.trim().toLowerCase(),
            attachment_path: next,
            updated_at: now.toISOString(),
          })
          .where("id", "=", id)
          .where("user_id", "=", userId)
          .where("status", "=", "accepted");
        update =
          current.attachment_path === null
            ? update.where("attachment_path", "is", null)
            : update.where("attachment_path", "=", current.attachment_path);
        const result = await update.executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) return false;
        if (staged) await storage.move(staged.temp, staged.final);
        return true;
      });
    } catch (error) {
      await unstage(staged);
      throw error;
    }
    if (!updated) {
      await unstage(staged);
      continue; // answered or changed meanwhile: read again
    }
    if (current.attachment_path && current.attachment_path !== next) {
      const old = storedFile(current.attachment_path);
      if (old) await storage.delete(old);
    }
    return { ok: true };
  }
  throw new Error("the inquiry kept changing during the edit");
}

/**
 * Answers an inquiry (the operator console calls it): the answer is stored, the inquiry becomes completed and
 * can no longer be edited by the member, and answered_at is set. Answering a completed inquiry again replaces
 * the answer (a correction, `edited: true`; an operator must give a reason, REASON_REQUIRED) and mails the
 * corrected answer. The member is mailed the answer in
 * the same transaction. With an operator as `actor`, the audit line (inquiry.answer or inquiry.answer_edit, the
 * status and answer before and after, the reason) is written in that transaction too. Answers what the console
 * needs (who, what, when).
 */
export async function answerInquiry(db: DB, ticketId: number, answer: string, now = new Date(), actor?: Actor, reason?: string | null) {
  const text = answer.trim();
  if (!text) throw new MarketError("ANSWER_REQUIRED", 400, "The answer is empty");
  const row = await db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom("support_tickets").select(["status", "answer"]).where("id", "=", ticketId).executeTakeFirst();
    if (!before) return null;
    // An operator changing an answer the member already has says why (the audit line keeps it).
    if (actor && before.status === "completed" && !reason?.trim())
      throw new MarketError("REASON_REQUIRED", 400, "Changing a sent answer needs a reason");
    const answered = await trx
      .updateTable("support_tickets")
      .set({ answer: text, status: "completed", answered_at: now.toISOString() })
      .where("id", "=", ticketId)
      .returning(["id", "user_id", "email", "title", "language", "answered_at"])
      .executeTakeFirst();
    if (!answered) return null;
    const edited = before.status === "completed";
    // The member gets the answer by mail (with a link to it on My page when they asked signed in).
    await queueMail(
      trx,
      inquiryAnsweredMail(answered.email, answered.language === "en" ? "en" : "ko", {
        title: answered.title,
        answer: text,
        path: answered.user_id ? `/mypage/qna/${answered.id}` : "/support",
      }),
      now,
    );
    if (actor)
      await recordAudit(
        trx,
        actor,
        {
          action: edited ? "inquiry.answer_edit" : "inquiry.answer",
          targetType: "inquiry",
          targetId: ticketId,
          before: { status: before.status, answer: before.answer },
          after: { status: "completed", answer: text },
          reason: reason?.trim() || null,
        },
        now,
      );
    return { ...answered, edited };
  });
  if (!row) throw new MarketError("INQUIRY_NOT_FOUND", 404, "No inquiry with this id");
  return {
    id: row.id,
    userId: row.user_id,
    email: row.email,
    title: row.title,
    language: row.language as Locale | null,
    answeredAt: now.toISOString(),
    edited: row.edited,
  };
}

/**
 * Removes attachment files a crash left half-made (`.tmp-*`, see fileInquiry) once they are older than any write
 * could take; answers how many went. Final files are never touched: each has its row.
 */
export async function sweepStaleAttachments(storage: Storage, now = new Date(), olderThanMs = 60 * 60_000): Promise<number> {
  let removed = 0;
  for (const file of await storage.list(INQUIRIES)) {
    if (!file.key.slice(INQUIRIES.length).startsWith(".tmp-")) continue;
    if (now.getTime() - file.modified.getTime() >= olderThanMs) {
      await storage.delete(file.key);
      removed++;
    }
  }
  return removed;
}
