/**
 * Order money as pure functions over integer minor units (KRW: won; USD: cents). Every amount the store charges,
 * shows or refunds comes from here; tests/unit/pricing.test.ts checks the invariants with property-based tests.
 */
import type { PayMethod } from "../../integrations/payments/gateway";
import { REFUND_WINDOW_DAYS, VAT_RATE_PERCENT, VBANK_REFUND_DEDUCTION_PERCENT } from "../rules";

export interface PriceLine {
  /** Unit price before VAT and discount. */
  unit: number;
}

export interface PricedLine {
  unit: number;
  discount: number;
  /** VAT on the discounted unit price, rounded half up. */
  vat: number;
  /** What the buyer pays for the line: unit − discount + vat. */
  total: number;
}

export interface OrderTotals {
  lines: PricedLine[];
  /** Sum of unit prices before discount (VAT excluded). */
  amount: number;
  discount: number;
  vat: number;
  /** amount − discount + vat: what the gateway is asked to collect. */
  total: number;
}

const percentOf = (value: number, percent: number) => Math.round((value * percent) / 100);

/** Prices each line (discount by percent, then VAT 10% of the discounted price) and sums them. */
export function priceOrder(lines: readonly PriceLine[], discountPercent = 0): OrderTotals {
  if (!Number.isInteger(discountPercent) || discountPercent < 0 || discountPercent > 100) throw new RangeError("discount percent");
  const priced = lines.map(({ unit }) => {
    if (!Number.isInteger(unit) || unit < 0) throw new RangeError("unit price");
    const discount = percentOf(unit, discountPercent);
    const vat = percentOf(unit - discount, VAT_RATE_PERCENT);
    return { unit, discount, vat, total: unit - discount + vat };
  });
  const sum = (pick: (l: PricedLine) => number) => priced.reduce((n, l) => n + pick(l), 0);
  return {
    lines: priced,
    amount: sum((l) => l.unit),
    discount: sum((l) => l.discount),
    vat: sum((l) => l.vat),
    total: sum((l) => l.total),
  };
}

export interface RefundableLine {
  id: number;
  /** What was paid for the line (unit − discount + vat). */
  total: number;
  status: "active" | "cancelled";
  /** Downloaded (or, for a pass, used at least once). */
  used: boolean;
}

export type RefundRefusal =
  | "window" // more than 7 days after payment
  | "not_paid"
  | "nothing_selected"
  | "already_cancelled"
  | "downloaded" // a selected item was downloaded
  | "benefit_downloaded" // benefit content unlocked by the order was downloaded
  | "phone_partial"; // mobile phone payments cannot be partially refunded

export type RefundQuote =
  | { ok: true; lineIds: number[]; gross: number; deduction: number; amount: number; full: boolean }
  | { ok: false; reason: RefundRefusal; lineIds?: number[] };

/**
 * What a cancellation of `selected` lines refunds (spec sections 4, 9): only within 7 days of payment and for
 * items not downloaded; a benefit download blocks it; a virtual-account refund keeps back 10%; mobile phone
 * payments are refunded whole or not at all. Never more than what is left of the payment.
 */
export function quoteRefund(input: {
  method: PayMethod;
  paidAt: string | null;
  now: Date;
  lines: readonly RefundableLine[];
  selected: readonly number[];
  /** What the gateway collected, and what was refunded before. */
  paid: number;
  refunded: number;
  benefitDownloaded: boolean;
  /**
   * An operator overriding the member rules on the customer's behalf (a logged reason): the 7-day window and the
   * download rules are waived. What the gateway cannot do (a partial mobile-phone refund) and what is left of the
   * payment still bind, and the virtual-account deduction is still taken.
   */
  override?: boolean;
}): RefundQuote {
  if (!input.paidAt || input.paid <= 0) return { ok: false, reason: "not_paid" };
  const paidAt = Date.parse(input.paidAt);
  if (!input.override && input.now.getTime() - paidAt > REFUND_WINDOW_DAYS * 86_400_000) return { ok: false, reason: "window" };
  const wanted = new Set(input.selected);
  const chosen = input.lines.filter((l) => wanted.has(l.id));
  if (chosen.length === 0 || chosen.length !== wanted.size) return { ok: false, reason: "nothing_selected" };
  const cancelled = chosen.filter((l) => l.status === "cancelled").map((l) => l.id);
  if (cancelled.length) return { ok: false, reason: "already_cancelled", lineIds: cancelled };
  if (input.benefitDownloaded && !input.override) return { ok: false, reason: "benefit_downloaded" };
  const used = chosen.filter((l) => l.used).map((l) => l.id);
  if (used.length && !input.override) return { ok: false, reason: "downloaded", lineIds: used };
  const active = input.lines.filter((l) => l.status === "active");
  const full = chosen.length === active.length;
  if (input.method === "phone" && (!full || input.refunded > 0)) return { ok: false, reason: "phone_partial" };
  const remaining = input.paid - input.refunded;
  // The last lines take whatever is left, so rounding can never strand or exceed a won or a cent.
  const gross = full
    ? remaining
    : Math.min(
        remaining,
        chosen.reduce((n, l) => n + l.total, 0),
      );
  const deduction = input.method === "vbank" ? percentOf(gross, VBANK_REFUND_DEDUCTION_PERCENT) : 0;
  return { ok: true, lineIds: chosen.map((l) => l.id), gross, deduction, amount: gross - deduction, full };
}

/** What a package's members are worth, in one currency: all of them, and those still on sale. */
export interface PackageMembers {
  count: number;
  left: number;
  /** Sum of every member's list price (VAT excluded). */
  all: number;
  /** Sum of the list prices of the members still on sale. */
  remaining: number;
}

/**
 * The price of a package (VAT excluded) once some of its members are discontinued (decisions.md, issue 18 point
 * 11): its own price reduced in proportion to the remaining members' list prices (by their count when every
 * member is priced 0), rounded half up to a whole minor unit, and never more than the remaining members cost
 * alone. A package with every member on sale (or none at all) keeps its own price; with none left, or nothing
 * left to pay for, it cannot be bought (null).
 */
export function packagePrice(list: number, members: PackageMembers): number | null {
  if (members.count === 0 || members.left >= members.count) return list;
  if (members.left <= 0) return null;
  if (list === 0) return 0;
  const price =
    members.all > 0
      ? Math.min(Math.round((list * members.remaining) / members.all), members.remaining)
      : Math.round((list * members.left) / members.count);
  return price > 0 ? price : null;
}
