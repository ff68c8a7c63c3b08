/**
 * Purchase-request rules shared by the domain and the pages (spec sections 4, 5 and 9): states, the 30-day payment
 * window (the quote's validity), what a request charges for an item repriced or discontinued since it was made.
 */
import { PURCHASE_REQUEST_MESSAGE_MAX, QUOTE_VALID_DAYS } from "../rules";

export { PURCHASE_REQUEST_MESSAGE_MAX, QUOTE_VALID_DAYS };

/** What a representative sees: waiting for payment, expired (30 days passed unpaid), paid. */
export type RequestState = "waiting" | "expired" | "paid";

export const REQUEST_STATES: readonly RequestState[] = ["waiting", "expired", "paid"];

/** The state of a stored request at `now`: a waiting request past its deadline is expired. */
export function requestState(row: { status: string; expires_at: string }, now: Date): RequestState {
  if (row.status === "paid") return "paid";
  if (row.status === "expired" || Date.parse(row.expires_at) <= now.getTime()) return "expired";
  return "waiting";
}

/** The deadline of a request made at `createdAt`: the quote's validity, 30 days. */
export function requestDeadline(createdAt: Date): Date {
  return new Date(createdAt.getTime() + QUOTE_VALID_DAYS * 86_400_000);
}

/**
 * What an item of a request charges (docs/decisions.md): the price quoted, or the current price when the item got
 * cheaper since; an item discontinued or no longer for sale since is left out of the payment (null).
 */
export function payableUnit(quoted: number, current: { status: string; price_type: string; price: number }): number | null {
  if (current.status !== "active" || current.price_type !== "paid") return null;
  return Math.min(quoted, current.price);
}
