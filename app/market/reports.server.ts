/**
 * The operator console's reports (issue 17 point 8): sales, downloads, top items and refunds over a range of
 * Seoul calendar days. Every figure is read from the tables the shop writes as it sells (orders, order_items,
 * downloads); nothing is stored for the reports.
 *
 * - Days are Asia/Seoul days (UTC+9, no daylight saving). Instants are stored as ISO text in UTC; the day of an
 *   instant is computed here in JavaScript (or, for downloads, from its UTC hour, which maps to exactly one Seoul
 *   day), so both engines give the same answers.
 * - Amounts stay in their currency (KRW won, USD cents), never added across currencies.
 * - Sales are VAT-excluded as stored: a line's sale is its unit price less its discount (pricing.ts). A refund
 *   counts on the day it was booked, for the VAT-excluded part of what was paid back (its share of the line's total,
 *   in proportion); what a virtual-account refund kept back stays a sale.
 */
import { sql } from "kysely";
import type { DB } from "../db/db.server";
import type { Locale } from "../i18n/config";
import type { Currency } from "./money";

import { DOWNLOAD_KINDS, REPORT_CURRENCIES, REPORT_DEFAULT_DAYS, REPORT_MAX_DAYS, REPORT_TYPES, TOP_LIMIT } from "./report-rules";

export { DOWNLOAD_KINDS, REPORT_CURRENCIES, REPORT_DEFAULT_DAYS, REPORT_MAX_DAYS, REPORT_TYPES, TOP_LIMIT };

const DAY_MS = 86_400_000;

/** The map's value for a key, made and stored first if missing. */
function entryOf<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  const found = map.get(key);
  if (found !== undefined) return found;
  const made = make();
  map.set(key, made);
  return made;
}
const SEOUL_OFFSET_MS = 9 * 3_600_000;

export interface ReportRange {
  /** First and last Seoul day, inclusive, as YYYY-MM-DD. */
  from: string;
  to: string;
}

/** The Seoul calendar day of an instant. */
export function seoulDayOf(instant: string | Date): string {
  const ms = typeof instant === "string" ? Date.parse(instant) : instant.getTime();
  return new Date(ms + SEOUL_OFFSET_MS).toISOString().slice(0, 10);
}

/** The instant a Seoul day starts, in UTC. */
export const seoulDayStartMs = (day: string) => Date.parse(`${day}T00:00:00.000+09:00`);

