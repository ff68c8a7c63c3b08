/**
 * The printable quote of a purchase request (spec sections 2, 3 and 9: /mypage/estimate, plain layout, valid 30
 * days): what the store offered when the request was made. Reached by the request's unguessable link without a
 * login, or by the representative who owns the request.
 */
import type { DB } from "../../db/db.server";
import type { Locale } from "../../i18n/config";
import type { Currency } from "../money";
import { priceOrder } from "../orders/pricing";
import { quoteByToken, type RequestDetail, requestDetail } from "./requests.server";
import type { RequestState } from "./rules";

export interface QuoteLine {
  title: string;
  code: string;
  type: string;
  /** The price quoted (VAT excluded), minor units. */
  unit: number;
  quantity: number;
  amount: number;
}

export interface Quote {
  requestId: number;
  requestNo: string;
  /** The request's creation: the quote's issue date. */
  issuedAt: string;
  /** The quote's validity (the request's payment deadline, 30 days). */
  validUntil: string;
  state: RequestState;
  currency: Currency;
  recipient: { organization: string | null; requestEmail: string; serial: string; alias: string | null };
  lines: QuoteLine[];
  /** Sums of the quoted lines: amount (VAT excluded), VAT 10% and total. */
  amount: number;
  vat: number;
  total: number;
}

/** Who asks for a quote: the holder of the link, or a signed-in representative by request id. */
export type QuoteAccess = { token: string } | { id: number; ownerUserId: number };

/** The quote of a request as it was offered: every item at its quoted price, one of each. */
export function quoteOf(d: RequestDetail): Quote {
  const totals = priceOrder(d.items.map((i) => ({ unit: i.quoted_price })));
  return {
    requestId: d.id,
    requestNo: d.request_no,
    issuedAt: d.created_at,
    validUntil: d.expires_at,
    state: d.state,
    currency: d.currency,
    recipient: { organization: d.organization, requestEmail: d.request_email, serial: d.license_id, alias: d.license_alias },
    lines: d.items.map((i) => ({
      title: i.title,
      code: i.item_code,
      type: i.item_type,
      unit: i.quoted_price,
      quantity: 1,
      amount: i.quoted_price,
    })),
    amount: totals.amount,
    vat: totals.vat,
    total: totals.total,
  };
}

/**
 * The quote for this access, or null: an unknown or malformed token, a link past its 30 days, another account's,
 * a deleted or an unknown request. The owner sees their request's quote in any state (a paid request's quote is
 * their record of what was asked for); the link stops at the quote's validity.
 */
export async function quoteFor(db: DB, access: QuoteAccess, locale: Locale, now = new Date()): Promise<Quote | null> {
  const detail =
    "token" in access
      ? await quoteByToken(db, access.token, locale, now)
      : await requestDetail(db, access.ownerUserId, access.id, locale, now);
  return detail ? quoteOf(detail) : null;
}
