/**
 * Purchase requests (spec sections 1, 3-6): a key-only user of a business (B2BG) licence asks the representative
 * account that owns the key to pay for items; the representative sees, pays or deletes the requests; the
 * requester gets a printable quote by an unguessable link, valid 30 days.
 */
import { createHash, randomBytes } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { DB } from "../../db/db.server";
import type { Database } from "../../db/schema";
import type { Locale } from "../../i18n/config";
import { seoulText } from "../../utils/dates";
import { type CartOwner, removeContentsFromCart } from "../cart.server";
import { PACKAGE_MEMBER_COLUMNS, saleUnit } from "../catalog/cards.server";
import { MarketError } from "../errors";
import { requestToRepresentativeMail, requestToRequesterMail } from "../mail/messages.server";
import { queueMail } from "../mail/queue.server";
import { type Currency, currencyFor, formatMoney } from "../money";
import { priceOrder } from "../orders/pricing";
import { enforceInTurn, RULES } from "../rate-limits.server";
import { MAX_REQUEST_ITEMS, PAGE_SIZE } from "../rules";
import type { BusinessKey } from "./lookup.server";
import { quoteRequests } from "./payment.server";
import { payableUnit, REQUEST_STATES, type RequestState, requestDeadline, requestState } from "./rules";

