/**
 * An office is not one person (issue 24, point 8): the editor seats of one company sit behind one office address,
 * so key lookups and purchase requests are counted per key and per company, the address keeping only a high
 * ceiling; failed lookups stay tight per address (key guessing). Through the section-7 API (lookup + request in one
 * call, the 429 with Retry-After and its translated message) and the domain.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { MarketError } from "../../app/market/errors";
import { hit, peek, RateLimited, RULES } from "../../app/market/rate-limits.server";
import { type BusinessKey, lookupBusinessKey } from "../../app/market/requests/lookup.server";
import { createPurchaseRequest } from "../../app/market/requests/requests.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { Jar, newShopper } from "../support/shopper";

const SEATS = 50;
const OFFICE = "198.51.100.50";

describe(`an office of ${SEATS} editor seats behind one address on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Awaited<ReturnType<typeof createTestApp>>;
  let items: { id: number; code: string }[];

  /** A business representative account with `n` business (b2bg) keys, each with its own licensing e-mail. */
  async function company(n: number) {
    const owner = await newShopper(db, { userType: 2 });
    const tag = randomBytes(3).toString("hex").toUpperCase();
    const now = new Date().toISOString();
    const seats = Array.from({ length: n }, (_, i) => ({
      serial: `VEDT-OFC-${tag}-${String(i).padStart(3, "0")}`,
      email: `seat${i}-${tag.toLowerCase()}@office.example`,
    }));
    await db
      .insertInto("licenses")
      .values(
        seats.map((s, i) => ({
          serial: s.serial,
          alias: `Seat ${i}`,
          email: s.email,
          owner_kind: "b2bg",
          user_id: owner.userId,
          hw_info: `HW-OFC-${tag}-${i}`,
          pc_name: `SEAT-${i}`,
          status: "registered",
          license_type: "one_year",
          valid_until: new Date(Date.now() + 365 * 86_400_000).toISOString(),
          product_version: "2.0.5.1.0",
          sort_order: i,
          registered_at: now,
          created_at: now,
        })),
      )
      .execute();
    return { ownerId: owner.userId, seats };
  }

  const json = (path: string, init: RequestInit & { ip?: string } = {}) =>
    call(`/api/v1/${path}`, { ...init, headers: { "content-type": "application/json", ...(init.headers ?? {}) } });
  const requestBy = (seat: { serial: string; email: string }, language: "ko" | "en" = "en", ip = OFFICE) =>
    json("requests", {
      method: "POST",
      ip,
      headers: { language },
      body: JSON.stringify({
        message: "Office, seat",
        request_email: seat.email,
        license_id: seat.serial,
        license_email: seat.email,
        item_list: [items[0].code],
      }),
    });
  const refusal = async (p: Promise<unknown>) => {
    try {
      await p;
    } catch (error) {
      if (error instanceof RateLimited) return `${error.code}:${error.bucket}`;
      if (error instanceof MarketError) return error.code;
      throw error;
    }
    return "accepted";
  };
  const newRequest = (key: BusinessKey, ip = OFFICE) =>
    createPurchaseRequest(db, {
      key,
      requestEmail: key.email,
      message: "Office, seat",
      contentIds: [items[0].id],
      locale: "en",
      origin: "http://store.test",
      ip,
    });

  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    call = await createTestApp(db, { dataDir: t.dataDir });
    items = await db
      .selectFrom("contents")
      .select(["id", "code"])
      .where("status", "=", "active")
      .where("price_type", "=", "paid")
      .where("contents_type", "in", ["video", "icon"])
      .orderBy("id")
      .limit(1)
      .execute();
  });
  afterAll(() => drop());

  it(`lets each of ${SEATS} seats of one company look its key up and send a request from one address`, async () => {
    const office = await company(SEATS);
    // More than the old per-address limits (20 requests an hour) allowed: every seat is answered.
    const statuses: number[] = [];
    for (const seat of office.seats) statuses.push((await requestBy(seat)).status);
    expect(statuses).toEqual(Array(SEATS).fill(200));
    for (const seat of office.seats) expect((await lookupBusinessKey(db, { ...seat, ip: OFFICE })).ownerUserId).toBe(office.ownerId);
    const made = await db
      .selectFrom("purchase_requests")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("owner_user_id", "=", office.ownerId)
      .executeTakeFirstOrThrow();
    expect(Number(made.n)).toBe(SEATS);
    // Found keys were counted per key and per company, and no lookup counted as a failure of the address.
    expect(await peek(db, RULES.keyLookupCompany.bucket, String(office.ownerId))).toBe(2 * SEATS);
    expect(await peek(db, RULES.requestCompany.bucket, String(office.ownerId))).toBe(SEATS);
    expect(await peek(db, RULES.keyLookupFailures.bucket, OFFICE)).toBe(0);
  });

  it("still holds one key to its own request limit, in both languages, without charging its company", async () => {
    const office = await company(2);
    const key = await lookupBusinessKey(db, { ...office.seats[0], ip: OFFICE });
    for (let i = 0; i < RULES.requestKey.limit; i++) expect(await refusal(newRequest(key))).toBe("accepted");
    expect(await refusal(newRequest(key))).toBe(`TOO_MANY_REQUESTS:${RULES.requestKey.bucket}`);
    const en = await requestBy(office.seats[0], "en");
    expect(en.status).toBe(429);
    expect(en.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(Number(en.headers.get("Retry-After"))).toBeGreaterThan(23 * 3600);
    expect((await en.json()).result.message).toBe(
      `This licence key has sent its ${RULES.requestKey.limit} purchase requests allowed a day. Please try again in 24 hours.`,
    );
    const ko = await requestBy(office.seats[0], "ko");
    expect(ko.status).toBe(429);
    expect((await ko.json()).result.message).toBe(
      `이 라이선스 키로 하루에 보낼 수 있는 구매 요청 ${RULES.requestKey.limit}건을 모두 보냈습니다. 24시간 후에 다시 시도해 주세요.`,
    );
    // The refused ones were not charged to the company: its other seat still sends.
    expect(await peek(db, RULES.requestCompany.bucket, String(office.ownerId))).toBe(RULES.requestKey.limit);
    expect((await requestBy(office.seats[1])).status).toBe(200);
  });

  it("holds a company to its own limit over all its keys, whatever the address", async () => {
    const office = await company(3);
    const keys = await Promise.all(office.seats.map((s) => lookupBusinessKey(db, { ...s, ip: OFFICE })));
    // The company's day so far (as if its seats had sent that many), short of the limit by two.
    for (let i = 0; i < RULES.requestCompany.limit - 2; i++)
      await hit(db, RULES.requestCompany.bucket, String(office.ownerId), RULES.requestCompany);
    expect(await refusal(newRequest(keys[0], "198.51.100.61"))).toBe("accepted");
    expect(await refusal(newRequest(keys[1], "198.51.100.62"))).toBe("accepted");
    expect(await refusal(newRequest(keys[2], "198.51.100.63"))).toBe(`TOO_MANY_REQUESTS:${RULES.requestCompany.bucket}`);
    const en = await requestBy(office.seats[2], "en", "198.51.100.64");
    expect(en.status).toBe(429);
    expect(en.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect((await en.json()).result.message).toBe(
      `Your company's licence keys have sent the ${RULES.requestCompany.limit} purchase requests allowed a day. Please try again in 24 hours.`,
    );
    // Another company is not touched.
    const other = await company(1);
    expect((await requestBy(other.seats[0], "en", "198.51.100.64")).status).toBe(200);
  });

  it("keeps failed lookups tight per address (key guessing), found ones included once it is over", async () => {
    const office = await company(1);
    const guesser = "198.51.100.99";
    const codes: string[] = [];
    for (let i = 0; i < RULES.keyLookupFailures.limit + 1; i++)
      codes.push(await refusal(lookupBusinessKey(db, { serial: `VEDT-GUESS-${i}`, email: "x@example.com", ip: guesser })));
    expect(codes.slice(0, RULES.keyLookupFailures.limit).every((c) => c === "KEY_NOT_FOUND")).toBe(true);
    expect(codes.at(-1)).toBe(`TOO_MANY_REQUESTS:${RULES.keyLookupFailures.bucket}`);
    // Past the limit a right guess answers the same refusal: the lookup is no oracle.
    expect(await refusal(lookupBusinessKey(db, { ...office.seats[0], ip: guesser }))).toBe(
      `TOO_MANY_REQUESTS:${RULES.keyLookupFailures.bucket}`,
    );
    const res = await requestBy(office.seats[0], "en", guesser);
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await res.json()).result.message).toMatch(
      /^Too many licence keys looked up from your network address were not found\. Please try again in \d+ minutes?\.$/,
    );
    const ko = await requestBy(office.seats[0], "ko", guesser);
    expect((await ko.json()).result.message).toMatch(
      /^이 네트워크 주소에서 조회한 라이선스 키 중 찾지 못한 키가 너무 많습니다\. \d+분 후에 다시 시도해 주세요\.$/,
    );
    // Another address is not held back.
    expect(await refusal(lookupBusinessKey(db, { ...office.seats[0], ip: "198.51.100.98" }))).toBe("accepted");
  });

  it("counts found lookups per key", async () => {
    const office = await company(2);
    for (let i = 0; i < RULES.keyLookupKey.limit; i++)
      expect(await refusal(lookupBusinessKey(db, { ...office.seats[0], ip: `203.0.113.${(i % 200) + 1}` }))).toBe("accepted");
    expect(await refusal(lookupBusinessKey(db, { ...office.seats[0], ip: "203.0.113.250" }))).toBe(
      `TOO_MANY_REQUESTS:${RULES.keyLookupKey.bucket}`,
    );
    // The seat's own limit: the next seat of the company looks its key up.
    expect(await refusal(lookupBusinessKey(db, { ...office.seats[1], ip: "203.0.113.250" }))).toBe("accepted");
  });
  it("says on the website's pages which limit refused and when to try again (429 with Retry-After), keeping what was typed", async () => {
    const office = await company(1);
    const ip = "198.51.100.120";
    const jar = new Jar({ lng: "en" });
    const go = async (path: string, form?: Record<string, string | string[]>) => {
      const body = new URLSearchParams();
      for (const [k, v] of Object.entries(form ?? {})) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x);
      return jar.take(
        await call(path, {
          method: form ? "POST" : "GET",
          body: form ? body : undefined,
          ip,
          headers: { cookie: jar.header, ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
        }),
      );
    };
    expect((await go("/cart", { intent: "add", code: items[0].code, redirectTo: "/cart" })).status).toBe(302);
    const lines = [...(await (await go("/cart")).text()).matchAll(/name="cart_id" id="cart-(\d+)"/g)].map((m) => m[1]);
    expect((await go("/cart", { intent: "request", cart_id: lines })).headers.get("location")).toMatch(/\/pay-key$/);
    // The key lookup: failures from this address up to the limit, then the refusal says so.
    for (let i = 0; i < RULES.keyLookupFailures.limit; i++)
      expect((await go("/pay-key", { serial: `VEDT-GUESS-W${i}`, email: "x@example.com" })).status).toBe(404);
    const refused = await go("/pay-key", { serial: office.seats[0].serial, email: office.seats[0].email });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    const page = await refused.text();
    expect(page).toMatch(/Too many licence keys looked up from your network address were not found\. Please try again in \d+ minutes?\./);
    expect(page).toContain(`value="${office.seats[0].serial}"`);

    // The request form: the seat's key past its own day of requests.
    const key = await lookupBusinessKey(db, { ...office.seats[0], ip: "198.51.100.121" });
    for (let i = 0; i < RULES.requestKey.limit; i++) await newRequest(key, "198.51.100.121");
    const seat = new Jar({ lng: "en" });
    const seatGo = async (path: string, form?: Record<string, string | string[]>) => {
      const body = new URLSearchParams();
      for (const [k, v] of Object.entries(form ?? {})) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x);
      return seat.take(
        await call(path, {
          method: form ? "POST" : "GET",
          body: form ? body : undefined,
          ip: "198.51.100.122",
          headers: { cookie: seat.header, ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
        }),
      );
    };
    expect((await seatGo("/cart", { intent: "add", code: items[0].code, redirectTo: "/cart" })).status).toBe(302);
    const seatLines = [...(await (await seatGo("/cart")).text()).matchAll(/name="cart_id" id="cart-(\d+)"/g)].map((m) => m[1]);
    await seatGo("/cart", { intent: "request", cart_id: seatLines });
    expect((await seatGo("/pay-key", { serial: office.seats[0].serial, email: office.seats[0].email })).headers.get("location")).toMatch(
      /\/request$/,
    );
    const sent = await seatGo("/request", { request_email: office.seats[0].email, message: "Office, seat 0" });
    expect(sent.status).toBe(429);
    expect(Number(sent.headers.get("Retry-After"))).toBeGreaterThan(23 * 3600);
    const form = await sent.text();
    expect(form).toContain(
      `This licence key has sent its ${RULES.requestKey.limit} purchase requests allowed a day. Please try again in 24 hours.`,
    );
    expect(form).toContain("Office, seat 0");
  });
});
