/**
 * Our record of a payment beside the gateway's (the console's order page and reconciliation): which of the
 * amounts and the state agree. Pure, so tests/unit/order-compare.test.ts can hold it to every state.
 */
import type { GatewayStatus } from "../../integrations/payments/gateway";

export interface OurPayment {
  status: string; // OrderStatus
  currency: string;
  total: number;
  /** What the gateway confirmed as paid, and what was refunded of it (net of a deduction kept back). */
  paid: number;
  cancelled: number;
}

export interface TheirPayment {
  status: GatewayStatus;
  currency: string;
  total: number;
  paid: number;
  cancelled: number;
}

export type CompareField = "status" | "currency" | "total" | "paid" | "cancelled" | "held";

export interface CompareRow {
  field: CompareField;
  ours: string | number;
  theirs: string | number;
  /** null: not compared in this state (a failed order books nothing it was paid). */
  agree: boolean | null;
}

/** The gateway states that go with each of our order states. */
const MATCHING: Record<string, readonly GatewayStatus[]> = {
  pending: ["ready", "pending"],
  waiting: ["vbank_issued"],
  complete: ["paid"],
  partially_cancelled: ["partial_cancelled"],
  // Refunded whole, or a virtual account closed before any deposit.
  cancelled: ["cancelled"],
  // Declined, abandoned, or paid and refunded (an amount mismatch, a superseded attempt).
  failed: ["ready", "failed", "cancelled"],
};

export function compareWithGateway(ours: OurPayment, theirs: TheirPayment): { rows: CompareRow[]; agree: boolean } {
  const failed = ours.status === "failed";
  const rows: CompareRow[] = [
    { field: "status", ours: ours.status, theirs: theirs.status, agree: (MATCHING[ours.status] ?? []).includes(theirs.status) },
    { field: "currency", ours: ours.currency, theirs: theirs.currency, agree: ours.currency === theirs.currency },
    { field: "total", ours: ours.total, theirs: theirs.total, agree: ours.total === theirs.total },
    { field: "paid", ours: ours.paid, theirs: theirs.paid, agree: failed ? null : ours.paid === theirs.paid },
    { field: "cancelled", ours: ours.cancelled, theirs: theirs.cancelled, agree: failed ? null : ours.cancelled === theirs.cancelled },
    // What the store still holds of the customer's money, by either record: the number that must agree.
    {
      field: "held",
      ours: ours.paid - ours.cancelled,
      theirs: theirs.paid - theirs.cancelled,
      agree: ours.paid - ours.cancelled === theirs.paid - theirs.cancelled,
    },
  ];
  return { rows, agree: rows.every((r) => r.agree !== false) };
}
