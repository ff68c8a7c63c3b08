/**
 * Nobody pays twice without being told (issue 24, point 3): which of some items a licence already holds and can use
 * (bought, taken with a pass, paid through a purchase request), by the same rule the downloads follow (`holdings`).
 * The API's `users/contents/overlap`, the cart, the payment pages, the purchase request pages and the webview all
 * ask this module; none of them decides it alone.
 */
import type { DB } from "../../db/db.server";
import { purchasableLicenses } from "../orders/checkout.server";
import { holdings } from "./downloads.server";

/** How a licence came to hold an item, or (requested) that a waiting purchase request for the key asks for it. */
export type OverlapSource = "purchase" | "pass" | "request" | "requested";

export interface Overlap {
  contentId: number;
  licenseId: number;
  serial: string;
  source: OverlapSource;
  /** Until when the licence can use it (empty for a request still waiting). */
  until: string;
  /** The purchase request that paid for it, or that waits for payment with it. */
  requestNo: string | null;
}

/**
 * The items of `contentIds` this licence holds and can use now, one entry each. With `waiting`, also those a
 * waiting purchase request for this key asks for (except the requests in `waiting.except`), so a second request or
 * payment for them is not made unknowingly.
 */
export async function licenceOverlap(
  db: DB,
  licenseId: number,
  contentIds: readonly number[],
  options: { waiting?: { except?: readonly number[] }; now?: Date } = {},
): Promise<Overlap[]> {
  const ids = [...new Set(contentIds)];
  if (!ids.length) return [];
  const now = options.now ?? new Date();
  const licence = await db.selectFrom("licenses").select(["id", "serial"]).where("id", "=", licenseId).executeTakeFirst();
  if (!licence) return [];
  const { held } = await holdings(db, licenseId, now);
  const mine = ids.flatMap((id) => {
    const h = held.get(id);
    return h ? [{ id, ...h }] : [];
  });
  // A purchase paid through a purchase request says which request.
  const lineIds = mine.flatMap((h) => (h.orderItemId ? [h.orderItemId] : []));
  const viaRequest = lineIds.length
    ? await db
        .selectFrom("order_items")
        .innerJoin("orders", "orders.id", "order_items.order_id")
        .leftJoin("purchase_requests", "purchase_requests.order_id", "orders.id")
        .select(["order_items.id", "orders.purchase_category", "purchase_requests.request_no"])
        .where("order_items.id", "in", lineIds)
        .execute()
    : [];
  const byLine = new Map(viaRequest.map((r) => [r.id, r]));
  const out: Overlap[] = mine.map((h) => {
    const line = h.orderItemId ? byLine.get(h.orderItemId) : undefined;
    const request = line?.purchase_category === "request";
    return {
      contentId: h.id,
      licenseId,
      serial: licence.serial,
      source: h.passId ? "pass" : request ? "request" : "purchase",
      until: h.until,
      requestNo: request ? (line?.request_no ?? null) : null,
    };
  });
  if (options.waiting) {
    const taken = new Set(out.map((o) => o.contentId));
    const rest = ids.filter((id) => !taken.has(id));
    const except = options.waiting.except?.length ? [...options.waiting.except] : [0];
    const waiting = rest.length
      ? await db
          .selectFrom("purchase_request_items")
          .innerJoin("purchase_requests", "purchase_requests.id", "purchase_request_items.request_id")
          .select(["purchase_request_items.content_id", "purchase_requests.request_no"])
          .where("purchase_requests.license_id", "=", licenseId)
          .where("purchase_requests.status", "=", "waiting")
          .where("purchase_requests.deleted_at", "is", null)
          .where("purchase_requests.expires_at", ">", now.toISOString())
          .where("purchase_requests.id", "not in", except)
          .where("purchase_request_items.content_id", "in", rest)
          .orderBy("purchase_requests.id")
          .execute()
      : [];
    for (const w of waiting) {
      if (taken.has(w.content_id)) continue;
      taken.add(w.content_id);
      out.push({ contentId: w.content_id, licenseId, serial: licence.serial, source: "requested", until: "", requestNo: w.request_no });
    }
  }
  return out;
}

/** The same for several licences (a member's): each item once, under the first licence (in the given order) holding it. */
export async function licencesOverlap(db: DB, licenseIds: readonly number[], contentIds: readonly number[], now = new Date()) {
  const out: Overlap[] = [];
  const seen = new Set<number>();
  for (const licenseId of licenseIds) {
    const rest = contentIds.filter((id) => !seen.has(id));
    if (!rest.length) break;
    for (const o of await licenceOverlap(db, licenseId, rest, { now })) {
      seen.add(o.contentId);
      out.push(o);
    }
  }
  return out;
}

/** For a member who has not chosen a licence yet (the cart, /pay01): what any of their purchasable licences holds. */
export async function memberOverlap(db: DB, userId: number, contentIds: readonly number[], now = new Date()): Promise<Overlap[]> {
  if (!contentIds.length) return [];
  const licences = await purchasableLicenses(db, userId, now);
  return licencesOverlap(
    db,
    licences.map((l) => l.id),
    contentIds,
    now,
  );
}

/**
 * What a checkout (or a purchase request being written) would buy again: for the licence it goes to when that is
 * known (a member's chosen licence, the requests' key, a key-only user's key; with the key's waiting requests too),
 * otherwise what any of the member's licences holds. `chosen` says whether one licence is meant.
 */
export async function checkoutOverlap(
  db: DB,
  checkout: { flow: string; licenseId?: number; keyLicenseId?: number; requestIds?: number[] },
  payerId: number | null,
  contentIds: readonly number[],
  now = new Date(),
): Promise<{ chosen: boolean; overlaps: Overlap[] }> {
  if (!contentIds.length) return { chosen: false, overlaps: [] };
  if (checkout.flow === "member") {
    if (checkout.licenseId) return { chosen: true, overlaps: await licenceOverlap(db, checkout.licenseId, contentIds, { now }) };
    return { chosen: false, overlaps: payerId ? await memberOverlap(db, payerId, contentIds, now) : [] };
  }
  if (checkout.flow === "pay_requests") {
    const requestIds = checkout.requestIds ?? [];
    const row =
      payerId && requestIds.length
        ? await db
            .selectFrom("purchase_requests")
            .select("license_id")
            .where("owner_user_id", "=", payerId)
            .where("id", "in", requestIds)
            .executeTakeFirst()
        : undefined;
    if (!row) return { chosen: true, overlaps: [] };
    return { chosen: true, overlaps: await licenceOverlap(db, row.license_id, contentIds, { waiting: { except: requestIds }, now }) };
  }
  // direct or request: the key-only user's key, once looked up.
  if (!checkout.keyLicenseId) return { chosen: true, overlaps: [] };
  return { chosen: true, overlaps: await licenceOverlap(db, checkout.keyLicenseId, contentIds, { waiting: {}, now }) };
}
