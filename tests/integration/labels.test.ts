/**
 * Issue 26, points 5 and 6: labels that tell the truth (a pass's status from one rule on every door, where an expired
 * download came from and when it ended, a pass line's period of use and its checkbox's name, no period for a
 * cancelled line) and times that say their zone (deadlines and order times on pages, on the quote and in mail).
 */

import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { DEMO_REQUESTS } from "../../app/db/seed/requests";
import { fixedT } from "../../app/i18n/i18n.server";
import type { SandboxGateway } from "../../app/integrations/payments/sandbox.server";
import { placeOrder } from "../../app/market/orders/orders.server";
import { passState } from "../../app/market/pass-status";
import { memberSummary } from "../../app/market/users/summary.server";
import { seoulText } from "../../app/utils/dates";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { newShopper } from "../support/shopper";

const DAY = 86_400_000;
const LANGS = ["en", "ko"] as const;
type Lang = (typeof LANGS)[number];
/** The zone a shown time carries (docs/decisions.md 2026-11-28). */
const ZONE = { en: "(KST)", ko: "(한국 시간)" } as const;
const esc = (s: string) =>
  s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#x27;");
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();
const ahead = (days: number) => new Date(Date.now() + days * DAY).toISOString();

type Shopper = Awaited<ReturnType<typeof newShopper>>;

