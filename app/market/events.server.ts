/**
 * Events (spec sections 2, 7, 9: /event, /event/{id}, pboard/event with testYn, 15 a page, the event-ended page).
 * An event is shown from its start: running until its end, ended after it; one that has not started is not shown.
 * Test events (test_only = 1) are shown only when a caller asks for them (testYn=Y) and the store is in test mode.
 * Both doors, the pages and the API, read events only through this module.
 */
import { type Selectable, sql } from "kysely";
import { z } from "zod";
import type { DB } from "../db/db.server";
import type { EventsTable } from "../db/schema";
import type { Locale } from "../i18n/config";
import { PAGE_SIZE } from "./rules";

export type EventState = "running" | "ended";
export type TestYn = "Y" | "N";

export interface MarketEvent {
  id: number;
  title: string;
  body: string;
  image: string | null;
  /** The coupon while the event runs; an ended event's coupon can no longer be used, so it is not offered. */
  coupon: { code: string; percent: number | null } | null;
  startsAt: string;
  endsAt: string;
  state: EventState;
  test: boolean;
  /** The period in Asia/Seoul, spelled in the caller's language: days (lists) and days with times (the event). */
  days: { from: string; to: string };
  times: { from: string; to: string };
}

/** Whether test events are shown: asked for with testYn=Y, and the store is in test mode. */
export function showsTestEvents(testYn: TestYn, testMode: boolean): boolean {
  return testYn === "Y" && testMode;
}

const seoul = (locale: Locale, withTime: boolean) =>
  new Intl.DateTimeFormat(locale === "ko" ? "ko-KR" : "en-US", {
    year: "numeric",
    month: withTime ? "long" : "short",
    day: "numeric",
    ...(withTime ? { hour: "2-digit", minute: "2-digit", hourCycle: "h23" } : {}),
    timeZone: "Asia/Seoul",
  } as const);

type EventRow = Selectable<EventsTable>;

export function toEvent(row: EventRow, locale: Locale, now: Date): MarketEvent {
  const state: EventState = row.ends_at >= now.toISOString() ? "running" : "ended";
  const day = seoul(locale, false);
  const time = seoul(locale, true);
  return {
    id: row.id,
    title: locale === "ko" ? row.title_ko : row.title_en,
    body: locale === "ko" ? row.body_ko : row.body_en,
    image: row.image_path,
    coupon: state === "running" && row.coupon_code ? { code: row.coupon_code, percent: row.discount_percent } : null,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    state,
    test: row.test_only === 1,
    days: { from: day.format(new Date(row.starts_at)), to: day.format(new Date(row.ends_at)) },
    times: { from: time.format(new Date(row.starts_at)), to: time.format(new Date(row.ends_at)) },
  };
}

/** Events that have started (and, unless asked for, no test events). */
function visible(db: DB, includeTest: boolean, now: Date) {
  let q = db.selectFrom("events").where("starts_at", "<=", now.toISOString());
  if (!includeTest) q = q.where("test_only", "=", 0);
  return q;
}

/**
 * A window of the events: running first (the most recently started first), then ended (the most recently ended
 * first), with the total.
 */
export async function listEvents(
  db: DB,
  locale: Locale,
  window: { offset: number; limit: number; includeTest: boolean },
  now = new Date(),
): Promise<{ list: MarketEvent[]; total: number }> {
  const at = now.toISOString();
  const [rows, total] = await Promise.all([
    visible(db, window.includeTest, now)
      .selectAll()
      .orderBy(sql`case when ends_at >= ${at} then 0 else 1 end`)
      .orderBy(sql`case when ends_at >= ${at} then starts_at else ends_at end`, "desc")
      .orderBy("id", "desc")
      .offset(window.offset)
      .limit(window.limit)
      .execute(),
    visible(db, window.includeTest, now).select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map((r) => toEvent(r, locale, now)), total: Number(total.n) };
}

/** One event, or null when it does not exist, has not started, or is a test event not asked for. */
export async function getEvent(
  db: DB,
  id: number,
  locale: Locale,
  options: { includeTest: boolean },
  now = new Date(),
): Promise<MarketEvent | null> {
  const row = await visible(db, options.includeTest, now).selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toEvent(row, locale, now) : null;
}

/*
 * The pages' addresses: /event?page=N&testYn=Y and /event/{id}?testYn=Y. Anything unreadable is the default (page 1,
 * testYn N); an id that is not a positive whole number is no event.
 */
const pageQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
  testYn: z.enum(["Y", "N"]).catch("N"),
});
const eventId = z
  .string()
  .regex(/^[1-9]\d{0,9}$/)
  .transform(Number);

export interface EventListPage {
  list: MarketEvent[];
  total: number;
  page: number;
  /** At least 1. */
  pages: number;
  /** Whether test events are in the list (then the page's links keep testYn=Y). */
  includeTest: boolean;
}

/** The /event page from its address: PAGE_SIZE.events a page. */
export async function eventListPage(
  db: DB,
  locale: Locale,
  params: URLSearchParams,
  testMode: boolean,
  now = new Date(),
): Promise<EventListPage> {
  const q = pageQuery.parse({ page: params.get("page") ?? undefined, testYn: params.get("testYn") ?? undefined });
  const includeTest = showsTestEvents(q.testYn, testMode);
  const size = PAGE_SIZE.events;
  const result = await listEvents(db, locale, { offset: (q.page - 1) * size, limit: size, includeTest }, now);
  return { ...result, page: q.page, pages: Math.max(1, Math.ceil(result.total / size)), includeTest };
}

/** The /event/{id} page's event from its address, or null (the page answers the storefront's 404). */
export async function eventPage(
  db: DB,
  locale: Locale,
  rawId: string | undefined,
  params: URLSearchParams,
  testMode: boolean,
  now = new Date(),
): Promise<{ event: MarketEvent; includeTest: boolean } | null> {
  const id = eventId.safeParse(rawId ?? "");
  if (!id.success) return null;
  const testYn = pageQuery.shape.testYn.parse(params.get("testYn") ?? undefined);
  const includeTest = showsTestEvents(testYn, testMode);
  const event = await getEvent(db, id.data, locale, { includeTest }, now);
  return event ? { event, includeTest } : null;
}