const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00.000Z`) + n * DAY_MS).toISOString().slice(0, 10);

const isDay = (day: string) => /^\d{4}-\d{2}-\d{2}$/.test(day) && !Number.isNaN(Date.parse(`${day}T00:00:00Z`)) && addDays(day, 0) === day;

/** Every day of a range, in order. */
export function rangeDays(range: ReportRange): string[] {
  const days: string[] = [];
  for (let d = range.from; d <= range.to; d = addDays(d, 1)) days.push(d);
  return days;
}

export type RangeProblem = "invalid" | "order" | "too_long";

/**
 * The range a report reads: the days asked for, either end defaulting (to: today in Seoul; from: 29 days before
 * `to`), or why not.
 */
export function reportRange(
  input: { from?: string; to?: string },
  now = new Date(),
): { ok: true; range: ReportRange } | { ok: false; problem: RangeProblem } {
  const to = input.to || seoulDayOf(now);
  const from = input.from || addDays(to, -(REPORT_DEFAULT_DAYS - 1));
  if (!isDay(from) || !isDay(to)) return { ok: false, problem: "invalid" };
  if (from > to) return { ok: false, problem: "order" };
  if (rangeDays({ from, to }).length > REPORT_MAX_DAYS) return { ok: false, problem: "too_long" };
  return { ok: true, range: { from, to } };
}

/** The range as UTC instants: [start, end). */
function bounds(range: ReportRange) {
  const start = seoulDayStartMs(range.from);
  const end = seoulDayStartMs(addDays(range.to, 1));
  return { start, end, startIso: new Date(start).toISOString(), endIso: new Date(end).toISOString() };
}

/**
 * Instants written by a gateway (a payment's time) may carry an offset or no milliseconds, so their text does not
 * sort exactly as time: the database reads a day more on either side and the exact range is applied here.
 */
function widened(range: ReportRange) {
  const { start, end } = bounds(range);
  return { lo: new Date(start - DAY_MS).toISOString(), hi: new Date(end + DAY_MS).toISOString() };
}

const within = (instant: string | null, range: ReportRange) => {
  if (!instant) return false;
  const ms = Date.parse(instant);
  const { start, end } = bounds(range);
  return ms >= start && ms < end;
};

// ---------------------------------------------------------------------------------------------------------------
// The lines the reports read
// ---------------------------------------------------------------------------------------------------------------

interface ReportLine {
  id: number;
  orderId: number;
  currency: Currency;
  contentId: number | null;
  type: string;
  /** What the line sold for, VAT excluded (unit price less discount). */
  sale: number;
  vat: number;
  refundAmount: number;
  paidAt: string | null;
  cancelledAt: string | null;
}

/** The VAT-excluded part of what a refund paid back for a line: its share of the line's total, in proportion. */
export function refundedSale(line: { sale: number; vat: number; refundAmount: number }): number {
  const total = line.sale + line.vat;
  if (total <= 0 || line.refundAmount <= 0) return 0;
  return Math.round((line.refundAmount * line.sale) / total);
}

const lineColumns = [
  "order_items.id as id",
  "order_items.order_id as orderId",
  "orders.currency as currency",
  "order_items.content_id as contentId",
  "order_items.item_type as type",
  "order_items.unit_price as unit",
  "order_items.discount as discount",
  "order_items.vat as vat",
  "order_items.refund_amount as refundAmount",
  "order_items.status as status",
  "orders.ptime as paidAt",
  "order_items.cancelled_at as cancelledAt",
] as const;

type LineRow = {
  id: number;
  orderId: number;
  currency: string;
  contentId: number | null;
  type: string | null;
  unit: number;
  discount: number;
  vat: number;
  refundAmount: number;
  status: string;
  paidAt: string | null;
  cancelledAt: string | null;
};

const toLine = (r: LineRow): ReportLine => ({
  id: Number(r.id),
  orderId: Number(r.orderId),
  currency: r.currency === "USD" ? "USD" : "KRW",
  contentId: r.contentId === null ? null : Number(r.contentId),
  type: r.type ?? "other",
  sale: Number(r.unit) - Number(r.discount),
  vat: Number(r.vat),
  refundAmount: r.status === "cancelled" ? Number(r.refundAmount) : 0,
  paidAt: r.paidAt,
  cancelledAt: r.status === "cancelled" ? r.cancelledAt : null,
});

/** Lines of orders paid within the range (the payment's time; only orders that were paid have one). */
async function paidLines(db: DB, range: ReportRange): Promise<ReportLine[]> {
  const { lo, hi } = widened(range);
  const rows = await db
    .selectFrom("order_items")
    .innerJoin("orders", "orders.id", "order_items.order_id")
    .select(lineColumns)
    .where("orders.ptime", "is not", null)
    .where("orders.ptime", ">=", lo)
    .where("orders.ptime", "<", hi)
    .execute();
  return rows.map(toLine).filter((l) => within(l.paidAt, range));
}

/** Lines refunded within the range (the time the refund was booked). */
async function refundedLines(db: DB, range: ReportRange): Promise<ReportLine[]> {
  const { lo, hi } = widened(range);
  const rows = await db
    .selectFrom("order_items")
    .innerJoin("orders", "orders.id", "order_items.order_id")
    .select(lineColumns)
    .where("order_items.status", "=", "cancelled")
    .where("order_items.cancelled_at", ">=", lo)
    .where("order_items.cancelled_at", "<", hi)
    .execute();
  return rows.map(toLine).filter((l) => within(l.cancelledAt, range));
}

// ---------------------------------------------------------------------------------------------------------------
// Sales
// ---------------------------------------------------------------------------------------------------------------

export interface SalesFigures {
  /** Orders paid. */
  orders: number;
  /** Items sold (lines paid). */
  items: number;
  /** VAT-excluded sales of the lines paid. */
  gross: number;
  /** Lines refunded and the VAT-excluded part of what was paid back for them. */
  refundedItems: number;
  refunded: number;
  /** gross − refunded. */
  net: number;
}

export type ByCurrency<T> = Record<Currency, T>;

const noSales = (): SalesFigures => ({ orders: 0, items: 0, gross: 0, refundedItems: 0, refunded: 0, net: 0 });
const bothCurrencies = <T>(make: () => T): ByCurrency<T> => ({ KRW: make(), USD: make() });

export interface SalesReport {
  range: ReportRange;
  days: ({ day: string } & ByCurrency<SalesFigures>)[];
  types: ({ type: string } & ByCurrency<SalesFigures>)[];
  totals: ByCurrency<SalesFigures>;
}

function typeOrder(a: string, b: string) {
  const ia = (REPORT_TYPES as readonly string[]).indexOf(a);
  const ib = (REPORT_TYPES as readonly string[]).indexOf(b);
  return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || a.localeCompare(b);
}

/** Sales per Seoul day and per type over the range, each currency apart, net of refunds. */
export async function salesReport(db: DB, range: ReportRange): Promise<SalesReport> {
  const [paid, refunded] = await Promise.all([paidLines(db, range), refundedLines(db, range)]);
  const days = new Map(rangeDays(range).map((day) => [day, bothCurrencies(noSales)]));
  const types = new Map<string, ByCurrency<SalesFigures>>();
  const totals = bothCurrencies(noSales);
  const ordersOf = new Map<string, Set<number>>();
  const typeOf = (type: string) => entryOf(types, type, () => bothCurrencies(noSales));
  const countOrder = (key: string, figures: SalesFigures, orderId: number) => {
    const seen = entryOf(ordersOf, key, () => new Set<number>());
    if (!seen.has(orderId)) {
      seen.add(orderId);
      figures.orders++;
    }
  };
  for (const line of paid) {
    const day = seoulDayOf(line.paidAt as string);
    const targets: [string, SalesFigures][] = [
      [`d:${day}:${line.currency}`, (days.get(day) as ByCurrency<SalesFigures>)[line.currency]],
      [`t:${line.type}:${line.currency}`, typeOf(line.type)[line.currency]],
      [`all:${line.currency}`, totals[line.currency]],
    ];
    for (const [key, f] of targets) {
      countOrder(key, f, line.orderId);
      f.items++;
      f.gross += line.sale;
    }
  }
  for (const line of refunded) {
    const day = seoulDayOf(line.cancelledAt as string);
    const part = refundedSale(line);
    for (const f of [(days.get(day) as ByCurrency<SalesFigures>)[line.currency], typeOf(line.type)[line.currency], totals[line.currency]]) {
      f.refundedItems++;
      f.refunded += part;
    }
  }
  const settle = (figures: ByCurrency<SalesFigures>) => {
    for (const c of REPORT_CURRENCIES) figures[c].net = figures[c].gross - figures[c].refunded;
    return figures;
  };
  return {
    range,
    days: [...days].map(([day, figures]) => ({ day, ...settle(figures) })),
    types: [...types].sort(([a], [b]) => typeOrder(a, b)).map(([type, figures]) => ({ type, ...settle(figures) })),
    totals: settle(totals),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Refunds
// ---------------------------------------------------------------------------------------------------------------

export interface RefundFigures {
  /** Refunds booked (one per cancellation request, whatever its number of lines). */
  count: number;
  /** Items refunded. */
  items: number;
  /** Paid back to the buyer, VAT included. */
  amount: number;
  /** Kept back (a virtual account's 10%). */
  deduction: number;
  /** The VAT-excluded part of `amount`. */
  net: number;
}

export interface RefundsReport {
  range: ReportRange;
  days: ({ day: string } & ByCurrency<RefundFigures>)[];
  totals: ByCurrency<RefundFigures>;
}

const noRefunds = (): RefundFigures => ({ count: 0, items: 0, amount: 0, deduction: 0, net: 0 });

/** Refunds booked per Seoul day over the range: how many, what was paid back and kept back, each currency apart. */
export async function refundsReport(db: DB, range: ReportRange): Promise<RefundsReport> {
  const lines = await refundedLines(db, range);
  const days = new Map(rangeDays(range).map((day) => [day, bothCurrencies(noRefunds)]));
  const totals = bothCurrencies(noRefunds);
  // Which refund booked each line: the refund rows of the orders concerned name their lines.
  const orderIds = [...new Set(lines.map((l) => l.orderId))];
  const refundOfLine = new Map<number, { id: number; deduction: number }>();
  for (let i = 0; i < orderIds.length; i += 500) {
    const rows = await db
      .selectFrom("refunds")
      .select(["id", "item_ids", "deduction", "status", "gateway_cancellation_id"])
      .where("order_id", "in", orderIds.slice(i, i + 500))
      .where("status", "!=", "failed")
      .execute();
    for (const r of rows) {
      if (r.status === "requested" && r.gateway_cancellation_id === null) continue; // not booked (yet)
      for (const id of r.item_ids.split(",").map(Number)) refundOfLine.set(id, { id: Number(r.id), deduction: Number(r.deduction) });
    }
  }
  const counted = new Set<string>();
  for (const line of lines) {
    const day = seoulDayOf(line.cancelledAt as string);
    const refund = refundOfLine.get(line.id);
    for (const [scope, f] of [
      [day, (days.get(day) as ByCurrency<RefundFigures>)[line.currency]],
      ["all", totals[line.currency]],
    ] as const) {
      f.items++;
      f.amount += line.refundAmount;
      f.net += refundedSale(line);
      // A refund of several lines counts once, with its deduction once; a line no refund row names counts alone.
      const key = `${scope}:${refund ? refund.id : `line${line.id}`}`;
      if (!counted.has(key)) {
        counted.add(key);
        f.count++;
        f.deduction += refund?.deduction ?? 0;
      }
    }
  }
  return { range, days: [...days].map(([day, figures]) => ({ day, ...figures })), totals };
}

// ---------------------------------------------------------------------------------------------------------------
// Downloads
// ---------------------------------------------------------------------------------------------------------------

export interface DownloadsReport {
  range: ReportRange;
  /** The types that appear, in the report's order. */
  typeList: string[];
  days: { day: string; total: number; byType: Record<string, number> }[];
  types: { type: string; total: number; byKind: Record<string, number> }[];
  total: number;
}

/**
 * Downloads granted per Seoul day and per content type over the range. Download times are written by the shop as
 * ISO instants in UTC, so the database groups them by their UTC hour (the first 13 characters) and each hour falls
 * in exactly one Seoul day: the same query and the same answer on both engines.
 */
export async function downloadsReport(db: DB, range: ReportRange): Promise<DownloadsReport> {
  const { startIso, endIso } = bounds(range);
  const hour = sql<string>`substr(downloads.created_at, 1, 13)`;
  const rows = await db
    .selectFrom("downloads")
    .innerJoin("contents", "contents.id", "downloads.content_id")
    .select([hour.as("hour"), "contents.contents_type as type", "downloads.kind as kind", (eb) => eb.fn.countAll<number>().as("n")])
    .where("downloads.created_at", ">=", startIso)
    .where("downloads.created_at", "<", endIso)
    .groupBy([hour, "contents.contents_type", "downloads.kind"])
    .execute();
  const days = new Map(rangeDays(range).map((day) => [day, { day, total: 0, byType: {} as Record<string, number> }]));
  const types = new Map<string, { type: string; total: number; byKind: Record<string, number> }>();
  let total = 0;
  for (const r of rows) {
    const n = Number(r.n);
    const day = days.get(seoulDayOf(`${r.hour}:00:00.000Z`));
    if (!day) continue;
    day.total += n;
    day.byType[r.type] = (day.byType[r.type] ?? 0) + n;
    const t = entryOf(types, r.type, () => ({ type: r.type, total: 0, byKind: {} as Record<string, number> }));
    t.total += n;
    t.byKind[r.kind] = (t.byKind[r.kind] ?? 0) + n;
    total += n;
  }
  const typeList = [...types.keys()].sort(typeOrder);
  return { range, typeList, days: [...days.values()], types: typeList.map((t) => types.get(t) as DownloadsReport["types"][number]), total };
}

// ---------------------------------------------------------------------------------------------------------------
// Top items
// ---------------------------------------------------------------------------------------------------------------

export interface TopSale {
  contentId: number;
  code: string;
  title: string;
  type: string;
  items: number;
  gross: number;
  refunded: number;
  net: number;
}

export interface TopDownload {
  contentId: number;
  code: string;
  title: string;
  type: string;
  count: number;
}

export interface TopReport {
  range: ReportRange;
  /** Catalog items ranked by VAT-excluded sales net of refunds, each currency apart (passes are not catalog items). */
  sales: ByCurrency<TopSale[]>;
  downloads: TopDownload[];
}

async function contentNames(db: DB, ids: number[], locale: Locale) {
  const names = new Map<number, { code: string; title: string; type: string }>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom("contents")
      .select(["id", "code", "title_ko", "title_en", "contents_type"])
      .where("id", "in", ids.slice(i, i + 500))
      .execute();
    for (const r of rows)
      names.set(Number(r.id), { code: r.code, title: locale === "ko" ? r.title_ko : r.title_en || r.title_ko, type: r.contents_type });
  }
  return names;
}

/** The items that sold most (per currency) and were downloaded most over the range. */
export async function topReport(db: DB, range: ReportRange, locale: Locale, limit = TOP_LIMIT): Promise<TopReport> {
  const [paid, refunded] = await Promise.all([paidLines(db, range), refundedLines(db, range)]);
  const tally = bothCurrencies(() => new Map<number, { items: number; gross: number; refunded: number }>());
  const entry = (line: ReportLine) => entryOf(tally[line.currency], line.contentId as number, () => ({ items: 0, gross: 0, refunded: 0 }));
  for (const line of paid) {
    if (line.contentId === null) continue;
    const row = entry(line);
    row.items++;
    row.gross += line.sale;
  }
  for (const line of refunded) if (line.contentId !== null) entry(line).refunded += refundedSale(line);
  const ranked = bothCurrencies(() => [] as { contentId: number; items: number; gross: number; refunded: number; net: number }[]);
  for (const c of REPORT_CURRENCIES)
    ranked[c] = [...tally[c]]
      .map(([contentId, r]) => ({ contentId, ...r, net: r.gross - r.refunded }))
      .sort((a, b) => b.net - a.net || b.items - a.items || a.contentId - b.contentId)
      .slice(0, limit);

  const { startIso, endIso } = bounds(range);
  const downloaded = await db
    .selectFrom("downloads")
    .select(["content_id as contentId", (eb) => eb.fn.countAll<number>().as("n")])
    .where("created_at", ">=", startIso)
    .where("created_at", "<", endIso)
    .groupBy("content_id")
    .orderBy((eb) => eb.fn.countAll(), "desc")
    .orderBy("content_id")
    .limit(limit)
    .execute();

  const ids = [...new Set([...ranked.KRW, ...ranked.USD].map((r) => r.contentId).concat(downloaded.map((d) => Number(d.contentId))))];
  const names = await contentNames(db, ids, locale);
  const named = (id: number) => names.get(id) ?? { code: String(id), title: "", type: "other" };
  return {
    range,
    sales: {
      KRW: ranked.KRW.map((r) => ({ ...r, ...named(r.contentId) })),
      USD: ranked.USD.map((r) => ({ ...r, ...named(r.contentId) })),
    },
    downloads: downloaded.map((d) => ({ contentId: Number(d.contentId), count: Number(d.n), ...named(Number(d.contentId)) })),
  };
}
