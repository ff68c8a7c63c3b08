import { describe, expect, it } from "vitest";
import { compareWithGateway } from "../../app/market/orders/compare";

const ours = { status: "complete", currency: "KRW", total: 11000, paid: 11000, cancelled: 0 };
const theirs = { status: "paid" as const, currency: "KRW", total: 11000, paid: 11000, cancelled: 0 };
const wrong = (r: ReturnType<typeof compareWithGateway>) => r.rows.filter((x) => x.agree === false).map((x) => x.field);

describe("our payment record beside the gateway's", () => {
  it("agrees when every state and amount matches", () => {
    expect(compareWithGateway(ours, theirs).agree).toBe(true);
    expect(compareWithGateway({ ...ours, status: "waiting", paid: 0 }, { ...theirs, status: "vbank_issued", paid: 0 }).agree).toBe(true);
    expect(
      compareWithGateway(
        { ...ours, status: "cancelled", cancelled: 9900, paid: 11000 },
        { ...theirs, status: "cancelled", cancelled: 9900 },
      ).agree,
    ).toBe(true);
  });

  it("flags a payment the notification never brought, and a refund made elsewhere", () => {
    expect(wrong(compareWithGateway({ ...ours, status: "pending", paid: 0 }, theirs))).toEqual(["status", "paid", "held"]);
    expect(wrong(compareWithGateway(ours, { ...theirs, status: "partial_cancelled", cancelled: 100 }))).toEqual([
      "status",
      "cancelled",
      "held",
    ]);
    expect(wrong(compareWithGateway(ours, { ...theirs, currency: "USD", total: 1000, paid: 1000 }))).toEqual([
      "currency",
      "total",
      "paid",
      "held",
    ]);
  });

  it("compares a failed order on the money still held only", () => {
    const failed = { ...ours, status: "failed", paid: 0 };
    expect(compareWithGateway(failed, { ...theirs, status: "cancelled", cancelled: 11000 }).agree).toBe(true);
    expect(compareWithGateway(failed, { ...theirs, status: "ready", paid: 0 }).agree).toBe(true);
    expect(wrong(compareWithGateway(failed, theirs))).toEqual(["status", "held"]);
  });
});