/** Purchase requests waiting for a representative (spec section 3: "request count is loaded" for user_type 2). */
export async function countOpenRequests(db: DB, ownerUserId: number, now = new Date()): Promise<number> {
  const row = await db
    .selectFrom("purchase_requests")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("owner_user_id", "=", ownerUserId)
    .where("status", "=", "waiting")
    .where("deleted_at", "is", null)
    .where("expires_at", ">", now.toISOString())
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** A request number people can read out: REQ-YYYYMMDD-XXXXXXXX. */
function newRequestNo(now: Date): string {
  const day = now.toISOString().slice(0, 10).replaceAll("-", "");
  return `REQ-${day}-${randomBytes(5).toString("hex").toUpperCase().slice(0, 8)}`;
}

export interface NewRequestInput {
  key: BusinessKey;
  requestEmail: string;
  message: string;
  /** Content ids the requester asks for (from their cart or the API's item codes). */
  contentIds: number[];
  /** The requester's cart (member or anonymous ngt): the requested items leave it with the request (issue 24, point 5). */
  cart?: CartOwner;
  locale: Locale;
  /** The store's public origin, for the quote link in the mails. */
  origin: string;
  ip: string;
  now?: Date;
}

export interface CreatedRequest {
  id: number;
  requestNo: string;
  /** The quote's unguessable address (only its hash is stored). */
  quotePath: string;
  total: number;
  currency: "KRW" | "USD";
  expiresAt: string;
  /** How many lines of the requester's cart the request took out. */
  leftCart: number;
}

/**
 * Records a request for the items (paid, active content only), priced now in the requester's currency, with its
 * quote link; the representative and the requester are mailed in the same transaction (the mail outbox).
 */
export async function createPurchaseRequest(db: DB, input: NewRequestInput): Promise<CreatedRequest> {
  const now = input.now ?? new Date();
  const ids = [...new Set(input.contentIds)];
  if (ids.length === 0) throw new MarketError("REQUEST_EMPTY", 400, "Choose the items to request");
  if (ids.length > MAX_REQUEST_ITEMS) throw new MarketError("CHECKOUT_TOO_LARGE", 400, "Too many items");
  // Per key (one editor seat), per company, then the office address's ceiling; a seat past its own limit is not
  // charged to the others (enforceInTurn).
  await enforceInTurn(
    db,
    [
      [RULES.requestKey, String(input.key.licenseId)],
      [RULES.requestCompany, String(input.key.ownerUserId)],
      [RULES.requestAddress, input.ip],
    ],
    now,
  );
  const currency = currencyFor(input.locale);
  const rows = await db
    .selectFrom("contents")
    .select(["id", "code", "title_ko", "title_en", "price_type", "price_krw", "price_usd", "status"])
    .select(PACKAGE_MEMBER_COLUMNS)
    .where("id", "in", ids)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const lines = ids.map((id) => {
    const r = byId.get(id);
    const unit = r ? saleUnit(r, currency) : null;
    if (!r || unit === null) throw new MarketError("CONTENT_DISCONTINUED", 409, "This content has been discontinued");
    if (r.price_type !== "paid") throw new MarketError("NOT_FOR_SALE", 409, "Free and benefit content is not sold");
    return { id: r.id, title: { ko: r.title_ko, en: r.title_en } satisfies Record<Locale, string>, unit };
  });
  const totals = priceOrder(lines.map((l) => ({ unit: l.unit })));
  const token = randomBytes(24).toString("base64url");
  const requestNo = newRequestNo(now);
  const expiresAt = requestDeadline(now).toISOString();
  const quotePath = `/mypage/estimate?token=${token}`;
  const made = await db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto("purchase_requests")
      .values({
        request_no: requestNo,
        owner_user_id: input.key.ownerUserId,
        license_id: input.key.licenseId,
        request_email: input.requestEmail,
        message: input.message,
        status: "waiting",
        currency,
        total: totals.total,
        order_id: null,
        expires_at: expiresAt,
        created_at: now.toISOString(),
        quote_token_hash: hashToken(token),
        language: input.locale,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await trx
      .insertInto("purchase_request_items")
      .values(lines.map((l) => ({ request_id: row.id, content_id: l.id, unit_price: l.unit })))
      .execute();
    await mailRequest(trx, {
      requestNo,
      requestId: row.id,
      quotePath,
      requester: input.requestEmail,
      representative: input.key.ownerEmail,
      representativeLocale: input.key.ownerLanguage,
      requesterLocale: input.locale,
      message: input.message,
      serial: input.key.serial,
      titles: lines.map((l) => l.title),
      now,
    });
    // Requested is as good as on its way: the items leave the requester's cart in the same transaction.
    const leftCart = input.cart ? await removeContentsFromCart(trx, input.cart, ids) : 0;
    return { id: row.id, leftCart };
  });
  return { id: made.id, requestNo, quotePath, total: totals.total, currency, expiresAt, leftCart: made.leftCart };
}

async function mailRequest(
  trx: Kysely<Database> | Transaction<Database>,
  m: {
    requestNo: string;
    requestId: number;
    quotePath: string;
    requester: string;
    representative: string;
    representativeLocale: Locale;
    requesterLocale: Locale;
    message: string;
    serial: string;
    /** Each item's name in both languages: each mail names the items in its own reader's language. */
    titles: Record<Locale, string>[];
    now: Date;
  },
) {
  const itemsIn = (locale: Locale) => m.titles.map((t) => `- ${t[locale]}`).join("\n");
  await queueMail(
    trx,
    requestToRepresentativeMail(m.representative, m.representativeLocale, {
      requestNo: m.requestNo,
      requestId: m.requestId,
      email: m.requester,
      serial: m.serial,
      message: m.message,
      items: itemsIn(m.representativeLocale),
      quotePath: m.quotePath,
    }),
    m.now,
  );
  await queueMail(
    trx,
    requestToRequesterMail(m.requester, m.requesterLocale, {
      requestNo: m.requestNo,
      serial: m.serial,
      items: itemsIn(m.requesterLocale),
      quotePath: m.quotePath,
    }),
    m.now,
  );
}

export interface RequestSummary {
  id: number;
  request_no: string;
  request_email: string;
  message: string;
  license_id: string;
  license_alias: string | null;
  created_at: string;
  expires_at: string;
  paid_at: string | null;
  state: RequestState;
  currency: "KRW" | "USD";
  total: number;
  quantity: number;
  contents: string;
}

export interface RequestFilter {
  offset: number;
  limit: number;
  state?: RequestState;
  /** Requests made on or after / before these instants. */
  from?: string;
  to?: string;
}

const summaryColumns = [
  "purchase_requests.id",
  "purchase_requests.request_no",
  "purchase_requests.request_email",
  "purchase_requests.message",
  "purchase_requests.status",
  "purchase_requests.currency",
  "purchase_requests.total",
  "purchase_requests.expires_at",
  "purchase_requests.created_at",
  "purchase_requests.paid_at",
  "licenses.serial",
  "licenses.alias",
] as const;

async function titlesOf(db: DB, requestIds: number[], locale: Locale) {
  if (!requestIds.length) return new Map<number, string[]>();
  const rows = await db
    .selectFrom("purchase_request_items")
    .innerJoin("contents", "contents.id", "purchase_request_items.content_id")
    .select(["purchase_request_items.request_id", "contents.title_ko", "contents.title_en"])
    .where("purchase_request_items.request_id", "in", requestIds)
    .orderBy("purchase_request_items.id")
    .execute();
  const out = new Map<number, string[]>();
  for (const r of rows) out.set(r.request_id, [...(out.get(r.request_id) ?? []), locale === "ko" ? r.title_ko : r.title_en]);
  return out;
}

export const contentsLabel = (titles: string[], locale: Locale) =>
  titles.length <= 1
    ? (titles[0] ?? "")
    : locale === "ko"
      ? `${titles[0]} 외 ${titles.length - 1}건`
      : `${titles[0]} and ${titles.length - 1} more`;

/** The representative's requests, newest first, 20 a page by default, filtered by state and request date. */
export async function listRequests(
  db: DB,
  ownerUserId: number,
  filter: RequestFilter,
  locale: Locale,
  now = new Date(),
): Promise<{ list: RequestSummary[]; total_count: number }> {
  const at = now.toISOString();
  let q = db
    .selectFrom("purchase_requests")
    .innerJoin("licenses", "licenses.id", "purchase_requests.license_id")
    .where("purchase_requests.owner_user_id", "=", ownerUserId)
    .where("purchase_requests.deleted_at", "is", null);
  if (filter.from) q = q.where("purchase_requests.created_at", ">=", filter.from);
  if (filter.to) q = q.where("purchase_requests.created_at", "<", filter.to);
  if (filter.state === "paid") q = q.where("purchase_requests.status", "=", "paid");
  if (filter.state === "waiting") q = q.where("purchase_requests.status", "=", "waiting").where("purchase_requests.expires_at", ">", at);
  if (filter.state === "expired")
    q = q.where((eb) =>
      eb.or([
        eb("purchase_requests.status", "=", "expired"),
        eb.and([eb("purchase_requests.status", "=", "waiting"), eb("purchase_requests.expires_at", "<=", at)]),
      ]),
    );
  const [rows, count] = await Promise.all([
    q
      .select([...summaryColumns])
      .orderBy("purchase_requests.created_at", "desc")
      .orderBy("purchase_requests.id", "desc")
      .offset(filter.offset)
      .limit(filter.limit)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  const titles = await titlesOf(
    db,
    rows.map((r) => r.id),
    locale,
  );
  return {
    list: rows.map((r) => toSummary(r, titles.get(r.id) ?? [], locale, now)),
    total_count: Number(count.n),
  };
}

function toSummary(
  r: {
    id: number;
    request_no: string;
    request_email: string;
    message: string;
    status: string;
    currency: string;
    total: number;
    expires_at: string;
    created_at: string;
    paid_at: string | null;
    serial: string;
    alias: string | null;
  },
  titles: string[],
  locale: Locale,
  now: Date,
): RequestSummary {
  return {
    id: r.id,
    request_no: r.request_no,
    request_email: r.request_email,
    message: r.message,
    license_id: r.serial,
    license_alias: r.alias,
    created_at: r.created_at,
    expires_at: r.expires_at,
    paid_at: r.paid_at,
    state: requestState(r, now),
    currency: r.currency as "KRW" | "USD",
    total: r.total,
    quantity: titles.length,
    contents: contentsLabel(titles, locale),
  };
}

/** The items of requests with their content's current state and prices, in request then item order. */
export function requestItemRows(db: DB, requestIds: number[]) {
  return db
    .selectFrom("purchase_request_items")
    .innerJoin("contents", "contents.id", "purchase_request_items.content_id")
    .select([
      "purchase_request_items.request_id",
      "purchase_request_items.content_id",
      "purchase_request_items.unit_price",
      "contents.code",
      "contents.contents_type",
      "contents.title_ko",
      "contents.title_en",
      "contents.poster_path",
      "contents.status",
      "contents.price_type",
      "contents.price_krw",
      "contents.price_usd",
    ])
    .select(PACKAGE_MEMBER_COLUMNS)
    .where("purchase_request_items.request_id", "in", requestIds)
    .orderBy("purchase_request_items.request_id")
    .orderBy("purchase_request_items.id")
    .execute();
}

export interface RequestItem {
  content_id: number;
  item_code: string;
  item_type: string;
  title: string;
  poster: string | null;
  /** The price quoted when the request was made (VAT excluded). */
  quoted_price: number;
  /** What paying now charges for it (VAT excluded): the lower of the quoted and the current price; null when
   * discontinued or no longer sold, so left out of the payment. */
  payable_price: number | null;
  discontinued: boolean;
  repriced: boolean;
}

export interface RequestDetail extends RequestSummary {
  items: RequestItem[];
  /** What paying now charges: amount, VAT and total over the payable items. */
  payable: { amount: number; vat: number; total: number; quantity: number };
  order_no: string | null;
  organization: string | null;
}

async function detailOf(db: DB, where: { id: number } | { tokenHash: string }, locale: Locale, now: Date) {
  let q = db
    .selectFrom("purchase_requests")
    .innerJoin("licenses", "licenses.id", "purchase_requests.license_id")
    .innerJoin("users", "users.id", "purchase_requests.owner_user_id")
    .leftJoin("orders", "orders.id", "purchase_requests.order_id")
    .select([
      ...summaryColumns,
      "purchase_requests.owner_user_id",
      "purchase_requests.deleted_at",
      "users.organization",
      "orders.order_no",
    ]);
  q = "id" in where ? q.where("purchase_requests.id", "=", where.id) : q.where("purchase_requests.quote_token_hash", "=", where.tokenHash);
  const r = await q.executeTakeFirst();
  if (!r) return null;
  const items = await requestItemRows(db, [r.id]);
  const list: RequestItem[] = items.map((i) => {
    const current = saleUnit(i, r.currency as Currency);
    const payable = payableUnit(i.unit_price, {
      status: current === null ? "discontinued" : i.status,
      price_type: i.price_type,
      price: current ?? 0,
    });
    return {
      content_id: i.content_id,
      item_code: i.code,
      item_type: i.contents_type,
      title: locale === "ko" ? i.title_ko : i.title_en,
      poster: i.poster_path,
      quoted_price: i.unit_price,
      payable_price: payable,
      discontinued: payable === null,
      repriced: payable !== null && current !== i.unit_price,
    };
  });
  const payableLines = list.flatMap((i) => (i.payable_price === null ? [] : [{ unit: i.payable_price }]));
  const totals = priceOrder(payableLines);
  const detail: RequestDetail = {
    ...toSummary(
      r,
      list.map((i) => i.title),
      locale,
      now,
    ),
    items: list,
    payable: { amount: totals.amount, vat: totals.vat, total: totals.total, quantity: payableLines.length },
    order_no: r.order_no,
    organization: r.organization,
  };
  return { detail, ownerUserId: r.owner_user_id, deleted: r.deleted_at !== null };
}

/** One of the representative's requests with its items, or null (another account's, deleted or unknown). */
export async function requestDetail(db: DB, ownerUserId: number, id: number, locale: Locale, now = new Date()) {
  const found = await detailOf(db, { id }, locale, now);
  return found && found.ownerUserId === ownerUserId && !found.deleted ? found.detail : null;
}

/**
 * The quote behind an unguessable link (no login): null for an unknown token and once the quote's 30 days have
 * passed, so the page says it was not found.
 */
export async function quoteByToken(db: DB, token: string, locale: Locale, now = new Date()): Promise<RequestDetail | null> {
  if (!/^[A-Za-z0-9_-]{20,64}$/.test(token)) return null;
  const found = await detailOf(db, { tokenHash: hashToken(token) }, locale, now);
  if (!found || Date.parse(found.detail.expires_at) <= now.getTime()) return null;
  return found.detail;
}

/** Removes requests from the representative's list (their paid orders stay); answers how many were removed. */
export async function deleteRequests(db: DB, ownerUserId: number, ids: number[], now = new Date()): Promise<number> {
  if (!ids.length) return 0;
  const result = await db
    .updateTable("purchase_requests")
    .set({ deleted_at: now.toISOString() })
    .where("owner_user_id", "=", ownerUserId)
    .where("id", "in", ids)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The content ids of item codes (the API names items by code); an unknown code is refused. */
export async function contentIdsOfCodes(db: DB, codes: readonly string[]): Promise<number[]> {
  const unique = [...new Set(codes)];
  if (!unique.length) return [];
  const rows = await db.selectFrom("contents").select(["id", "code"]).where("code", "in", unique).execute();
  if (rows.length !== unique.length) throw new MarketError("CONTENT_NOT_FOUND", 404, "No item with this code");
  const byCode = new Map(rows.map((r) => [r.code, r.id]));
  return unique.map((c) => byCode.get(c) as number);
}

/*
 * The representative's pages (/mypage/purchase and /mypage/purchase/{id}), added with them: the list read from the
 * page's address (Asia/Seoul days, 20 a page, a state) with dates and totals spelled on the server, and the check
 * that selected requests can be paid, in the requests' own currency.
 */

const seoulDay = /^\d{4}-\d{2}-\d{2}$/;
/** A real calendar day (YYYY-MM-DD) from an address, or "" (2026-02-31 is not one). */
const dayParam = (raw: string | null) =>
  raw && seoulDay.test(raw) && new Date(`${raw}T00:00:00Z`).toISOString().slice(0, 10) === raw ? raw : "";

export interface RequestListRow {
  id: number;
  requestNo: string;
  date: string;
  email: string;
  serial: string;
  alias: string | null;
  contents: string;
  quantity: number;
  /** The request's total with VAT, in the request's currency. */
  total: string;
  state: RequestState;
}

export interface RequestListPage {
  rows: RequestListRow[];
  totalCount: number;
  page: number;
  pages: number;
  /** The state asked for, "" for all. */
  state: RequestState | "";
  from: string;
  to: string;
}

/**
 * One page of the representative's requests from the page's query: `state` (waiting, expired, paid; anything else
 * is all), `from`/`to` Asia/Seoul days (from 00:00 of `from` to the end of `to`), `page` (PAGE_SIZE.requests a page).
 */
export async function requestListPage(
  db: DB,
  ownerUserId: number,
  params: URLSearchParams,
  locale: Locale,
  now = new Date(),
): Promise<RequestListPage> {
  const asked = params.get("state");
  const state = REQUEST_STATES.find((s) => s === asked) ?? "";
  const from = dayParam(params.get("from"));
  const to = dayParam(params.get("to"));
  const n = Number(params.get("page"));
  const page = Number.isInteger(n) && n >= 1 && n <= 10_000 ? n : 1;
  const result = await listRequests(
    db,
    ownerUserId,
    {
      offset: (page - 1) * PAGE_SIZE.requests,
      limit: PAGE_SIZE.requests,
      state: state || undefined,
      from: from ? new Date(`${from}T00:00:00+09:00`).toISOString() : undefined,
      to: to ? new Date(Date.parse(`${to}T00:00:00+09:00`) + 86_400_000).toISOString() : undefined,
    },
    locale,
    now,
  );
  return {
    rows: result.list.map((r) => ({
      id: r.id,
      requestNo: r.request_no,
      date: seoulText(r.created_at, locale, "date"),
      email: r.request_email,
      serial: r.license_id,
      alias: r.license_alias,
      contents: r.contents,
      quantity: r.quantity,
      total: formatMoney(r.total, r.currency, locale),
      state: r.state,
    })),
    totalCount: result.total_count,
    page,
    pages: Math.max(1, Math.ceil(result.total_count / PAGE_SIZE.requests)),
    state,
    from,
    to,
  };
}

/**
 * Whether the representative can pay these requests together now, as quoteRequests decides (waiting, one key, one
 * currency), checked in the requests' own currency: a request is paid in the currency it was quoted in, so the
 * first request's currency is the one asked for. Throws the MarketError quoteRequests throws.
 */
export async function checkRequestsPayable(db: DB, ownerUserId: number, requestIds: readonly number[], locale: Locale, now = new Date()) {
  const first = requestIds.length
    ? await db
        .selectFrom("purchase_requests")
        .select("currency")
        .where("owner_user_id", "=", ownerUserId)
        .where("id", "=", requestIds[0])
        .where("deleted_at", "is", null)
        .executeTakeFirst()
    : undefined;
  if (!first) throw new MarketError("REQUEST_NOT_FOUND", 404, "No such purchase request");
  return quoteRequests(db, ownerUserId, requestIds, first.currency as Currency, locale, now);
}
