/**
 * Benefit content for the editor's webview (/mypage/sw/benefit): active contents with price_type 'benefit',
 * newest first, and whether a licence can take them. The rule is requestDownloads' (downloads.server.ts): benefit
 * content needs a market account behind the licence and a paid purchase by that account (an order that is
 * complete or partially cancelled).
 */
import type { DB } from "../../db/db.server";
import type { Locale } from "../../i18n/config";

export const BENEFIT_PAGE = 20;

export type BenefitReason = "needs_account" | "needs_purchase";

export interface BenefitItem {
  contentId: number;
  code: string;
  type: string;
  title: string;
  thumb: string | null;
  /** How often this licence downloaded it already. */
  downloads: number;
}

export interface BenefitPage {
  items: BenefitItem[];
  total: number;
  page: number;
  pages: number;
  eligible: boolean;
  /** Which condition is missing when not eligible. */
  reason: BenefitReason | null;
}

/** Whether the licence's market account (if any) has a paid purchase: the condition for benefit content. */
export async function benefitEligibility(
  db: DB,
  licence: { userId: number | null },
): Promise<{ eligible: boolean; reason: BenefitReason | null }> {
  if (licence.userId === null) return { eligible: false, reason: "needs_account" };
  const paid = await db
    .selectFrom("orders")
    .select("id")
    .where("user_id", "=", licence.userId)
    .where("status", "in", ["complete", "partially_cancelled"])
    .limit(1)
    .executeTakeFirst();
  return paid ? { eligible: true, reason: null } : { eligible: false, reason: "needs_purchase" };
}

/** One page (20) of active benefit content, newest first, with this licence's download counts and eligibility. */
export async function benefitItems(db: DB, licence: { id: number; userId: number | null }, locale: Locale, page = 1): Promise<BenefitPage> {
  const base = db.selectFrom("contents").where("price_type", "=", "benefit").where("status", "=", "active");
  const counted = await base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirst();
  const total = Number(counted?.n ?? 0);
  const pages = Math.max(1, Math.ceil(total / BENEFIT_PAGE));
  const current = Math.min(Math.max(1, Math.trunc(page) || 1), pages);
  const rows = await base
    .select(["id", "code", "contents_type", "title_ko", "title_en", "poster_path"])
    .orderBy("released_at", "desc")
    .orderBy("id", "desc")
    .limit(BENEFIT_PAGE)
    .offset((current - 1) * BENEFIT_PAGE)
    .execute();
  const ids = rows.map((r) => r.id);
  const counts = ids.length
    ? await db
        .selectFrom("downloads")
        .select(["content_id", (eb) => eb.fn.countAll<number>().as("n")])
        .where("license_id", "=", licence.id)
        .where("content_id", "in", ids)
        .groupBy("content_id")
        .execute()
    : [];
  const count = new Map(counts.map((c) => [c.content_id, Number(c.n)]));
  const { eligible, reason } = await benefitEligibility(db, licence);
  return {
    items: rows.map((r) => ({
      contentId: r.id,
      code: r.code,
      type: r.contents_type,
      title: locale === "ko" ? r.title_ko : r.title_en,
      thumb: r.poster_path,
      downloads: count.get(r.id) ?? 0,
    })),
    total,
    page: current,
    pages,
    eligible,
    reason,
  };
}

/** Of the chosen ids, those that are active benefit content (what a benefit hand-over may carry). */
export async function activeBenefitIds(db: DB, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom("contents")
    .select("id")
    .where("id", "in", ids)
    .where("price_type", "=", "benefit")
    .where("status", "=", "active")
    .execute();
  const found = new Set(rows.map((r) => r.id));
  return ids.filter((id) => found.has(id));
}
