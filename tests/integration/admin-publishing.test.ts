import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { findCoupon } from "../../app/market/orders/coupons.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { adminPost, signInOperator } from "../support/operator";

type Call = Awaited<ReturnType<typeof createTestApp>>;

/** A datetime-local value in Asia/Seoul, `hours` from now. */
const seoulLocal = (hours: number) => new Date(Date.now() + hours * 3600_000 + 9 * 3600_000).toISOString().slice(0, 16);
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 1, 2, 3]);

describe(`operator console: publishing and the promo coupon on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Call;
  let dataDir: string;
  let catalog: string;
  let finance: string;

  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    dataDir = t.dataDir;
    call = await createTestApp(db, { dataDir });
    catalog = await signInOperator(call, "catalog", "198.51.100.131");
    finance = await signInOperator(call, "finance", "198.51.100.132");
  });
  afterAll(async () => drop());

  const get = (p: string, cookie?: string, lang = "en") =>
    call(p, {
      headers: { ...(cookie ? { cookie: `${cookie}; lng=${lang}` } : { cookie: `lng=${lang}` }), "accept-language": lang },
      ip: "198.51.100.130",
    });
  const en = (cookie: string) => `${cookie}; lng=en`;
  const audit = (action: string) =>
    db.selectFrom("audit_log").selectAll().where("action", "=", action).orderBy("id", "desc").executeTakeFirst();

  it("lists what can be published and links to each page, the FAQ and the guide; support may not open it", async () => {
    const res = await get("/admin/publishing", catalog);
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const href of [
      "/admin/publishing/notices",
      "/admin/publishing/events",
      "/admin/publishing/keywords",
      "/admin/publishing/faq",
      "/admin/publishing/guide",
    ])
      expect(html).toContain(`href="${href}"`);
    expect(html).toContain("/admin/publishing/banners?kind=keyvisual");
    const support = await signInOperator(call, "support", "198.51.100.133");
    expect((await get("/admin/publishing", support)).status).toBe(403);
    expect((await get("/admin/coupons", catalog)).status).toBe(403);
  });

  it("previews a notice without saving it, then publishes it pinned: /notice lists it first, the audit has it", async () => {
    const before = await db
      .selectFrom("notices")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    const fields = {
      title_ko: "점검 안내 공지",
      title_en: "Maintenance notice for tonight",
      body_ko: "오늘 밤 점검이 있습니다.",
      body_en: "The store pauses tonight for maintenance.",
      published_at: seoulLocal(-1),
      pinned: "1",
    };
    const preview = await adminPost(call, en(catalog), "/admin/publishing/notices/new", { ...fields, intent: "preview" });
    expect(preview.status).toBe(200);
    const html = await preview.text();
    expect(html).toContain("Preview");
    expect(html).toContain("The store pauses tonight for maintenance.");
    const after = await db
      .selectFrom("notices")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    const saved = await adminPost(call, en(catalog), "/admin/publishing/notices/new", { ...fields, intent: "save" });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe("/admin/publishing/notices?saved=1");
    const row = await db.selectFrom("notices").selectAll().where("title_en", "=", fields.title_en).executeTakeFirstOrThrow();
    expect(row.pinned).toBe(1);
    const list = await (await get("/notice")).text();
    const first = list.indexOf("Maintenance notice for tonight");
    expect(first).toBeGreaterThan(0);
    // Pinned first: it comes before every other notice of the seed.
    const others = await db.selectFrom("notices").select("title_en").where("id", "<>", row.id).where("pinned", "=", 0).execute();
    for (const o of others) if (list.includes(o.title_en)) expect(list.indexOf(o.title_en)).toBeGreaterThan(first);
    expect(await (await get(`/notice/${row.id}`, undefined, "ko")).text()).toContain("오늘 밤 점검이 있습니다.");
    const line = await audit("notice.create");
    expect(line?.target_id).toBe(String(row.id));
    expect(JSON.parse(line?.after_json ?? "{}").title_en).toBe(fields.title_en);
    // Edited: the audit keeps before and after; a date ahead unpublishes it until then.
    const later = await adminPost(call, en(catalog), `/admin/publishing/notices/${row.id}`, {
      ...fields,
      published_at: seoulLocal(48),
      intent: "save",
    });
    expect(later.status).toBe(302);
    const upd = await audit("notice.update");
    expect(JSON.parse(upd?.before_json ?? "{}").published_at).toBe(row.published_at);
    expect((await get(`/notice/${row.id}`)).status).toBe(302);
  });

  it("refuses a notice without its English text or with a bad date, keeping what was typed (400)", async () => {
    const bad = await adminPost(call, en(catalog), "/admin/publishing/notices/new", {
      title_ko: "제목",
      title_en: "Kept title",
      body_ko: "본문",
      body_en: "",
      published_at: seoulLocal(0),
      intent: "save",
    });
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expect(html).toContain("Enter the text in Korean and in English.");
    expect(html).toContain('value="Kept title"');
    const date = await adminPost(call, en(catalog), "/admin/publishing/notices/new", {
      title_ko: "제목",
      title_en: "T",
      body_ko: "본문",
      body_en: "B",
      published_at: "2026-02-31T10:00",
    });
    expect(date.status).toBe(400);
    expect((await get("/admin/publishing/notices/abc", catalog)).status).toBe(404);
  });

  it("creates an event with a picture checked by its bytes and a coupon; a test event shows only in test mode", async () => {
    const form = (extra: Record<string, string>, file?: { bytes: Uint8Array; name: string }) => {
      const f = new FormData();
      const fields = {
        title_ko: "겨울 이벤트",
        title_en: "Winter event for editors",
        body_ko: "겨울 이벤트 본문",
        body_en: "Winter sale text",
        starts_at: seoulLocal(-2),
        ends_at: seoulLocal(72),
        coupon_code: "winter15",
        discount_percent: "15",
        ...extra,
      };
      for (const [k, v] of Object.entries(fields)) f.append(k, v);
      if (file) f.append("image", new Blob([Buffer.from(file.bytes)]), file.name);
      return f;
    };
    const post = (body: FormData) =>
      call("/admin/publishing/events/new", { method: "POST", headers: { cookie: en(catalog) }, body, ip: "198.51.100.134" });
    // A file named .png that is not one is refused by its bytes.
    const fake = await post(form({ intent: "preview" }, { bytes: new TextEncoder().encode("<svg></svg>"), name: "x.png" }));
    expect(fake.status).toBe(400);
    expect(await fake.text()).toContain("The picture must be a PNG or JPEG file.");
    const preview = await post(form({ intent: "preview" }, { bytes: PNG, name: "winter.png" }));
    expect(preview.status).toBe(200);
    const html = await preview.text();
    expect(html).toContain("Winter sale text");
    expect(html).toContain("WINTER15");
    const image = /\/media\/publishing\/[0-9a-f]{32}\.png/.exec(html)?.[0];
    expect(image).toBeTruthy();
    expect(fs.existsSync(path.join(dataDir, image as string))).toBe(true);
    expect(
      await db.selectFrom("events").select("id").where("title_en", "=", "Winter event for editors").executeTakeFirst(),
    ).toBeUndefined();
    const saved = await post(form({ intent: "save", image_path: image as string }));
    expect(saved.status).toBe(302);
    const row = await db.selectFrom("events").selectAll().where("title_en", "=", "Winter event for editors").executeTakeFirstOrThrow();
    expect(row.image_path).toBe(image);
    expect(row.coupon_code).toBe("WINTER15");
    const page = await (await get(`/event/${row.id}`)).text();
    expect(page).toContain("Winter sale text");
    expect(page).toContain("WINTER15");
    expect((await get("/api/v1/pboard/event?testYn=N")).status).toBe(200);
    expect(await findCoupon(db, "winter15")).toEqual({ code: "WINTER15", percent: 15 });
    expect((await audit("event.create"))?.target_id).toBe(String(row.id));
    // The same code on a second event is refused, with the form kept.
    const twice = await post(form({ intent: "save", title_en: "Second", coupon_code: "WINTER15" }));
    expect(twice.status).toBe(409);
    expect(await twice.text()).toContain("Another event already has this coupon code.");
    // A test event: not on /event, shown with testYn=Y in test mode (the test store runs the sandbox).
    const test = await post(form({ intent: "save", title_en: "Test-only event", coupon_code: "", discount_percent: "", test_only: "1" }));
    expect(test.status).toBe(302);
    const testRow = await db.selectFrom("events").selectAll().where("title_en", "=", "Test-only event").executeTakeFirstOrThrow();
    expect(testRow.test_only).toBe(1);
    expect((await get(`/event/${testRow.id}`)).status).toBe(302);
    expect((await get(`/event/${testRow.id}?testYn=Y`)).status).toBe(200);
    // A period that ends before it starts.
    const backwards = await post(
      form({ intent: "save", title_en: "Backwards", coupon_code: "", discount_percent: "", ends_at: seoulLocal(-5) }),
    );
    expect(backwards.status).toBe(400);
    expect(await backwards.text()).toContain("The end must come after the start.");
  });

  it("edits, orders, hides and shows banners and keywords; the storefront and the API follow", async () => {
    const api = async (p: string) =>
      ((await (await get(`/api/v1/${p}`)).json()) as { data: { list: { title?: string }[] | string[] } }).data.list;
    const banners = await db.selectFrom("banners").selectAll().where("page", "=", "video").orderBy("sort").execute();
    const key = banners.find((b) => b.kind === "keyvisual");
    expect(key).toBeTruthy();
    const id = key?.id as number;
    const fields = {
      page: "video",
      kind: "keyvisual",
      title_ko: "새 키 비주얼",
      title_en: "Fresh key visual",
      subtitle_ko: "부제",
      subtitle_en: "Sub",
      image_path: key?.image_path as string,
      link: "/price",
      visible: "1",
    };
    const evil = await adminPost(call, en(catalog), `/admin/publishing/banners/${id}`, {
      ...fields,
      link: "javascript:alert(1)",
      intent: "save",
    });
    expect(evil.status).toBe(400);
    const preview = await adminPost(call, en(catalog), `/admin/publishing/banners/${id}`, { ...fields, intent: "preview" });
    expect(await preview.text()).toContain("Fresh key visual");
    expect((await api("keyvisuals/video")).map((b) => (b as { title: string }).title)).not.toContain("Fresh key visual");
    expect((await adminPost(call, en(catalog), `/admin/publishing/banners/${id}`, { ...fields, intent: "save" })).status).toBe(302);
    expect((await api("keyvisuals/video")).map((b) => (b as { title: string }).title)).toContain("Fresh key visual");
    expect(await (await get("/video")).text()).toContain("Fresh key visual");
    expect(JSON.parse((await audit("banner.update"))?.before_json ?? "{}").title_en).toBe(key?.title_en);
    // Hide: gone from the page and the API, still in the console.
    expect((await adminPost(call, catalog, "/admin/publishing/banners", { intent: "hide", id: String(id) })).status).toBe(200);
    expect(await api("keyvisuals/video")).toHaveLength(0);
    expect(await (await get("/video")).text()).not.toContain("Fresh key visual");
    expect(await (await get("/admin/publishing/banners?page=video", en(catalog))).text()).toContain("Fresh key visual");
    expect((await audit("banner.hide"))?.target_id).toBe(String(id));
    await adminPost(call, catalog, "/admin/publishing/banners", { intent: "show", id: String(id) });
    expect(await api("keyvisuals/video")).toHaveLength(1);
    // A second key visual on the page, then moved above the first.
    const created = await adminPost(call, en(catalog), "/admin/publishing/banners/new", {
      ...fields,
      title_en: "Second visual",
      intent: "save",
    });
    expect(created.status).toBe(302);
    const second = await db.selectFrom("banners").select("id").where("title_en", "=", "Second visual").executeTakeFirstOrThrow();
    expect((await api("keyvisuals/video")).map((b) => (b as { title: string }).title)).toEqual(["Fresh key visual", "Second visual"]);
    await adminPost(call, catalog, "/admin/publishing/banners", { intent: "up", id: String(second.id) });
    expect((await api("keyvisuals/video")).map((b) => (b as { title: string }).title)).toEqual(["Second visual", "Fresh key visual"]);
    expect(JSON.parse((await audit("banner.move"))?.after_json ?? "{}").order).toEqual([second.id, id]);
    expect((await adminPost(call, catalog, "/admin/publishing/banners", { intent: "sideways", id: "x" })).status).toBe(400);

    // Keywords: add one to the audio page, move it first, hide it.
    const added = await adminPost(call, en(catalog), "/admin/publishing/keywords?page=audio", {
      intent: "create",
      page: "audio",
      keyword_ko: "겨울 노래",
      keyword_en: "winter song",
      visible: "1",
    });
    expect(added.status).toBe(200);
    expect((await api("keywords/audio")).at(-1)).toBe("winter song");
    const kw = await db.selectFrom("keywords").select("id").where("keyword_en", "=", "winter song").executeTakeFirstOrThrow();
    const count = (await api("keywords/audio")).length;
    for (let i = 0; i < count; i++) await adminPost(call, catalog, "/admin/publishing/keywords", { intent: "up", id: String(kw.id) });
    expect((await api("keywords/audio"))[0]).toBe("winter song");
    await adminPost(call, catalog, "/admin/publishing/keywords", { intent: "hide", id: String(kw.id) });
    expect(await api("keywords/audio")).not.toContain("winter song");
    expect((await audit("keyword.hide"))?.target_id).toBe(String(kw.id));
    const empty = await adminPost(call, en(catalog), "/admin/publishing/keywords", {
      intent: "create",
      page: "audio",
      keyword_ko: "",
      keyword_en: "x",
    });
    expect(empty.status).toBe(400);
  });

  it("edits the promo coupon at runtime: the pop-up shows the new code, a redeemed code cannot be renamed (one per ID)", async () => {
    const event = await db.selectFrom("events").selectAll().where("coupon_code", "=", "WELCOME20").executeTakeFirstOrThrow();
    const list = await get("/admin/coupons", en(finance));
    expect(list.status).toBe(200);
    expect(await list.text()).toContain("WELCOME20");
    // Started an hour ago: the latest-started running coupon, the one the pop-up shows.
    const fields = { code: "welcome25", percent: "25", starts_at: seoulLocal(-1), ends_at: seoulLocal(24 * 30) };
    const preview = await adminPost(call, en(finance), `/admin/coupons/${event.id}`, { ...fields, intent: "preview" });
    expect(preview.status).toBe(200);
    const html = await preview.text();
    expect(html).toContain("WELCOME25");
    expect(html).toContain("25% off");
    expect((await db.selectFrom("events").select("coupon_code").where("id", "=", event.id).executeTakeFirstOrThrow()).coupon_code).toBe(
      "WELCOME20",
    );
    const bad = await adminPost(call, en(finance), `/admin/coupons/${event.id}`, { ...fields, percent: "95", intent: "save" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("The discount is a whole number from 1 to 90.");
    expect((await adminPost(call, en(finance), `/admin/coupons/${event.id}`, { ...fields, intent: "save" })).status).toBe(302);
    expect(await findCoupon(db, "WELCOME25")).toEqual({ code: "WELCOME25", percent: 25 });
    expect(await findCoupon(db, "WELCOME20")).toBeNull();
    const popup = await (await get("/tempPop")).text();
    expect(popup).toContain("WELCOME25");
    const line = await audit("coupon.update");
    expect(JSON.parse(line?.before_json ?? "{}").coupon_code).toBe("WELCOME20");
    expect(JSON.parse(line?.after_json ?? "{}").coupon_code).toBe("WELCOME25");
    // A member redeems it (one row per member and code); renaming it now would give each member a second use.
    const user = await db.selectFrom("users").select("id").orderBy("id").executeTakeFirstOrThrow();
    const at = new Date().toISOString();
    const order = await db
      .insertInto("orders")
      .values({
        order_no: `MKT-CPN-${Date.now()}`,
        user_id: user.id,
        license_id: null,
        purchase_category: "member",
        status: "complete",
        method: "card",
        currency: "KRW",
        amount: 1000,
        vat: 100,
        total: 1100,
        cancel_quantity: 0,
        cancel_amount: 0,
        buyer_email: null,
        message: null,
        gateway: "sandbox",
        gateway_payment_id: null,
        vbank_due_at: null,
        idempotency_key: null,
        ptime: at,
        created_at: at,
        order_name: "Coupon order",
        coupon_code: "WELCOME25",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db.insertInto("coupon_redemptions").values({ user_id: user.id, code: "WELCOME25", order_id: order.id, created_at: at }).execute();
    const rename = await adminPost(call, en(finance), `/admin/coupons/${event.id}`, { ...fields, code: "WELCOME30", intent: "save" });
    expect(rename.status).toBe(409);
    expect(await rename.text()).toContain("Members have used this coupon");
    // The discount and period may still change.
    expect((await adminPost(call, en(finance), `/admin/coupons/${event.id}`, { ...fields, percent: "30", intent: "save" })).status).toBe(
      302,
    );
    expect(await findCoupon(db, "WELCOME25")).toEqual({ code: "WELCOME25", percent: 30 });
    expect((await get("/admin/coupons/999999", finance)).status).toBe(404);
  });
});
