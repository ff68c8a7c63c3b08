import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type DB } from "../../app/db/db.server";
import { MODES_TTL_MS } from "../../app/market/service-modes.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { adminPost, signInOperator } from "../support/operator";

type Call = Awaited<ReturnType<typeof createTestApp>>;

const NOTICE = "/pictures/service-stop-";
const NORMAL = 'id="best-video"';

/** The modes form as an operator would send it, over the defaults (normal home, store open, no window). */
const form = (fields: Record<string, string> = {}) => ({ home: "full", start: "", end: "", textKo: "", textEn: "", ...fields });

describe(`operator console: service modes switched at runtime across processes on ${ENGINE}`, () => {
  let db: DB;
  let db2: DB;
  let drop: () => Promise<void>;
  let a: Call;
  let b: Call;
  let cookie: string;

  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    // Two app instances over the same database, each with its own connection (as two server processes have): the
    // modes' in-process cache is per connection, so B only learns of A's switch by reading the database again.
    db2 = createDb(t.url, { poolSize: 2 });
    a = await createTestApp(db, { dataDir: t.dataDir });
    b = await createTestApp(db2, { dataDir: t.dataDir });
    cookie = await signInOperator(a, "admin", "198.51.100.171");
  });
  afterAll(async () => {
    await db2.destroy();
    await drop();
  });

  const page = (call: Call, path: string, lang: "ko" | "en" = "en") =>
    call(path, { headers: { "accept-language": lang, cookie: `lng=${lang}` }, ip: "203.0.113.71" });
  const post = (fields: Record<string, string>) => adminPost(a, cookie, "/admin/modes", fields, "198.51.100.171");
  const auditOf = (action: string) => db.selectFrom("audit_log").selectAll().where("action", "=", action).orderBy("id", "desc").execute();

  /** Polls `check` on instance B until it holds, for at most a few modes-cache lifetimes. */
  async function eventually(check: () => Promise<boolean>) {
    const until = Date.now() + MODES_TTL_MS * 4;
    for (;;) {
      if (await check()) return;
      if (Date.now() > until) throw new Error("instance B never saw the switch");
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it("lets only administrators reach the modes; another role's post changes nothing", async () => {
    const support = await signInOperator(a, "support", "198.51.100.172");
    expect((await a("/admin/modes", { headers: { cookie: support }, ip: "198.51.100.172" })).status).toBe(403);
    const refused = await adminPost(a, support, "/admin/modes", form({ home: "service-stop" }), "198.51.100.172");
    expect(refused.status).toBe(403);
    expect((await page(a, "/")).status).toBe(200);
    expect(await (await page(a, "/")).text()).toContain(NORMAL);
    expect(await auditOf("mode.home")).toHaveLength(0);
  });

  it("saves the form as the page fills it (the stored window, the seed's) without an audit line: nothing changed", async () => {
    const stored = await db.selectFrom("settings").select("value").where("key", "=", "maintenance_window").executeTakeFirstOrThrow();
    expect(stored.value).toBe("2021-06-19T15:00:00Z/2021-06-19T21:00:00Z");
    const shown = await (await a("/admin/modes", { headers: { cookie, "accept-language": "en" }, ip: "198.51.100.171" })).text();
    const value = (name: string) => shown.match(new RegExp(`name="${name}"[^>]*value="([^"]*)"`))?.[1] ?? "";
    expect([value("start"), value("end")]).toEqual(["2021-06-20T00:00", "2021-06-20T06:00"]);
    const res = await post(form({ start: value("start"), end: value("end") }));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Nothing changed.");
    const modeLines = await db.selectFrom("audit_log").select("action").where("action", "like", "mode.%").execute();
    expect(modeLines).toEqual([]);
  });

  it("switches the home to the service-stop notice and back, seen by both instances, each switch audited", async () => {
    expect(await (await page(b, "/")).text()).toContain(NORMAL); // B has read (and cached) the normal mode
    const shown = await a("/admin/modes", { headers: { cookie, "accept-language": "en" }, ip: "198.51.100.171" });
    expect(shown.status).toBe(200);

    const res = await post(form({ home: "service-stop" }));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("The modes are saved.");
    // The switching instance sees it at once; the other within its cache's lifetime, with no restart.
    const home = await (await page(a, "/")).text();
    expect(home).toContain(NOTICE);
    expect(home).not.toContain(NORMAL);
    await eventually(async () => (await (await page(b, "/")).text()).includes(NOTICE));
    // Other pages stay open.
    expect((await page(b, "/notice")).status).toBe(200);
    const [line] = await auditOf("mode.home");
    expect(line).toMatchObject({ target_type: "service_mode", target_id: "home", before_json: '"full"', after_json: '"service-stop"' });
    expect(line.operator_email).toBe("operator@example.com");

    expect((await post(form({ home: "full" }))).status).toBe(200);
    expect(await (await page(a, "/")).text()).toContain(NORMAL);
    await eventually(async () => (await (await page(b, "/")).text()).includes(NORMAL));
    expect(await auditOf("mode.home")).toHaveLength(2);

    // Saving the same modes again changes and logs nothing.
    const same = await post(form({ home: "full" }));
    expect(await same.text()).toContain("Nothing changed.");
    expect(await auditOf("mode.home")).toHaveLength(2);
  });

  it("closes the store for inspection with the window's times and text, keeps the console open, and the API answers 503", async () => {
    const res = await post(
      form({
        inspection: "on",
        start: "2026-12-01T02:00",
        end: "2026-12-01T06:30",
        textKo: "서버 교체 작업 중입니다.",
        textEn: "We are replacing servers.",
      }),
    );
    expect(res.status).toBe(200);
    for (const call of [a, b]) {
      await eventually(async () => (await page(call, "/video")).headers.get("location") === "/servicecheck");
      expect((await page(call, "/")).headers.get("location")).toBe("/servicecheck");
      expect((await page(call, "/mypage/sw/home")).headers.get("location")).toBe("/servicecheck");
      expect((await page(call, "/mypage/home")).headers.get("location")).toBe("/servicecheck");
    }
    const en = await page(b, "/servicecheck", "en");
    expect(en.status).toBe(503);
    const enHtml = await en.text();
    expect(enHtml).toContain("We are replacing servers.");
    expect(enHtml).not.toContain("서버 교체 작업 중입니다.");
    // 02:00 to 06:30 in Seoul, as entered.
    expect(enHtml).toMatch(/2:00/);
    expect(enHtml).toMatch(/6:30/);
    expect(await (await page(b, "/servicecheck", "ko")).text()).toContain("서버 교체 작업 중입니다.");
    const stored = await db.selectFrom("settings").select("value").where("key", "=", "maintenance_window").executeTakeFirstOrThrow();
    expect(stored.value).toBe("2026-11-30T17:00:00.000Z/2026-11-30T21:30:00.000Z");

    // The console stays open (an operator must be able to switch it back).
    expect((await a("/admin/modes", { headers: { cookie }, ip: "198.51.100.171" })).status).toBe(200);
    const api = await b("/api/v1/carts/count", { ip: "203.0.113.71" });
    expect(api.status).toBe(503);
    const body = (await api.json()) as { result: { code: number }; data: { error: string } };
    expect(body.result.code).toBe(503);
    expect(body.data.error).toBe("SERVICE_INSPECTION");
    expect((await b("/api/v1/health", { ip: "203.0.113.71" })).status).toBe(200);

    const [inspection] = await auditOf("mode.inspection");
    expect(inspection).toMatchObject({ before_json: "false", after_json: "true" });
    const [window] = await auditOf("mode.window");
    expect(JSON.parse(window.after_json ?? "{}")).toMatchObject({ text: { en: "We are replacing servers." } });
  });

  it("shows the error-service page (over inspection) and opens the store again", async () => {
    expect((await post(form({ inspection: "on", errorService: "on", start: "2026-12-01T02:00", end: "2026-12-01T06:30" }))).status).toBe(
      200,
    );
    await eventually(async () => (await page(b, "/")).headers.get("location") === "/errorservice");
    const err = await page(b, "/errorservice");
    expect(err.status).toBe(503);
    const api = (await (await b("/api/v1/carts/count", { ip: "203.0.113.71" })).json()) as { data: { error: string } };
    expect(api.data.error).toBe("SERVICE_ERROR");
    const [line] = await auditOf("mode.error_service");
    expect(line).toMatchObject({ before_json: "false", after_json: "true" });

    expect((await post(form())).status).toBe(200);
    await eventually(async () => (await page(b, "/")).status === 200);
    expect(await (await page(a, "/")).text()).toContain(NORMAL);
    expect((await b("/api/v1/carts/count", { ip: "203.0.113.71" })).status).toBe(200);
    // The window was cleared with the times left empty.
    expect(await db.selectFrom("settings").select("value").where("key", "=", "maintenance_window").executeTakeFirst()).toBeUndefined();
  });

  it("refuses bad input with a clear message, keeps what was typed, and changes nothing", async () => {
    const before = await db
      .selectFrom("audit_log")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    const order = await a("/admin/modes", {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded", "accept-language": "en" },
      body: new URLSearchParams(form({ home: "service-stop", start: "2026-12-01T06:00", end: "2026-12-01T05:00", textEn: "Kept text" })),
      ip: "198.51.100.171",
    });
    expect(order.status).toBe(400);
    const html = await order.text();
    expect(html).toContain("The window must end after it starts.");
    expect(html).toContain("Kept text");
    expect(html).toContain('value="2026-12-01T06:00"');
    for (const bad of [
      form({ home: "everything" }),
      form({ start: "2026-12-01T02:00" }),
      form({ start: "tomorrow", end: "2026-12-01T05:00" }),
      form({ inspection: "yes" }),
      form({ textKo: "가".repeat(501) }),
    ])
      expect((await post(bad)).status).toBe(400);
    const after = await db
      .selectFrom("audit_log")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    expect(await (await page(a, "/")).text()).toContain(NORMAL);
  });
});
