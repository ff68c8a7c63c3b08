/**
 * The promo coupon as the console's finance operators keep it (issue 17, /admin/coupons). The coupon is an event's
 * code and percentage, valid over the event's period (coupons.server.ts reads it per request, so a change holds at
 * the next checkout, without a restart); the promo pop-up (/tempPop) shows the latest-started running one. The rules
 * (one use per member and code, codes unique, no renaming a redeemed code) are coupons.server.ts's.
 */
import { sql } from "kysely";
import type { DB } from "../../db/db.server";
import { MarketError } from "../errors";
import { type Actor, recordAudit } from "../operators/audit.server";
import { checkCouponChange, normalizeCode } from "./coupons.server";

export interface CouponDraft {
  code: string | null;
  percent: number | null;
  startsAt: string;
  endsAt: string;
}

export interface CouponLine {
  eventId: number;
  titleKo: string;
  titleEn: string;
  code: string | null;
  percent: number | null;
  startsAt: string;
  endsAt: string;
  testOnly: boolean;
  redemptions: number;
}

export const COUPON_LIST_PAGE = 20;

/** Events with their coupon and how many members hold it: those with a coupon first, the latest start first. */
export async function couponLines(db: DB, page: number): Promise<{ rows: CouponLine[]; pages: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom("events")
      .leftJoin(
        db
          .selectFrom("coupon_redemptions")
          .select(["code", (eb) => eb.fn.countAll<number>().as("n")])
          .groupBy("code")
          .as("r"),
        "r.code",
        "events.coupon_code",
      )
      .select([
        "events.id",
        "events.title_ko",
        "events.title_en",
        "events.coupon_code",
        "events.discount_percent",
        "events.starts_at",
        "events.ends_at",
        "events.test_only",
        "r.n",
      ])
      .orderBy(sql`case when events.coupon_code is null then 1 else 0 end`)
      .orderBy("events.starts_at", "desc")
      .orderBy("events.id", "desc")
      .offset((page - 1) * COUPON_LIST_PAGE)
      .limit(COUPON_LIST_PAGE)
      .execute(),
    db.selectFrom("events").select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow(),
  ]);
  return {
    rows: rows.map((r) => ({
      eventId: r.id,
      titleKo: r.title_ko,
      titleEn: r.title_en,
      code: r.coupon_code,
      percent: r.discount_percent,
      startsAt: r.starts_at,
      endsAt: r.ends_at,
      testOnly: r.test_only === 1,
      redemptions: Number(r.n ?? 0),
    })),
    pages: Math.max(1, Math.ceil(Number(count.n) / COUPON_LIST_PAGE)),
  };
}

/** Sets (or removes, code null) an event's coupon and its period. */
export async function saveCoupon(db: DB, actor: Actor, eventId: number, d: CouponDraft, now = new Date()): Promise<void> {
  const from = Date.parse(d.startsAt);
  const to = Date.parse(d.endsAt);
  if (Number.isNaN(from) || Number.isNaN(to) || to <= from) throw new MarketError("COUPON_PERIOD", 400, "The period ends before it starts");
  const code = d.code ? normalizeCode(d.code) : null;
  const percent = code ? d.percent : null;
  await db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom("events")
      .select(["coupon_code", "discount_percent", "starts_at", "ends_at"])
      .where("id", "=", eventId)
      .executeTakeFirst();
    if (!before) throw new MarketError("NOT_FOUND", 404, "no such event");
    await checkCouponChange(trx, eventId, { code, percent });
    const after = { coupon_code: code, discount_percent: percent, starts_at: d.startsAt, ends_at: d.endsAt };
    await trx.updateTable("events").set(after).where("id", "=", eventId).execute();
    await recordAudit(
      trx,
      actor,
      { action: code ? "coupon.update" : "coupon.remove", targetType: "event", targetId: eventId, before, after },
      now,
    );
  });
}
