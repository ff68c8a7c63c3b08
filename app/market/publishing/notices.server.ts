/**
 * Notices as the console keeps them (issue 17, publishing): both languages, the pinned flag and the publish date.
 * A notice dated in the future is a draft: the storefront (notices.server.ts) shows it from that instant, pinned
 * ones first. Every change is written with its audit line in one transaction.
 */
import type { Selectable } from "kysely";
import { sql } from "kysely";
import type { DB } from "../../db/db.server";
import type { NoticesTable } from "../../db/schema";
import type { Locale } from "../../i18n/config";
import { MarketError } from "../errors";
import { type Notice, toNotice } from "../notices.server";
import { type Actor, recordAudit } from "../operators/audit.server";

export interface NoticeDraft {
  titleKo: string;
  titleEn: string;
  bodyKo: string;
  bodyEn: string;
  pinned: boolean;
  publishedAt: string; // ISO instant
}

export type NoticeRow = Selectable<NoticesTable>;
export const ADMIN_NOTICES_PAGE = 20;

/** Every notice (drafts too), the newest publish date first. */
export async function adminNotices(db: DB, page: number): Promise<{ rows: NoticeRow[]; total: number; pages: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom("notices")
      .selectAll()
      .orderBy("published_at", "desc")
      .orderBy("id", "desc")
      .offset((page - 1) * ADMIN_NOTICES_PAGE)
      .limit(ADMIN_NOTICES_PAGE)
      .execute(),
    db.selectFrom("notices").select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow(),
  ]);
  const total = Number(count.n);
  return { rows, total, pages: Math.max(1, Math.ceil(total / ADMIN_NOTICES_PAGE)) };
}

export async function findNotice(db: DB, id: number): Promise<NoticeRow | null> {
  return (await db.selectFrom("notices").selectAll().where("id", "=", id).executeTakeFirst()) ?? null;
}

const values = (d: NoticeDraft) => ({
  title_ko: d.titleKo.trim(),
  title_en: d.titleEn.trim(),
  body_ko: d.bodyKo.trim(),
  body_en: d.bodyEn.trim(),
  pinned: d.pinned ? 1 : 0,
  published_at: d.publishedAt,
});

/** The notice as the storefront would show it (the console's preview of a draft, written nowhere). */
export function previewNotice(d: NoticeDraft, locale: Locale, id = 0): Notice {
  return toNotice({ id, ...values(d) }, locale);
}

/** Both languages need a title and a text. */
export function noticeProblem(d: NoticeDraft): string | null {
  if (!d.titleKo.trim() || !d.titleEn.trim()) return "title";
  if (!d.bodyKo.trim() || !d.bodyEn.trim()) return "body";
  if (Number.isNaN(Date.parse(d.publishedAt))) return "date";
  return null;
}

/** Creates (id null) or changes a notice; answers its id. */
export async function saveNotice(db: DB, actor: Actor, id: number | null, d: NoticeDraft, now = new Date()): Promise<number> {
  const problem = noticeProblem(d);
  if (problem) throw new MarketError("NOTICE_INVALID", 400, problem);
  const v = values(d);
  return db.transaction().execute(async (trx) => {
    if (id === null) {
      const row = await trx.insertInto("notices").values(v).returning("id").executeTakeFirstOrThrow();
      await recordAudit(trx, actor, { action: "notice.create", targetType: "notice", targetId: row.id, after: v }, now);
      return row.id;
    }
    const before = await trx.selectFrom("notices").selectAll().where("id", "=", id).executeTakeFirst();
    if (!before) throw new MarketError("NOT_FOUND", 404, "no such notice");
    await trx.updateTable("notices").set(v).where("id", "=", id).execute();
    const { id: _id, ...was } = before;
    await recordAudit(trx, actor, { action: "notice.update", targetType: "notice", targetId: id, before: was, after: v }, now);
    return id;
  });
}
