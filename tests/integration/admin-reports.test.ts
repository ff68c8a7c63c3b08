/**
 * The console's reports (issue 17 point 8) against orders, refunds and downloads made here through the domain
 * (sandbox gateway, cancelOrder, requestDownloads), with payment and refund times on both sides of Seoul's
 * midnights: the sums equal what the test made, refunds are subtracted on their day, each currency apart, and each
 * CSV parses back to the page's rows.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import type { PayMethod } from "../../app/integrations/payments/gateway";
import type { SandboxGateway } from "../../app/integrations/payments/sandbox.server";
import { requestDownloads } from "../../app/market/downloads/downloads.server";
import { cancelOrder } from "../../app/market/orders/cancel.server";
import { placeOrder } from "../../app/market/orders/orders.server";
import {
  downloadsReport,
  type ReportRange,
  refundedSale,
  refundsReport,
  reportRange,
  salesReport,
  seoulDayOf,
  topReport,
} from "../../app/market/reports.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { signInOperator } from "../support/operator";
import { newShopper } from "../support/shopper";

type Shopper = Awaited<ReturnType<typeof newShopper>>;
type Line = { id: number; content_id: number | null; item_type: string | null; unit_price: number; discount: number; vat: number };

/** RFC 4180 parsing (quoted fields, doubled quotes, CRLF), independent of the code under test. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(field);
      field = "";
    } else if (ch === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else field += ch;
  }
  if (field || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

const RANGE: ReportRange = { from: "2025-03-10", to: "2025-03-12" };

describe(`reports: sales, refunds, downloads and top items on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Awaited<ReturnType<typeof createTestApp>>;
  let sandbox: SandboxGateway;
  let paid: { id: number; contents_type: string }[];
  let free: { id: number; contents_type: string }[];
  let next = 0;
  let finance: string;

  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    call = await createTestApp(db, { dataDir: t.dataDir });
    sandbox = call.payments.sandbox as SandboxGateway;
    const active = () =>
      db.selectFrom("contents").select(["id", "contents_type"]).where("status", "=", "active").where("contents_type", "!=", "package");
    paid = await active().where("price_type", "=", "paid").orderBy("id").limit(40).execute();
    free = await active().where("price_type", "=", "free").orderBy("id").limit(10).execute();
    finance = await signInOperator(call, "finance", "198.51.100.141");
  });
  afterAll(async () => {
    await sandbox.settled();
    await drop();
  });

  /** A paid order of `n` catalog items, its payment then dated `paidAt` (as a gateway reports it). */
  async function buy(s: Shopper, n: number, method: PayMethod, paidAt: string) {
    const items = paid.slice(next, next + n);
    next += n;
    const placed = await placeOrder(db, call.payments, {
      buyer: { id: s.userId, userType: 1, email: s.email },
      items: items.map((c) => ({ kind: "content" as const, id: c.id })),
      license: { licenseId: s.licenseId },
      method,
      locale: method === "paypal" ? "en" : "ko",
      idempotencyKey: `reports:${s.userId}:${next}`,
      origin: "http://store.test",
    });
    await sandbox.act(placed.orderNo, "approve");
    if (method === "vbank") await sandbox.act(placed.orderNo, "deposit");
    await sandbox.settled();
    const order = await db.selectFrom("orders").selectAll().where("order_no", "=", placed.orderNo).executeTakeFirstOrThrow();
    expect(order.status).toBe("complete");
    await db.updateTable("orders").set({ ptime: paidAt }).where("id", "=", order.id).execute();
    const lines: Line[] = await db
      .selectFrom("order_items")
      .select(["id", "content_id", "item_type", "unit_price", "discount", "vat"])
      .where("order_id", "=", order.id)
      .orderBy("id")
      .execute();
    return { order, lines };
  }
  const sale = (lines: Line[]) => lines.reduce((n, l) => n + l.unit_price - l.discount, 0);
  const total = (lines: Line[]) => lines.reduce((n, l) => n + l.unit_price - l.discount + l.vat, 0);

  it("puts payments and refunds on their Seoul day, subtracts refunds, keeps won and dollars apart", async () => {
    const s = await newShopper(db);
    // 2025-03-10 00:30 in Seoul (the 9th in UTC): two items.
    const a = await buy(s, 2, "card", "2025-03-09T15:30:00.000Z");
    // 2025-03-10 23:59:59 in Seoul: one item, refunded whole on 2025-03-11 (Seoul).
    const b = await buy(s, 1, "card", "2025-03-10T14:59:59.000Z");
    await cancelOrder(db, call.payments, {
      userId: s.userId,
      orderId: b.order.id,
      lineIds: [],
      reason: "changed my mind",
      locale: "ko",
      now: new Date("2025-03-11T01:00:00.000Z"),
    });
    // 2025-03-12 00:00 in Seoul exactly: two items, one refunded the same Seoul day.
    const c = await buy(s, 2, "card", "2025-03-11T15:00:00.000Z");
    await cancelOrder(db, call.payments, {
      userId: s.userId,
      orderId: c.order.id,
      lineIds: [c.lines[0].id],
      reason: "wrong item",
      locale: "ko",
      now: new Date("2025-03-12T02:00:00.000Z"),
    });
    // A virtual account paid 2025-03-11 14:00 in Seoul and refunded whole that day: 10% of it is kept back.
    const v = await buy(s, 1, "vbank", "2025-03-11T05:00:00.000Z");
    await cancelOrder(db, call.payments, {
      userId: s.userId,
      orderId: v.order.id,
      lineIds: [],
      reason: "changed my mind",
      refundAccount: { bank: "004", number: "12345678901234", holderName: "Buyer" },
      locale: "ko",
      now: new Date("2025-03-11T06:00:00.000Z"),
    });
    const kept = Math.round(total(v.lines) / 10);
    const vRefunded = Math.round(((total(v.lines) - kept) * sale(v.lines)) / total(v.lines));
    expect(vRefunded).toBeLessThan(sale(v.lines));
    // In dollars, its time written with an offset (as PortOne does): 2025-03-11 12:00 in Seoul.
    const d = await buy(s, 1, "paypal", "2025-03-11T12:00:00+09:00");
    // Just outside the range on either side: 2025-03-09 23:59:59.999 and 2025-03-13 00:00 in Seoul.
    await buy(s, 1, "card", "2025-03-09T14:59:59.999Z");
    await buy(s, 1, "card", "2025-03-12T15:00:00.000Z");

    const report = await salesReport(db, RANGE);
    expect(report.days.map((x) => x.day)).toEqual(["2025-03-10", "2025-03-11", "2025-03-12"]);
    const [d10, d11, d12] = report.days;
    expect(d10.KRW).toEqual({
      orders: 2,
      items: 3,
      gross: sale(a.lines) + sale(b.lines),
      refundedItems: 0,
      refunded: 0,
      net: sale(a.lines) + sale(b.lines),
    });
    expect(d11.KRW).toEqual({
      orders: 1,
      items: 1,
      gross: sale(v.lines),
      refundedItems: 2,
      refunded: sale(b.lines) + vRefunded,
      net: sale(v.lines) - sale(b.lines) - vRefunded,
    });
    expect(d12.KRW).toEqual({
      orders: 1,
      items: 2,
      gross: sale(c.lines),
      refundedItems: 1,
      refunded: sale([c.lines[0]]),
      net: sale(c.lines) - sale([c.lines[0]]),
    });
    expect(d11.USD).toEqual({ orders: 1, items: 1, gross: sale(d.lines), refundedItems: 0, refunded: 0, net: sale(d.lines) });
    expect(d10.USD.gross + d12.USD.gross).toBe(0);
    // What the virtual account kept back stays a sale.
    const krwNet = sale(a.lines) + sale(c.lines) - sale([c.lines[0]]) + sale(v.lines) - vRefunded;
    expect(report.totals.KRW).toMatchObject({ orders: 4, items: 6, net: krwNet });
    expect(report.totals.USD).toMatchObject({ orders: 1, items: 1, net: sale(d.lines) });
    // Per type: the same totals, spread over the lines' types.
    for (const cur of ["KRW", "USD"] as const) expect(report.types.reduce((n, t) => n + t[cur].net, 0)).toBe(report.totals[cur].net);
    const typeOfA = a.lines[0].item_type as string;
    const expectedOfType = [...a.lines, ...b.lines, ...c.lines, ...v.lines]
      .filter((l) => l.item_type === typeOfA)
      .reduce((n, l) => n + l.unit_price - l.discount, 0);
    expect(report.types.find((t) => t.type === typeOfA)?.KRW.gross).toBe(expectedOfType);

    const refunds = await refundsReport(db, RANGE);
    expect(refunds.days[0].KRW.count).toBe(0);
    expect(refunds.days[1].KRW).toEqual({
      count: 2,
      items: 2,
      amount: total(b.lines) + total(v.lines) - kept,
      deduction: kept,
      net: sale(b.lines) + vRefunded,
    });
    expect(refunds.days[2].KRW).toEqual({ count: 1, items: 1, amount: total([c.lines[0]]), deduction: 0, net: sale([c.lines[0]]) });
    expect(refunds.totals.USD.count).toBe(0);
    // Refunds reported equal what the refund rows say was paid back.
    const booked = await db
      .selectFrom("refunds")
      .select((eb) => eb.fn.sum<number>("amount").as("n"))
      .where("order_id", "in", [b.order.id, c.order.id, v.order.id])
      .executeTakeFirstOrThrow();
    expect(refunds.totals.KRW.amount).toBe(Number(booked.n));

    const top = await topReport(db, RANGE, "en");
    // The refunded items net to nothing; the dollar item ranks alone in dollars.
    expect(top.sales.USD).toHaveLength(1);
    expect(top.sales.USD[0]).toMatchObject({ contentId: d.lines[0].content_id, items: 1, net: sale(d.lines) });
    expect(top.sales.KRW).toHaveLength(6);
    const refundedB = top.sales.KRW.find((r) => r.contentId === b.lines[0].content_id);
    expect(refundedB).toMatchObject({ items: 1, gross: sale(b.lines), refunded: sale(b.lines), net: 0 });
    const nets = top.sales.KRW.map((r) => r.net);
    expect(nets).toEqual([...nets].sort((x, y) => y - x));
  });

  it("counts downloads per Seoul day and per type, and ranks the items downloaded most", async () => {
    const s = await newShopper(db);
    const license = { id: s.licenseId, userId: s.userId, status: "registered", validUntil: null, productVersion: "2.1.0.0.0" };
    const at = (iso: string, ids: number[]) =>
      requestDownloads(db, { license, userId: s.userId, contentIds: ids, mode: "free", windows: true, now: new Date(iso) });
    const [f1, f2, f3] = free;
    // Seoul 2025-03-10 00:00 (UTC 9th 15:00), 2025-03-11 23:59 and, outside, 2025-03-13 00:00.
    expect((await at("2025-03-09T15:00:00.000Z", [f1.id, f2.id])).granted).toHaveLength(2);
    expect((await at("2025-03-11T14:59:00.000Z", [f1.id])).granted).toHaveLength(1);
    expect((await at("2025-03-11T14:59:30.000Z", [f1.id, f3.id])).granted).toHaveLength(2);
    await at("2025-03-12T15:00:00.000Z", [f2.id]);
    await at("2025-03-09T14:59:59.999Z", [f3.id]);

    const report = await downloadsReport(db, RANGE);
    expect(report.days.map((d) => d.total)).toEqual([2, 3, 0]);
    expect(report.total).toBe(5);
    const perType = new Map<string, number>();
    for (const f of [f1, f2, f1, f1, f3]) perType.set(f.contents_type, (perType.get(f.contents_type) ?? 0) + 1);
    for (const [type, n] of perType) {
      expect(report.types.find((t) => t.type === type)).toMatchObject({ total: n, byKind: { free: n } });
    }
    expect(report.days[0].byType[f1.contents_type]).toBe(f1.contents_type === f2.contents_type ? 2 : 1);

    const top = await topReport(db, RANGE, "ko");
    expect(top.downloads[0]).toMatchObject({ contentId: f1.id, count: 3 });
    expect(top.downloads.map((r) => r.contentId).sort()).toEqual([f1.id, f2.id, f3.id].sort());
  });

  it("reads the range in Seoul days: defaults to the last 30 days, refuses a reversed or too long range", () => {
    const now = new Date("2026-11-25T16:30:00.000Z"); // 2026-11-26 01:30 in Seoul
    expect(seoulDayOf(now)).toBe("2026-11-26");
    expect(reportRange({}, now)).toEqual({ ok: true, range: { from: "2026-10-28", to: "2026-11-26" } });
    expect(reportRange({ from: "2026-11-02", to: "2026-11-01" }, now)).toEqual({ ok: false, problem: "order" });
    expect(reportRange({ from: "2025-01-01", to: "2026-11-01" }, now)).toEqual({ ok: false, problem: "too_long" });
    expect(reportRange({ from: "2026-02-30", to: "2026-03-01" }, now)).toEqual({ ok: false, problem: "invalid" });
    // A refund paid back in part (a virtual account's 10% kept): its VAT-excluded part in proportion.
    expect(refundedSale({ sale: 10_000, vat: 1_000, refundAmount: 9_900 })).toBe(9_000);
    expect(refundedSale({ sale: 10_000, vat: 1_000, refundAmount: 11_000 })).toBe(10_000);
  });

  const get = (path: string, lang: "en" | "ko", cookie = finance) =>
    call(path, { headers: { cookie, "accept-language": lang }, ip: "198.51.100.141" });

  it("shows the pages with a chart and the same figures in a table, in Korean and English", async () => {
    const q = `from=${RANGE.from}&to=${RANGE.to}`;
    const sales = await salesReport(db, RANGE);
    const en = await get(`/admin/reports?${q}`, "en");
    expect(en.status).toBe(200);
    expect(en.headers.get("cache-control")).toContain("no-store");
    const html = await en.text();
    expect(html).toContain('role="img"');
    expect(html).toContain("Sales per day in Korean won (KRW)");
    expect(html).toContain(`₩${sales.days[0].KRW.net.toLocaleString("en-US")}`);
    expect(html).toContain(`/admin/reports/export?kind=sales-days&amp;from=${RANGE.from}&amp;to=${RANGE.to}&amp;currency=KRW`);
    const ko = await (await get(`/admin/reports?${q}`, "ko")).text();
    expect(ko).toContain("원화 (KRW) 일별 매출");
    for (const page of ["downloads", "top", "refunds"]) {
      const res = await get(`/admin/reports/${page}?${q}`, "ko");
      expect(res.status, page).toBe(200);
      expect(await res.text()).toContain("<svg");
    }
    // Bad input: 400 with the dates typed kept and the reason, never a 500.
    const bad = await get("/admin/reports/refunds?from=2025-03-12&to=2025-03-01", "en");
    expect(bad.status).toBe(400);
    const badHtml = await bad.text();
    expect(badHtml).toContain("The first day must not come after the last day.");
    expect(badHtml).toContain('value="2025-03-12"');
    expect((await get("/admin/reports?from=%3Cscript%3E", "en")).status).toBe(400);
    // Another role: refused; a visitor: sent to sign in.
    const support = await signInOperator(call, "support", "198.51.100.142");
    expect((await get("/admin/reports", "en", support)).status).toBe(403);
    expect((await get("/admin/reports/export?kind=sales-days", "en", support)).status).toBe(403);
    expect((await call("/admin/reports/export?kind=sales-days", { ip: "198.51.100.143" })).status).toBe(302);
  });

  it("exports each table as CSV (BOM, quoting) that parses back to the report's rows", async () => {
    // A title a spreadsheet would split or misread without quoting.
    const top = await topReport(db, RANGE, "en");
    const first = top.sales.KRW[0];
    await db.updateTable("contents").set({ title_en: 'Say "hi", world\nagain' }).where("id", "=", first.contentId).execute();
    const q = `from=${RANGE.from}&to=${RANGE.to}`;
    const csv = async (kind: string, lang: "en" | "ko", extra = "") => {
      const res = await get(`/admin/reports/export?kind=${kind}&${q}${extra}`, lang);
      expect(res.status, kind).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="report-[\w-]+\.csv"$/);
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      return parseCsv(new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes).slice(1));
    };

    const sales = await salesReport(db, RANGE);
    const krw = await csv("sales-days", "ko", "&currency=KRW");
    expect(krw[0][0]).toBe("날짜");
    expect(krw[0][3]).toBe("매출 (부가세 제외) (KRW)");
    expect(krw.slice(1)).toEqual(
      sales.days.map((d) => [d.day, d.KRW.orders, d.KRW.items, d.KRW.gross, d.KRW.refundedItems, d.KRW.refunded, d.KRW.net].map(String)),
    );
    const usd = await csv("sales-days", "en", "&currency=USD");
    expect(usd[0][0]).toBe("Day");
    const cents = (n: number) => (n / 100).toFixed(2);
    expect(usd.slice(1).map((r) => r[6])).toEqual(sales.days.map((d) => cents(d.USD.net)));

    const types = await csv("sales-types", "en", "&currency=KRW");
    expect(types.slice(1).map((r) => Number(r[5]))).toEqual(sales.types.map((t) => t.KRW.net));

    const topRows = await csv("top-sales", "en", "&currency=KRW");
    expect(topRows[1]).toEqual([
      "1",
      first.code,
      'Say "hi", world\nagain',
      expect.any(String),
      "1",
      String(first.gross),
      String(first.refunded),
      String(first.net),
    ]);
    expect(topRows).toHaveLength(top.sales.KRW.length + 1);

    const refunds = await refundsReport(db, RANGE);
    const refundRows = await csv("refunds-days", "en", "&currency=KRW");
    expect(refundRows.slice(1).map((r) => [r[0], Number(r[1]), Number(r[3])])).toEqual(
      refunds.days.map((d) => [d.day, d.KRW.count, d.KRW.amount]),
    );

    const downloads = await downloadsReport(db, RANGE);
    const perDay = await csv("downloads-days", "en");
    expect(perDay.slice(1).map((r) => Number(r.at(-1)))).toEqual(downloads.days.map((d) => d.total));
    const perType = await csv("downloads-types", "ko");
    expect(perType.slice(1).map((r) => Number(r.at(-1)))).toEqual(downloads.types.map((t) => t.total));
    const topDownloads = await csv("top-downloads", "en");
    expect(topDownloads.slice(1).map((r) => Number(r[4]))).toEqual(top.downloads.map((d) => d.count));

    // Without a kind: the first table (sales per day in won, the last 30 days).
    const plain = await get("/admin/reports/export", "en");
    expect(plain.status).toBe(200);
    expect(plain.headers.get("content-disposition")).toMatch(/filename="report-sales-days-KRW-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv"/);
    expect(parseCsv((await plain.text()).replace(/^\uFEFF/, ""))).toHaveLength(31);
    // A wrong kind or range: 400 in plain text.
    const bad = await get(`/admin/reports/export?kind=passwords&${q}`, "en");
    expect(bad.status).toBe(400);
    expect(await bad.text()).toBe("Unknown report table or currency.");
    expect((await get("/admin/reports/export?kind=sales-days&from=2020-01-01&to=2025-01-01", "en")).status).toBe(400);
  });
});
