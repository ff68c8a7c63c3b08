import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { DEMO } from "../../app/db/seed/index.server";
import type { SandboxGateway } from "../../app/integrations/payments/sandbox.server";
import { createBridge, resolveFileLink } from "../../app/market/downloads/downloads.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { EditorSimulator } from "../support/editor";
import { ENGINE } from "../support/engine";
import { newShopper } from "../support/shopper";

describe(`downloads into the editor on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let dataDir: string;
  let call: Awaited<ReturnType<typeof createTestApp>>;
  let sandbox: SandboxGateway;
  type Row = { id: number; code: string; contents_type: string; contents_type_sub: number | null; file_path: string | null };
  let paid: Row[];
  let next = 0;
  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    dataDir = t.dataDir;
    call = await createTestApp(db, { dataDir });
    sandbox = call.payments.sandbox as SandboxGateway;
    paid = await db
      .selectFrom("contents")
      .select(["id", "code", "contents_type", "contents_type_sub", "file_path"])
      .where("price_type", "=", "paid")
      .where("status", "=", "active")
      .where("contents_type", "in", ["video", "icon", "audio"])
      .where("file_path", "is not", null)
      .orderBy("id")
      .execute();
  });
  afterAll(async () => {
    await sandbox.settled();
    await drop();
  });

  /** A member whose licence bought these items (through the payments API and the sandbox). */
  async function buyer(items: { kind: "content" | "pass"; id: number }[]) {
    const s = await newShopper(db);
    const res = await call("/api/v1/payments", {
      method: "POST",
      body: JSON.stringify({
        items,
        license_id: s.licenseId,
        method: "card",
        agree_terms: true,
        agree_paid: true,
        idempotency_key: `download-${s.userId}`,
      }),
      headers: { authorizationToken: s.token, "content-type": "application/json" },
    });
    const body = (await res.json()) as { result: { message: string }; data: { order_no: string } };
    expect(res.status, body.result.message).toBe(200);
    const orderNo = body.data.order_no;
    await sandbox.act(orderNo, "approve");
    await sandbox.settled();
    const order = await db.selectFrom("orders").selectAll().where("order_no", "=", orderNo).executeTakeFirstOrThrow();
    expect(order.status).toBe("complete");
    return { s, order, editor: new EditorSimulator(call, s.serial, s.hwInfo) };
  }
  const take = (n: number, type?: string) => {
    const pool = type ? paid.filter((p) => p.contents_type === type) : paid;
    const out = pool.slice(next, next + n);
    next += n;
    return out;
  };

  it("identifies the installation, lists what it holds, and downloads purchases through signed, resumable links", async () => {
    const items = take(2);
    const { s, order, editor } = await buyer(items.map((i) => ({ kind: "content" as const, id: i.id })));
    const who = await editor.identify();
    expect(who.json.data).toMatchObject({
      license_id: s.serial,
      update_required: false,
      minimum_version: "2.0.4.7.0",
      market_member: true,
    });
    const library = await editor.library();
    expect(library.json.data.list.map((i: { code: string }) => i.code).sort()).toEqual(items.map((i) => i.code).sort());
    expect((await editor.overlap([items[0].code, paid[150].code])).json.data.list).toEqual([
      { item_code: items[0].code, owned: true },
      { item_code: paid[150].code, owned: false },
    ]);

    const got = await editor.download(items.map((i) => i.code));
    expect(got.status).toBe(200);
    expect(got.json.data.granted).toHaveLength(2);
    const file = got.json.data.granted[0] as { url: string; content_id: number; filename: string };
    const source = items.find((i) => i.id === file.content_id) as Row;
    const original = fs.readFileSync(path.join(dataDir, "storage", source.file_path as string));
    const whole = await editor.fetchFile(file.url);
    expect(whole.status).toBe(200);
    expect(whole.body.equals(original)).toBe(true);
    expect(whole.headers.get("content-disposition")).toContain(file.filename);
    expect(whole.headers.get("content-type")).toMatch(/^(video\/mp4|image\/svg\+xml|audio\/wav)/);
    const part = await editor.fetchFile(file.url, "bytes=10-19");
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 10-19/${original.length}`);
    expect(part.body.equals(original.subarray(10, 20))).toBe(true);
    expect((await editor.fetchFile(file.url, `bytes=${original.length + 5}-`)).status).toBe(416);
    // The link dies after 10 minutes; a made-up one never worked.
    const token = file.url.split("/").pop() as string;
    expect(await resolveFileLink(db, token, new Date(Date.now() + 11 * 60_000))).toBeNull();
    expect((await editor.fetchFile("/files/not-a-real-token-0000000000")).status).toBe(410);

    // Downloaded: the purchase can no longer be cancelled; downloading again costs nothing.
    const lines = await db.selectFrom("order_items").select("first_downloaded_at").where("order_id", "=", order.id).execute();
    expect(lines.every((l) => l.first_downloaded_at)).toBe(true);
    expect((await editor.download([items[0].code])).json.data.granted).toHaveLength(1);
    void s;
  });

  it("deducts a pass exactly once per item, even when asked again or twenty times at once", async () => {
    const pass = await db
      .selectFrom("pass_prices")
      .selectAll()
      .where("contents_flag", "=", 2)
      .where("contents_count", "=", 5)
      .executeTakeFirstOrThrow();
    const { editor, s } = await buyer([{ kind: "pass", id: pass.id }]);
    const passRow = await db.selectFrom("passes").selectAll().where("user_id", "=", s.userId).executeTakeFirstOrThrow();
    const videos = take(6, "video");
    const remaining = async () =>
      (await db.selectFrom("passes").select("remaining").where("id", "=", passRow.id).executeTakeFirstOrThrow()).remaining;

    const first = await editor.download([videos[0].code], "pass", passRow.id);
    expect(first.json.data.granted[0]).toMatchObject({ deducted: true });
    expect(await remaining()).toBe(4);
    const again = await editor.download([videos[0].code], "pass", passRow.id);
    expect(again.json.data.granted[0]).toMatchObject({ deducted: false });
    expect(await remaining()).toBe(4);
    await Promise.all(Array.from({ length: 20 }, () => editor.download([videos[1].code], "pass", passRow.id)));
    expect(await remaining()).toBe(3);
    await editor.download(
      videos.slice(2, 5).map((v) => v.code),
      "pass",
      passRow.id,
    );
    expect(await remaining()).toBe(0);
    const empty = await editor.download([videos[5].code], "pass", passRow.id);
    expect(empty.json.data).toMatchObject({ state: "ERROR", messages: ["no_remaining", "nothing_available"] });
    expect(await remaining()).toBe(0);
    // An icon is not covered by a video pass.
    expect((await editor.download([take(1, "icon")[0].code], "pass", passRow.id)).json.data.skipped[0].reason).toBe("not_covered");
    // Held via the pass: downloads again at no cost through the ordinary route.
    expect((await editor.download([videos[0].code])).json.data.granted).toHaveLength(1);
  });

  it("refuses other systems and old editors; leaves out expired and discontinued items with the spec's messages", async () => {
    const items = take(3);
    const { order, editor, s } = await buyer(items.map((i) => ({ kind: "content" as const, id: i.id })));
    const mac = await editor.download([items[0].code], "owned", undefined, { os: "mac" });
    expect(mac.status).toBe(403);
    expect(mac.json.result.message).toBe("Download not possible on this operating system; use Windows");
    const macKo = await editor.download([items[0].code], "owned", undefined, { os: "mac", language: "ko" });
    expect(macKo.json.result.message).toBe("이 운영체제에서는 다운로드할 수 없습니다. Windows를 사용하세요");
    await db.updateTable("licenses").set({ product_version: "2.0.4.6.9" }).where("id", "=", s.licenseId).execute();
    const old = await editor.download([items[0].code]);
    expect(old.status).toBe(426);
    expect((await editor.identify()).json.data.update_required).toBe(true);
    await db.updateTable("licenses").set({ product_version: "2.0.10.0.0" }).where("id", "=", s.licenseId).execute();

    await db
      .updateTable("order_items")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("order_id", "=", order.id)
      .where("content_id", "=", items[0].id)
      .execute();
    await db.updateTable("contents").set({ status: "discontinued" }).where("id", "=", items[1].id).execute();
    const mixed = await editor.download(items.map((i) => i.code));
    expect(mixed.json.data.granted.map((g: { content_id: number }) => g.content_id)).toEqual([items[2].id]);
    expect(mixed.json.data.messages).toEqual(["expired_excluded", "discontinued"]);
    const none = await editor.download([items[0].code]);
    expect(none.json.data.messages).toEqual(["expired_excluded", "nothing_available"]);
    await db.updateTable("contents").set({ status: "active" }).where("id", "=", items[1].id).execute();
  });

  it("free content needs a market account; benefit content needs a paid purchase", async () => {
    const free = await db
      .selectFrom("contents")
      .select(["code"])
      .where("price_type", "=", "free")
      .where("status", "=", "active")
      .where("file_path", "is not", null)
      .executeTakeFirstOrThrow();
    const benefit = await db
      .selectFrom("contents")
      .select(["code"])
      .where("price_type", "=", "benefit")
      .where("status", "=", "active")
      .where("file_path", "is not", null)
      .executeTakeFirstOrThrow();
    const guest = new EditorSimulator(call, DEMO.licenses.nonmember.serial, DEMO.licenses.nonmember.hw_info);
    expect((await guest.download([free.code], "free")).json.data.skipped[0].reason).toBe("needs_account");
    const fresh = await newShopper(db);
    const member = new EditorSimulator(call, fresh.serial, fresh.hwInfo);
    expect((await member.download([free.code], "free")).json.data.granted).toHaveLength(1);
    expect((await member.download([benefit.code], "free")).json.data.skipped[0].reason).toBe("needs_purchase");
    const { editor } = await buyer(take(1).map((i) => ({ kind: "content" as const, id: i.id })));
    expect((await editor.download([benefit.code], "free")).json.data.granted).toHaveLength(1);
    expect((await new EditorSimulator(call, "VEDT-NOPE", "HW-NOPE").library()).status).toBe(403);
  });

  it("the website's hand-over: a one-time token only this licence redeems, once", async () => {
    const items = take(1);
    const { s, editor } = await buyer(items.map((i) => ({ kind: "content" as const, id: i.id })));
    const token = await createBridge(db, { licenseId: s.licenseId, userId: s.userId, contentIds: [items[0].id], mode: "owned" });
    const other = await newShopper(db);
    expect((await new EditorSimulator(call, other.serial, other.hwInfo).redeem(token)).status).toBe(410);
    const redeemed = await editor.redeem(token);
    expect(redeemed.json.data.granted).toHaveLength(1);
    expect((await editor.fetchFile(redeemed.json.data.granted[0].url)).status).toBe(200);
    expect((await editor.redeem(token)).status).toBe(410);
  });

  it("the website: /mypage/download lists per licence, hands the chosen items to the editor through the bridge page", async () => {
    const items = take(2);
    const { s, order, editor } = await buyer(items.map((i) => ({ kind: "content" as const, id: i.id })));
    const WIN = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/130.0";
    const MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) Safari/605.1";
    const page = (path: string, ua: string, form?: Record<string, string | string[]>) => {
      const body = new URLSearchParams();
      for (const [k, v] of Object.entries(form ?? {})) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x);
      return call(path, {
        method: form ? "POST" : "GET",
        body: form ? body : undefined,
        headers: {
          cookie: s.jar.header,
          "user-agent": ua,
          "accept-language": "en",
          ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
        },
      });
    };
    const list = await (await page("/mypage/download", WIN)).text();
    expect(list).toContain(s.serial);
    for (const i of items) expect(list).toContain(`value="${i.id}"`);
    const mac = await page("/mypage/download", MAC, { license: String(s.licenseId), item: String(items[0].id) });
    expect(mac.status).toBe(403);
    expect(await mac.text()).toContain("Download not possible on this operating system; use Windows");
    const nothing = await page("/mypage/download", WIN, { license: String(s.licenseId) });
    expect(await nothing.text()).toContain("There is no item available for download.");

    // One item expired: the rest goes, and the bridge page says so.
    await db
      .updateTable("order_items")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("order_id", "=", order.id)
      .where("content_id", "=", items[1].id)
      .execute();
    const sent = await page("/mypage/download", WIN, { license: String(s.licenseId), item: items.map((i) => String(i.id)) });
    expect(sent.status).toBe(302);
    const bridgeUrl = sent.headers.get("location") as string;
    expect(bridgeUrl).toMatch(/^\/mypage\/download-bridge\?token=[\w-]+&excluded=1$/);
    const bridge = await (await call(bridgeUrl, { headers: { "accept-language": "en" } })).text();
    expect(bridge).toContain("The download will now begin excluding products that have expired.");
    const token = new URL(bridgeUrl, "http://x").searchParams.get("token") as string;
    expect(bridge).toContain(`videoasset-editor://download?token=${token}`);
    const redeemed = await editor.redeem(token);
    expect(redeemed.json.data.granted.map((g: { content_id: number }) => g.content_id)).toEqual([items[0].id]);
    expect((await editor.fetchFile(redeemed.json.data.granted[0].url)).status).toBe(200);
  });

  it("a licence certificate per purchased item: a printable page and a PDF, for the buyer only", async () => {
    const items = take(1);
    const { s, order } = await buyer(items.map((i) => ({ kind: "content" as const, id: i.id })));
    const [line] = await db.selectFrom("order_items").select("id").where("order_id", "=", order.id).execute();
    const get = (path: string, cookie: string) => call(path, { headers: { cookie, "accept-language": "en" } });
    const detail = await (await get(`/mypage/pay/${order.id}`, s.jar.header)).text();
    expect(detail).toContain(`href="/mypage/certificate/${line.id}"`);
    const page = await (await get(`/mypage/certificate/${line.id}`, s.jar.header)).text();
    expect(page).toContain("Licence certificate");
    expect(page).toContain(s.serial);
    expect(page).toContain(items[0].code);
    expect(page).toContain(order.order_no);
    const pdf = await get(`/mypage/certificate-pdf/${line.id}`, s.jar.header);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    expect(bytes.length).toBeGreaterThan(2000);
    const stranger = await newShopper(db);
    const strangerPage = await get(`/mypage/certificate/${line.id}`, stranger.jar.header);
    expect(strangerPage.status).toBe(404);
    expect((await get(`/mypage/certificate-pdf/${line.id}`, stranger.jar.header)).status).toBe(404);
  });

  it("the editor's whole path through its webview: headers once, then the cookie; hand-over; the file", async () => {
    const items = take(1);
    const { editor, s } = await buyer(items.map((i) => ({ kind: "content" as const, id: i.id })));
    const first = await editor.page("/mypage/sw/download");
    expect(first.status).toBe(200);
    const cookie = (first.headers.getSetCookie().find((c) => c.startsWith("sw_license=")) ?? "").split(";")[0];
    expect(cookie).toMatch(/^sw_license=/);
    expect(await first.text()).toContain(`value="${items[0].id}"`);
    // The webview posts the form without the headers: the signed cookie carries the licence.
    const posted = await editor.page("/mypage/sw/download", { cookie, form: { item: String(items[0].id) } });
    expect(posted.status).toBe(302);
    const start = await (await editor.page(posted.headers.get("location") as string, { cookie })).text();
    const token = EditorSimulator.deepLinkToken(start);
    expect(token).toBeTruthy();
    const redeemed = await editor.redeem(token as string);
    const file = await editor.fetchFile(redeemed.json.data.granted[0].url);
    expect(file.status).toBe(200);
    expect(file.body.length).toBeGreaterThan(0);

    // Identity: a tampered cookie is no identity; wrong hardware and a released licence are refused.
    const tampered = cookie.replace(/.$/, (ch) => (ch === "A" ? "B" : "A"));
    expect((await editor.page("/mypage/sw/download", { cookie: tampered })).status).toBe(401);
    expect((await new EditorSimulator(call, s.serial, "HW-SOMEONE-ELSE").page("/mypage/sw/download")).status).toBe(403);
    await db.updateTable("licenses").set({ status: "released" }).where("id", "=", s.licenseId).execute();
    expect((await editor.page("/mypage/sw/download")).status).toBe(403);
    expect((await editor.page("/mypage/sw/download", { cookie })).status).toBe(401);
    await db.updateTable("licenses").set({ status: "registered" }).where("id", "=", s.licenseId).execute();
  });
});
