import { createQueryId, type KyselyPlugin, type RootOperationNode } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createDb, type DB } from "../../app/db/db.server";
import { DEMO } from "../../app/db/seed/index.server";
import { linkNonMemberLicense } from "../../app/market/licenses.server";
import {
  backoff,
  backoffDelay,
  hit,
  pruneRateLimits,
  RULES,
  refund,
  SIGN_IN_BACKOFF,
  type Verdict,
} from "../../app/market/rate-limits.server";
import { joinMarket, signIn } from "../../app/market/users/auth.server";
import * as password from "../../app/market/users/password.server";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";

// The real hash, watched: join must pay for it whether or not the e-mail is taken.
vi.mock("../../app/market/users/password.server", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../../app/market/users/password.server")>();
  return { ...actual, hashPassword: vi.fn(actual.hashPassword) };
});

const MINUTE = 60_000;
const at = (base: Date, ms: number) => new Date(base.getTime() + ms);
const wait = (v: Verdict) => (v.allowed ? 0 : v.retryAfterMs);

describe(`rate limits and enumeration on ${ENGINE}`, () => {
  let db: DB;
  let url: string;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const t = await createTestDb();
    ({ db, url, drop } = t);
  });
  afterAll(() => drop());

  it("counts a fixed window in the database: `limit` hits pass, the next waits for the window's end, a new window starts over", async () => {
    const t0 = new Date("2030-01-01T00:00:00Z");
    const w = { limit: 3, windowMs: 10 * MINUTE };
    for (let i = 0; i < 3; i++) expect((await hit(db, "t:fixed", "k", w, at(t0, i * 1000))).allowed).toBe(true);
    const refused = await hit(db, "t:fixed", "k", w, at(t0, 4 * MINUTE));
    expect(refused).toEqual({ allowed: false, retryAfterMs: 6 * MINUTE });
    expect((await hit(db, "t:fixed", "other", w, at(t0, 4 * MINUTE))).allowed).toBe(true);
    expect((await hit(db, "t:fixed", "k", w, at(t0, 10 * MINUTE))).allowed).toBe(true);
    // A refund gives a place back within the window.
    await hit(db, "t:fixed", "k", w, at(t0, 10 * MINUTE));
    await hit(db, "t:fixed", "k", w, at(t0, 10 * MINUTE));
    expect((await hit(db, "t:fixed", "k", w, at(t0, 11 * MINUTE))).allowed).toBe(false);
    await refund(db, "t:fixed", "k", at(t0, 11 * MINUTE));
    await refund(db, "t:fixed", "k", at(t0, 11 * MINUTE));
    expect((await hit(db, "t:fixed", "k", w, at(t0, 11 * MINUTE))).allowed).toBe(true);
    // Keys are stored hashed.
    expect(await db.selectFrom("rate_limits").select("key").where("key", "=", "k").execute()).toEqual([]);
  });

  it("is atomic: parallel hits from two connections (two server processes) let exactly `limit` through", async () => {
    const other = createDb(url, { poolSize: 4 });
    try {
      const now = new Date();
      const w = { limit: 10, windowMs: MINUTE };
      const verdicts = await Promise.all(
        Array.from({ length: 40 }, (_, i) => hit(i % 2 ? db : other, "t:race", "same-key", w, now).catch((e) => e as Error)),
      );
      expect(verdicts.filter((v) => v instanceof Error)).toEqual([]);
      expect(verdicts.filter((v) => (v as Verdict).allowed)).toHaveLength(10);
      const attempts = await Promise.all(Array.from({ length: 20 }, (_, i) => backoff(i % 2 ? db : other, SIGN_IN_BACKOFF, "race", now)));
      expect(attempts.filter((v) => v.allowed)).toHaveLength(SIGN_IN_BACKOFF.free);
    } finally {
      await other.destroy();
    }
  });

  it("backs off exponentially: free attempts, then 1, 2, 4 minutes ... up to an hour; a quiet day forgets", async () => {
    const t0 = new Date("2030-02-01T00:00:00Z");
    let now = t0;
    for (let i = 0; i < SIGN_IN_BACKOFF.free; i++) expect((await backoff(db, SIGN_IN_BACKOFF, "b", now)).allowed).toBe(true);
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      const refused = await backoff(db, SIGN_IN_BACKOFF, "b", now);
      waits.push(wait(refused));
      now = at(now, wait(refused));
      expect((await backoff(db, SIGN_IN_BACKOFF, "b", now)).allowed).toBe(true);
    }
    expect(waits.map((w) => w / MINUTE)).toEqual([1, 2, 4, 8, 16, 32, 60, 60]);
    expect(backoffDelay(SIGN_IN_BACKOFF, SIGN_IN_BACKOFF.free + 20)).toBe(60 * MINUTE);
    const later = at(now, SIGN_IN_BACKOFF.forgetMs + 61 * MINUTE);
    for (let i = 0; i < SIGN_IN_BACKOFF.free; i++) expect((await backoff(db, SIGN_IN_BACKOFF, "b", later)).allowed).toBe(true);
    expect(await pruneRateLimits(db, at(later, 400 * 86_400_000))).toBeGreaterThan(0);
  });

  it("throttles an attacker's address on one account with a growing back-off, while the owner signs in from theirs", async () => {
    const t0 = new Date("2030-03-01T00:00:00Z");
    const attacker = "192.0.2.66";
    const owner = "198.51.100.8";
    const email = DEMO.business.email;
    const guess = (now: Date, pw = "guess") => signIn(db, { email, password: pw, ip: attacker }, now);
    for (let i = 0; i < 5; i++) expect(await guess(at(t0, i * 1000))).toEqual({ ok: false, code: "INVALID_CREDENTIALS" });
    const first = await guess(at(t0, 10_000));
    expect(first).toMatchObject({ ok: false, code: "TOO_MANY_ATTEMPTS" });
    // Even the right password waits: the address is throttled, not the account.
    expect(await signIn(db, { email, password: DEMO.password, ip: attacker }, at(t0, 11_000))).toMatchObject({ code: "TOO_MANY_ATTEMPTS" });
    expect(await signIn(db, { email, password: DEMO.password, ip: owner }, at(t0, 12_000))).toMatchObject({ ok: true });
    // The next wrong guess after the wait makes the next wait twice as long.
    const t1 = at(t0, 5_000 + MINUTE);
    expect(await guess(t1)).toEqual({ ok: false, code: "INVALID_CREDENTIALS" });
    const second = await guess(at(t1, 1000));
    expect(second).toMatchObject({ code: "TOO_MANY_ATTEMPTS" });
    expect((second as { retryAfterMs: number }).retryAfterMs).toBe(2 * MINUTE - 1000);
    const t2 = at(t1, 2 * MINUTE);
    await guess(t2);
    expect((await guess(at(t2, 1000))) as { retryAfterMs: number }).toMatchObject({ retryAfterMs: 4 * MINUTE - 1000 });
    expect(await signIn(db, { email, password: DEMO.password, ip: owner }, at(t2, 2000))).toMatchObject({ ok: true });
  });

  it("past the account's ceiling, new addresses are slowed to one try per 10 s; the owner's known address is not", async () => {
    const t0 = new Date("2030-04-01T00:00:00Z");
    const email = DEMO.member.email;
    expect(await signIn(db, { email, password: DEMO.password, ip: "198.51.100.9" }, t0)).toMatchObject({ ok: true });
    // A botnet: one wrong guess from each of many addresses.
    for (let i = 0; i < RULES.signInAccount.limit; i++)
      expect(await signIn(db, { email, password: "x", ip: `203.0.113.${100 + i}` }, at(t0, 1000 + i))).toMatchObject({
        code: "INVALID_CREDENTIALS",
      });
    const t1 = at(t0, 2000);
    expect(await signIn(db, { email, password: "x", ip: "203.0.113.200" }, t1)).toMatchObject({ code: "INVALID_CREDENTIALS" });
    const slowed = await signIn(db, { email, password: "x", ip: "203.0.113.201" }, at(t1, 3000));
    expect(slowed).toEqual({ ok: false, code: "TOO_MANY_ATTEMPTS", retryAfterMs: 7000 });
    // The owner from the address they signed in from before is not slowed; from a new one they wait seconds, not minutes.
    expect(await signIn(db, { email, password: DEMO.password, ip: "198.51.100.9" }, at(t1, 3500))).toMatchObject({ ok: true });
    expect(await signIn(db, { email, password: DEMO.password, ip: "198.51.100.10" }, at(t1, 4000))).toMatchObject({
      code: "TOO_MANY_ATTEMPTS",
      retryAfterMs: 6000,
    });
    expect(await signIn(db, { email, password: DEMO.password, ip: "198.51.100.10" }, at(t1, 10_000))).toMatchObject({ ok: true });
  });

  it("join pays for the password hash whether or not the e-mail is taken", async () => {
    const hash = vi.mocked(password.hashPassword);
    hash.mockClear();
    const free = await joinMarket(db, {
      email: "free@example.com",
      password: "long-enough",
      nickname: "a",
      marketEmailAgree: false,
      language: "en",
    });
    expect(free.ok).toBe(true);
    expect(hash).toHaveBeenCalledTimes(1);
    const taken = await joinMarket(db, {
      email: DEMO.member.email,
      password: "long-enough",
      nickname: "a",
      marketEmailAgree: false,
      language: "en",
    });
    expect(taken).toEqual({ ok: false, code: "EMAIL_TAKEN" });
    expect(hash).toHaveBeenCalledTimes(2);
  });

  it("licence linking runs the same queries and answers the same for a missing key, another e-mail and a member's licence", async () => {
    const member = await db.selectFrom("users").select("id").where("email", "=", DEMO.member.email).executeTakeFirstOrThrow();
    const b2bg = await db
      .selectFrom("licenses")
      .select(["serial", "email"])
      .where("serial", "=", DEMO.licenses.b2bg.serial)
      .executeTakeFirstOrThrow();
    const nonmember = DEMO.licenses.nonmember.serial;
    const run = async (serial: string, email: string, ip: string) => {
      const nodes: RootOperationNode[] = [];
      const recorder: KyselyPlugin = {
        transformQuery: (args) => {
          nodes.push(args.node);
          return args.node;
        },
        transformResult: async (args) => args.result,
      };
      const answer = await linkNonMemberLicense(
        db.withPlugin(recorder),
        member.id,
        { serial, email, ip },
        new Date("2030-05-01T00:00:00Z"),
      );
      return { answer, sql: nodes.map((n) => db.getExecutor().compileQuery(n, createQueryId()).sql) };
    };
    const missing = await run("VEDT-NOPE-0000", "guest@example.com", "192.0.2.1");
    const otherEmail = await run(nonmember, "someone@example.com", "192.0.2.2");
    const members = await run(b2bg.serial, b2bg.email, "192.0.2.3");
    expect(missing.answer).toEqual({ outcome: "NOT_FOUND" });
    expect(otherEmail).toEqual(missing);
    expect(members).toEqual(missing);
    expect(missing.sql.filter((q) => /licenses/.test(q))).toHaveLength(1);
  });
});
