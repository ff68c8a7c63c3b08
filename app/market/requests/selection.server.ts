/**
 * What the representative's purchase request list needs beyond one page of requests (issue 24, point 7): the count
 * waiting for payment beside the count of the list, and a "Pay selected" over several currencies answered with the
 * requests of each currency, so the page can name them and offer one payment per currency.
 */
import type { DB } from "../../db/db.server";
import type { Locale } from "../../i18n/config";
import { licenceOverlap } from "../downloads/overlap.server";
import { MarketError } from "../errors";
import type { Currency } from "../money";
import { checkRequestsPayable, countOpenRequests, requestListPage } from "./requests.server";

/** The page of requests the address asks for, and how many of all the representative's requests wait for payment. */
export async function representativeRequests(db: DB, ownerUserId: number, params: URLSearchParams, locale: Locale, now = new Date()) {
  const [list, waitingCount] = await Promise.all([
    requestListPage(db, ownerUserId, params, locale, now),
    countOpenRequests(db, ownerUserId, now),
  ]);
  const notes = await requestOverlapNotes(
    db,
    ownerUserId,
    list.rows.filter((r) => r.state === "waiting").map((r) => r.id),
    now,
  );
  return { ...list, rows: list.rows.map((r) => ({ ...r, overlap: notes.get(r.id) ?? null })), waitingCount };
}

/** What a waiting request would pay for twice: items its key already holds, and its other waiting requests asking for the same. */
export interface RequestOverlapNote {
  /** How many of its items the key holds and can use now (bought, from a pass, through another request). */
  held: number;
  /** The numbers of the key's other waiting requests that ask for one of its items. */
  alsoIn: string[];
}

/**
 * The overlap rule (issue 24, point 3: `licenceOverlap`, as /pay01 warns with) applied to each of these waiting
 * requests of the representative, so the list says it before any is selected: only requests with something to say.
 */
export async function requestOverlapNotes(
  db: DB,
  ownerUserId: number,
  requestIds: readonly number[],
  now = new Date(),
): Promise<Map<number, RequestOverlapNote>> {
  const out = new Map<number, RequestOverlapNote>();
  if (!requestIds.length) return out;
  const items = await db
    .selectFrom("purchase_requests")
    .innerJoin("purchase_request_items", "purchase_request_items.request_id", "purchase_requests.id")
    .select(["purchase_requests.id", "purchase_requests.license_id", "purchase_request_items.content_id"])
    .where("purchase_requests.owner_user_id", "=", ownerUserId)
    .where("purchase_requests.id", "in", [...requestIds])
    .where("purchase_requests.status", "=", "waiting")
    .execute();
  const byRequest = new Map<number, { licenseId: number; contentIds: number[] }>();
  for (const row of items) {
    const entry = byRequest.get(row.id) ?? { licenseId: row.license_id, contentIds: [] };
    entry.contentIds.push(row.content_id);
    byRequest.set(row.id, entry);
  }
  for (const [id, { licenseId, contentIds }] of byRequest) {
    const overlaps = await licenceOverlap(db, licenseId, contentIds, { waiting: { except: [id] }, now });
    const held = overlaps.filter((o) => o.source !== "requested").length;
    const alsoIn = [...new Set(overlaps.flatMap((o) => (o.source === "requested" && o.requestNo ? [o.requestNo] : [])))];
    if (held || alsoIn.length) out.set(id, { held, alsoIn });
  }
  return out;
}

export interface CurrencyGroup {
  currency: Currency;
  requests: { id: number; requestNo: string }[];
}

/** Requests in more than one currency were chosen to be paid together: one payment is in one currency. */
export class MixedCurrencies extends MarketError {
  constructor(public readonly groups: CurrencyGroup[]) {
    super(
      "REQUEST_CURRENCIES_MIXED",
      409,
      "The selected requests are in different currencies: pay them separately, one payment per currency.",
    );
    this.name = "MixedCurrencies";
  }
}

/**
 * checkRequestsPayable, with a selection over several currencies answered as MixedCurrencies: the chosen requests
 * grouped by currency (KRW first), newest first within each, as the list shows them.
 */
export async function checkSelectionPayable(db: DB, ownerUserId: number, requestIds: readonly number[], locale: Locale, now = new Date()) {
  try {
    return await checkRequestsPayable(db, ownerUserId, requestIds, locale, now);
  } catch (error) {
    if (!(error instanceof MarketError) || error.code !== "REQUEST_CURRENCY") throw error;
    const rows = await db
      .selectFrom("purchase_requests")
      .select(["id", "request_no", "currency"])
      .where("owner_user_id", "=", ownerUserId)
      .where("id", "in", [...requestIds])
      .where("deleted_at", "is", null)
      .orderBy("currency")
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .execute();
    const groups = new Map<Currency, CurrencyGroup>();
    for (const r of rows) {
      const currency = r.currency as Currency;
      const group = groups.get(currency) ?? { currency, requests: [] };
      group.requests.push({ id: r.id, requestNo: r.request_no });
      groups.set(currency, group);
    }
    throw new MixedCurrencies([...groups.values()]);
  }
}
