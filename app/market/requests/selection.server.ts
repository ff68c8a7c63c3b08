/**
 * What the representative's purchase request list needs beyond one page of requests (issue 24, point 7): the count
 * waiting for payment beside the count of the list, and a "Pay selected" over several currencies answered with the
 * requests of each currency, so the page can name them and offer one payment per currency.
 */
import type { DB } from "../../db/db.server";
import type { Locale } from "../../i18n/config";
import { MarketError } from "../errors";
import type { Currency } from "../money";
import { checkRequestsPayable, countOpenRequests, requestListPage } from "./requests.server";

/** The page of requests the address asks for, and how many of all the representative's requests wait for payment. */
export async function representativeRequests(db: DB, ownerUserId: number, params: URLSearchParams, locale: Locale, now = new Date()) {
  const [list, waitingCount] = await Promise.all([
    requestListPage(db, ownerUserId, params, locale, now),
    countOpenRequests(db, ownerUserId, now),
  ]);
  return { ...list, waitingCount };
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