describe(`labels and time zones on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Awaited<ReturnType<typeof createTestApp>>;
  let sandbox: SandboxGateway;
  let items: { id: number; title_en: string; title_ko: string }[];
  let videoPass: { id: number; valid_days: number; contents_count: number };
  let next = 0;
  const take = () => items[next++];

  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    call = await createTestApp(db, { dataDir: t.dataDir });
    sandbox = call.payments.sandbox as SandboxGateway;
    items = await db
      .selectFrom("contents")
      .select(["id", "title_en", "title_ko"])
      .where("price_type", "=", "paid")
      .where("status", "=", "active")
      .where("contents_type", "in", ["video", "icon", "audio"])
      .where("file_path", "is not", null)
      .orderBy("id")
      .limit(20)
      .execute();
    videoPass = await db
      .selectFrom("pass_prices")
      .select(["id", "valid_days", "contents_count"])
      .where("contents_flag", "=", 2)
      .where("contents_count", "=", 5)
      .executeTakeFirstOrThrow();
  });
  afterAll(async () => {
    await sandbox.settled();
    await drop();
  });

  /** Places an order for the shopper's licence and lets the sandbox approve it (a virtual account stays waiting). */
  async function buy(s: Shopper, lines: { kind: "content" | "pass"; id: number }[], method: "card" | "vbank", key: string) {
    const placed = await placeOrder(db, call.payments, {
      buyer: { id: s.userId, userType: 1, email: s.email },
      items: lines,
      license: { licenseId: s.licenseId },
      method,
      locale: "ko",
      idempotencyKey: `${s.userId}:labels-${key}`,
      origin: "http://store.test",
    });
    await sandbox.act(placed.orderNo, "approve");
    await sandbox.settled();
    return db.selectFrom("orders").selectAll().where("order_no", "=", placed.orderNo).executeTakeFirstOrThrow();
  }

  const html = async (path: string, lang: Lang, headers: Record<string, string>) => {
    const res = await call(path, { headers: { "accept-language": lang, ...headers } });
    expect(res.status, `${path} (${lang})`).toBe(200);
    return (await res.text()).replaceAll("<!-- -->", "");
  };
  /** The rows of a page's tables, each as its cells' inner HTML. */
  const rows = (page: string) =>
    [...page.matchAll(/<tr[^>]*>(.*?)<\/tr>/gs)].map((m) => [...m[1].matchAll(/<td[^>]*>(.*?)<\/td>/gs)].map((c) => c[1]));
  const rowWith = (page: string, text: string) => {
    const found = rows(page).filter((cells) => cells.some((c) => c.includes(text)));
    expect(found, `one row with ${text}`).toHaveLength(1);
    return found[0];
  };

  it("says a pass's status by one rule on the website, the webview, the home count and the API", async () => {
    const s = await newShopper(db);
    const order = await buy(s, [{ kind: "pass", id: videoPass.id }], "card", "pass");
    const bought = await db.selectFrom("passes").selectAll().where("user_id", "=", s.userId).executeTakeFirstOrThrow();
    await db.updateTable("passes").set({ remaining: 3 }).where("id", "=", bought.id).execute();
    expect(order.status).toBe("complete");
    const add = (v: { remaining: number; status?: string; purchased: string; expires: string }) =>
      db
        .insertInto("passes")
        .values({
          user_id: s.userId,
          license_id: s.licenseId,
          order_item_id: null,
          pass_price_id: videoPass.id,
          remaining: v.remaining,
          total: 5,
          status: v.status ?? "available",
          purchased_at: v.purchased,
          expires_at: v.expires,
        })
        .returning("id")
        .executeTakeFirstOrThrow()
        .then((r) => r.id);
    // 0 left, valid for two more months: used up, not expired.
    const usedUp = await add({ remaining: 0, purchased: ago(30), expires: ahead(60) });
    const expired = await add({ remaining: 2, purchased: ago(91), expires: ago(1) });
    // Both used up and past its end: the end decides (pass-status.ts).
    const both = await add({ remaining: 0, purchased: ago(92), expires: ago(2) });
    const cancelled = await add({ remaining: 5, status: "unavailable", purchased: ago(3), expires: ahead(87) });
    const want: Record<number, string> = {
      [bought.id]: "available",
      [usedUp]: "used_up",
      [expired]: "expired",
      [both]: "expired",
      [cancelled]: "unavailable",
    };
    const stored = await db.selectFrom("passes").selectAll().where("user_id", "=", s.userId).execute();
    const now = new Date();
    for (const p of stored)
      expect(passState({ status: p.status, remaining: p.remaining, expiresAt: p.expires_at }, now), `pass ${p.id}`).toBe(want[p.id]);

    // The API: every pass with its status, and the used-up filter.
    const api = async (query: string) => {
      const res = await call(`/api/v1/users/passes${query}`, { headers: { authorizationToken: s.token } });
      expect(res.status).toBe(200);
      return ((await res.json()) as { data: { list: { id: number; status: string }[] } }).data.list;
    };
    expect(Object.fromEntries((await api("")).map((p) => [p.id, p.status]))).toEqual(want);
    expect((await api("?status=used_up")).map((p) => p.id)).toEqual([usedUp]);
    expect((await api("?status=expired")).map((p) => p.id).sort()).toEqual([expired, both].sort());

    // My page home counts the passes that can be used: the available one only.
    expect((await memberSummary(db, s.userId, "en")).activePasses).toBe(1);

    for (const lang of LANGS) {
      const t = fixedT(lang);
      const member = { cookie: s.jar.header };
      const until = (id: number) => seoulText(stored.find((p) => p.id === id)?.expires_at, lang, "until");
      // ?status=all lists every pass, each with its own status and a zoned end.
      const all = await html("/mypage/passes?status=all", lang, member);
      for (const [id, status] of Object.entries(want)) {
        const row = rowWith(all, until(Number(id)));
        expect(row[2], `pass ${id} in ${lang}`).toBe(t(`passes.state.${status}`));
        expect(row[4]).toContain(ZONE[lang]);
      }
      expect(rows(await html("/mypage/passes?status=1", lang, member)).filter((r) => r.length)).toHaveLength(5);
      // The default (available) and the used-up tab, by code and by name.
      const available = rows(await html("/mypage/passes", lang, member)).filter((r) => r.length);
      expect(available.map((r) => r[2])).toEqual([t("passes.state.available")]);
      for (const q of ["5", "used_up"]) {
        const listed = rows(await html(`/mypage/passes?status=${q}`, lang, member)).filter((r) => r.length);
        expect(listed.map((r) => [r[1], r[2]])).toEqual([["0 / 5", t("passes.state.used_up")]]);
      }
      expect(rows(await html("/mypage/passes?status=expired", lang, member)).filter((r) => r.length)).toHaveLength(2);

      // The download pages (website and the editor's webview) say the used-up pass is used up, with its end.
      const group = t("price.group.video");
      const usedUpLine = t("download.passUsedUp", { group, total: 5, date: until(usedUp) });
      const leftLine = t("download.passLeft", { group, remaining: 3, total: 5, date: until(bought.id) });
      const site = await html("/mypage/download", lang, member);
      const webview = await html("/mypage/sw/download", lang, { license_id: s.serial, hw_info: s.hwInfo });
      for (const page of [site, webview]) {
        expect(page).toContain(esc(usedUpLine));
        expect(page).toContain(esc(leftLine));
        expect(page).not.toContain(esc(t("download.passLeft", { group, remaining: 0, total: 5, date: until(usedUp) })));
      }
    }
    expect(fixedT("en")("passes.state.used_up")).toBe("Used up");
  });

  it("says where an expired download came from and when it expired, on the website, the webview and the API", async () => {
    const s = await newShopper(db);
    const [a, b, c, d] = [take(), take(), take(), take()];
    const first = await buy(
      s,
      [a, b].map((i) => ({ kind: "content" as const, id: i.id })),
      "card",
      "dl-1",
    );
    const second = await buy(s, [{ kind: "content", id: c.id }], "card", "dl-2");
    // The second order stands for a purchase request paid for this key by the business.
    await db.updateTable("orders").set({ purchase_category: "request" }).where("id", "=", second.id).execute();
    const endedA = ago(3);
    const endedC = ago(5);
    await db
      .updateTable("order_items")
      .set({ expires_at: endedA })
      .where("order_id", "=", first.id)
      .where("content_id", "=", a.id)
      .execute();
    await db.updateTable("order_items").set({ expires_at: endedC }).where("order_id", "=", second.id).execute();
    const heldB = (
      await db
        .selectFrom("order_items")
        .select("expires_at")
        .where("order_id", "=", first.id)
        .where("content_id", "=", b.id)
        .executeTakeFirstOrThrow()
    ).expires_at as string;
    // D was taken with a pass whose period is over.
    const pass = await db
      .insertInto("passes")
      .values({
        user_id: s.userId,
        license_id: s.licenseId,
        order_item_id: null,
        pass_price_id: videoPass.id,
        remaining: 4,
        total: 5,
        status: "available",
        purchased_at: ago(100),
        expires_at: ago(10),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const endedD = ago(10);
    await db
      .insertInto("downloads")
      .values({
        content_id: d.id,
        license_id: s.licenseId,
        user_id: s.userId,
        order_item_id: null,
        pass_id: pass.id,
        kind: "pass",
        created_at: ago(50),
        expires_at: endedD,
        request_id: null,
      })
      .execute();

    const res = await call("/api/v1/users/downloads", { headers: { license_id: s.serial, hw_info: s.hwInfo } });
    expect(res.status).toBe(200);
    const list = (
      (await res.json()) as { data: { list: { content_id: number; contentId: number; source: string; until: string; expired: boolean }[] } }
    ).data.list;
    const byId = (id: number) => list.find((i) => (i.contentId ?? i.content_id) === id);
    expect(byId(a.id)).toMatchObject({ source: "purchase", until: endedA, expired: true });
    expect(byId(b.id)).toMatchObject({ source: "purchase", until: heldB, expired: false });
    expect(byId(c.id)).toMatchObject({ source: "request", until: endedC, expired: true });
    expect(byId(d.id)).toMatchObject({ source: "pass", until: endedD, expired: true });

    for (const lang of LANGS) {
      const t = fixedT(lang);
      const title = (i: typeof a) => esc(lang === "en" ? i.title_en : i.title_ko);
      const site = await html("/mypage/download", lang, { cookie: s.jar.header });
      const webview = await html("/mypage/sw/download", lang, { license_id: s.serial, hw_info: s.hwInfo });
      for (const page of [site, webview]) {
        const expect_ = (i: typeof a, source: string, when: string) => {
          const row = rowWith(page, title(i));
          expect(row[2], `${i.id} ${lang}`).toBe(esc(t(`download.sourceKind.${source}`)));
          expect(row[3], `${i.id} ${lang}`).toBe(esc(when));
        };
        expect_(a, "purchase", t("download.expiredOn", { date: seoulText(endedA, lang, "until") }));
        expect_(c, "request", t("download.expiredOn", { date: seoulText(endedC, lang, "until") }));
        expect_(d, "pass", t("download.expiredOn", { date: seoulText(endedD, lang, "until") }));
        expect_(b, "purchase", seoulText(heldB, lang, "until"));
        expect(
          rows(page)
            .flat()
            .filter((cell) => cell.includes("()")),
        ).toEqual([]);
        expect(page).toContain(ZONE[lang]);
      }
    }
    expect(fixedT("en")("download.expiredOn", { date: "Nov 1, 2026 (KST)" })).toBe("Expired Nov 1, 2026 (KST)");
  });

  it("gives a pass line its period and a named checkbox, a cancelled line no period, and zones the payment page", async () => {
    const s = await newShopper(db);
    const x = take();
    const order = await buy(
      s,
      [
        { kind: "content", id: x.id },
        { kind: "pass", id: videoPass.id },
      ],
      "card",
      "pay",
    );
    const lines = await db.selectFrom("order_items").selectAll().where("order_id", "=", order.id).orderBy("id").execute();
    const passLine = lines.find((l) => l.pass_price_id !== null);
    const contentLine = lines.find((l) => l.content_id === x.id);
    const pass = await db
      .selectFrom("passes")
      .selectAll()
      .where("order_item_id", "=", passLine?.id ?? 0)
      .executeTakeFirstOrThrow();
    // The pass's end is its valid days (spec sections 3 and 9) from the payment.
    expect(Date.parse(pass.expires_at) - Date.parse(order.ptime as string)).toBe(videoPass.valid_days * DAY);
    const member = { cookie: s.jar.header };

    for (const lang of LANGS) {
      const t = fixedT(lang);
      const page = await html(`/mypage/pay/${order.id}`, lang, member);
      const passName = t("pay.passTitle", { group: t("price.group.video"), count: videoPass.contents_count });
      const row = rowWith(page, `value="${passLine?.id}"`);
      expect(row[0]).toContain(`aria-label="${esc(t("orders.selectLine", { title: passName }))}"`);
      expect(row[4]).toBe(esc(seoulText(pass.expires_at, lang)));
      expect(row[4]).toContain(ZONE[lang]);
      // The payment time says its zone too.
      expect(page).toContain(esc(seoulText(order.ptime, lang)));
    }
    expect(fixedT("en")("orders.selectLine", { title: "Video pass · 5" })).toBe("Select Video pass · 5");

    // Cancel the content line: it keeps no period of use.
    const cancel = await call(`/mypage/pay/${order.id}`, {
      method: "POST",
      body: new URLSearchParams({ reason: "Bought by mistake", line: String(contentLine?.id) }),
      headers: { "accept-language": "en", cookie: s.jar.header, "content-type": "application/x-www-form-urlencoded" },
    });
    expect(cancel.status).toBe(200);
    await sandbox.settled();
    expect(
      (
        await db
          .selectFrom("order_items")
          .select("status")
          .where("id", "=", contentLine?.id ?? 0)
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe("cancelled");
    for (const lang of LANGS) {
      const page = await html(`/mypage/pay/${order.id}`, lang, member);
      const row = rowWith(page, esc(lang === "en" ? x.title_en : x.title_ko));
      expect(row[3]).toContain(esc(fixedT(lang)("orders.lineCancelled")));
      expect(row[4]).toBe("—");
      // The detail API answers the same: no period for the cancelled line, the pass's end for the pass line.
      const res = await call(`/api/v1/users/orders/${order.id}`, { headers: { authorizationToken: s.token, language: lang } });
      const detail = (await res.json()) as { data: { lines: { id: number; expires_at: string | null }[] } };
      expect(Object.fromEntries(detail.data.lines.map((l) => [l.id, l.expires_at]))).toEqual({
        [contentLine?.id ?? 0]: null,
        [passLine?.id ?? 0]: pass.expires_at,
      });
    }
  });

  it("says the zone of the deposit deadline on the page and in the mail, and the period of lines not yet paid", async () => {
    for (const lang of LANGS) {
      const s = await newShopper(db);
      await db.updateTable("users").set({ language: lang }).where("id", "=", s.userId).execute();
      const order = await buy(
        s,
        [
          { kind: "content", id: take().id },
          { kind: "pass", id: videoPass.id },
        ],
        "vbank",
        `vbank-${lang}`,
      );
      expect(order.status).toBe("waiting");
      const t = fixedT(lang);
      const page = await html(`/mypage/pay/${order.id}`, lang, { cookie: s.jar.header });
      const due = seoulText(order.vbank_due_at, lang);
      expect(due).toContain(ZONE[lang]);
      expect(page).toContain(esc(due));
      expect(page).toContain(esc(t("orders.daysFromPayment", { count: 90 })));
      expect(page).toContain(esc(t("orders.daysFromPayment", { count: videoPass.valid_days })));
      const mail = await db
        .selectFrom("mail_outbox")
        .selectAll()
        .where("to_address", "=", s.email)
        .where("kind", "=", "vbank")
        .executeTakeFirstOrThrow();
      const mailLang = mail.language === "en" ? "en" : "ko";
      expect(mail.body_text).toContain(seoulText(order.vbank_due_at, mailLang, "long"));
      expect(mail.body_text).toContain(ZONE[mailLang]);
      expect(mail.body_text).not.toContain("(Korea time)");
      if (mailLang === lang) expect(mail.body_text).toContain(ZONE[lang]);
    }
    expect((await db.selectFrom("mail_outbox").select("language").where("kind", "=", "vbank").execute()).map((m) => m.language)).toEqual(
      expect.arrayContaining(["en", "ko"]),
    );
  });

  it("says the zone of order times and of the quote's validity", async () => {
    const s = await newShopper(db);
    const order = await buy(s, [{ kind: "content", id: take().id }], "card", "history");
    const row = await db
      .selectFrom("purchase_requests")
      .select("expires_at")
      .where("quote_token_hash", "=", createHash("sha256").update(DEMO_REQUESTS.quotes.waiting).digest("hex"))
      .executeTakeFirstOrThrow();
    for (const lang of LANGS) {
      const history = await html("/mypage/pay", lang, { cookie: s.jar.header });
      expect(history).toContain(esc(seoulText(order.ptime, lang)));
      expect(history).toContain(ZONE[lang]);
      const quote = await html(`/mypage/estimate?token=${DEMO_REQUESTS.quotes.waiting}`, lang, {});
      const valid = seoulText(row.expires_at, lang);
      expect(valid.endsWith(ZONE[lang])).toBe(true);
      expect(quote).toContain(esc(fixedT(lang)("estimate.validNote", { date: valid })));
    }
  });
});
