/**
 * Events as the console keeps them (issue 17, publishing): both languages, the period (instants; the console reads
 * and writes them in Asia/Seoul), the test flag (a test event shows only in test mode with testYn=Y, see
 * events.server.ts), the picture (images.server.ts) and the coupon (its rules are orders/coupons.server.ts's).
 * An event whose start is ahead is not shown yet. Every change is written with its audit line in one transaction.
 */
import type { Selectable } from "kysely";
import { sql } from "kysely";
import type { DB } from "../../db/db.server";
import type { EventsTable } from "../../db/schema";
import type { Locale } from "../../i18n/config";
import { MarketError } from "../errors";
import { type MarketEvent, toEvent } from "../events.server";
import { type Actor, recordAudit } from "../operators/audit.server";
import { checkCouponChange, normalizeCode } from "../orders/coupons.server";
import { MEDIA_PATH } from "./pages";

export interface EventDraft {
  titleKo: string;
  titleEn: string;
  bodyKo: string;
  bodyEn: string;
  imagePath: string | null;
  couponCode: string | null;
  discountPercent: number | null;
  testOnly: boolean;
  startsAt: string; // ISO instants
  endsAt: string;
}

export type EventRow = Selectable<EventsTable>;
export const ADMIN_EVENTS_PAGE = 20;

/** Every event (test, coming and ended ones too), the latest start first. */
export async function adminEvents(db: DB, page: number): Promise<{ rows: EventRow[]; total: number; pages: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom("events")
      .selectAll()
      .orderBy("starts_at", "desc")
      .orderBy("id", "desc")
      .offset((page - 1) * ADMIN_EVENTS_PAGE)
      .limit(ADMIN_EVENTS_PAGE)
      .execute(),
    db.selectFrom("events").select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow(),
  ]);
  const total = Number(count.n);
  return { rows, total, pages: Math.max(1, Math.ceil(total / ADMIN_EVENTS_PAGE)) };
}

export async function findEventRow(db: DB, id: number): Promise<EventRow | null> {
  return (await db.selectFrom("events").selectAll().where("id", "=", id).executeTakeFirst()) ?? null;
}

const values = (d: EventDraft) => ({
  title_ko: d.titleKo.trim(),
  title_en: d.titleEn.trim(),
  body_ko: d.bodyKo.trim(),
  body_en: d.bodyEn.trim(),
  image_path: d.imagePath,
  coupon_code: d.couponCode ? normalizeCode(d.couponCode) : null,
  discount_percent: d.couponCode ? d.discountPercent : null,
  test_only: d.testOnly ? 1 : 0,
  starts_at: d.startsAt,
  ends_at: d.endsAt,
});

/** What the draft lacks (a message key), or null; the coupon's rules are checked when it is saved. */
export function eventProblem(d: EventDraft): string | null {
  if (!d.titleKo.trim() || !d.titleEn.trim()) return "title";
  if (!d.bodyKo.trim() || !d.bodyEn.trim()) return "body";
  const from = Date.parse(d.startsAt);
  const to = Date.parse(d.endsAt);
  if (Number.isNaN(from) || Number.isNaN(to) || to <= from) return "period";
  if (d.imagePath !== null && !MEDIA_PATH.test(d.imagePath)) return "image";
  return null;
}

/** The event as the storefront's event page would show it (the console's preview of a draft, written nowhere). */
export function previewEvent(d: EventDraft, locale: Locale, now = new Date(), id = 0): MarketEvent {
  return toEvent({ id, ...values(d) }, locale, now);
}

/** Creates (id null) or changes an event with its coupon; answers its id. */
export async function saveEvent(db: DB, actor: Actor, id: number | null, d: EventDraft, now = new Date()): Promise<number> {
  const problem = eventProblem(d);
  if (problem) throw new MarketError("EVENT_INVALID", 400, problem);
  const v = values(d);
  return db.transaction().execute(async (trx) => {
    await checkCouponChange(trx, id, { code: v.coupon_code, percent: v.discount_percent });
    if (id === null) {
      const row = await trx.insertInto("events").values(v).returning("id").executeTakeFirstOrThrow();
      await recordAudit(trx, actor, { action: "event.create", targetType: "event", targetId: row.id, after: v }, now);
      return row.id;
    }
    const before = await trx.selectFrom("events").selectAll().where("id", "=", id).executeTakeFirst();
    if (!before) throw new MarketError("NOT_FOUND", 404, "no such event");
    await trx.updateTable("events").set(v).where("id", "=", id).execute();
    const { id: _id, ...was } = before;
    await recordAudit(trx, actor, { action: "event.update", targetType: "event", targetId: id, before: was, after: v }, now);
    return id;
  });
}
