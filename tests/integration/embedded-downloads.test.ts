import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { DEMO } from "../../app/db/seed/index.server";
import type { SandboxGateway } from "../../app/integrations/payments/sandbox.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { EditorSimulator } from "../support/editor";
import { ENGINE } from "../support/engine";
import { Jar, newShopper } from "../support/shopper";

type Licence = { serial: string; hwInfo: string };

/**
 * The editor's webview pages of downloads (/mypage/sw/download, /mypage/sw/download/start, /mypage/sw/benefit):
 * the licence the editor runs sees what it holds and nothing else, hands the chosen items to the editor through
 * a one-time token, and learns why it cannot take benefit content.
 */
describe(`embedded downloads and benefits on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Awaited<ReturnType<typeof createTestApp>>;
  let sandbox: SandboxGateway;
  let paid: { id: number; code: string }[];
  let benefits: { id: number; code: string }[];
  let next = 0;
  const take = (n: number) => {
    const out = paid.slice(next, next + n);
    next += n;
    return out;
  };

  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    call = await createTestApp(db, { dataDir: t.dataDir });
    sandbox = call.payments.sandbox as SandboxGateway;
    paid = await db
      .selectFrom("contents")
      .select(["id", "code"])
      .where("price_type", "=", "paid")
      .where("status", "=", "active")
      .where("contents_type", "in", ["video", "icon", "audio"])
      .where("file_path", "is not", null)
      .orderBy("id")
      .execute();
    benefits = await db
      .selectFrom("contents")
      .select(["id", "code"])
      .where("price_type", "=", "benefit")
      .where("status", "=", "active")
      .where("file_path", "is not", null)
      .orderBy("released_at", "desc")
      .orderBy("id", "desc")
      .execute();
    expect(benefits.length).toBeGreaterThan(0);
  });
  afterAll(async () => {
    await sandbox.settled();
    await drop();
  });

  /** A member whose licence bought these items through the payments API and the sandbox. */
  async function buyer(items: { id: number }[]) {
    const s = await newShopper(db);
    const res = await call("/api/v1/payments", {
      method: "POST",
      body: JSON.stringify({
        items: items.map((i) => ({ kind: "content", id: i.id })),
        license_id: s.licenseId,
        method: "card",
        agree_terms: true,
        agree_paid: true,
        idempotency_key: `sw-download-${s.userId}`,
      }),
      headers: { authorizationToken: s.token, "content-type": "application/json" },
    });
    const body = (await res.json()) as { result: { message: string }; data: { order_no: string } };
    expect(res.status, body.result.message).toBe(200);
    await sandbox.act(body.data.order_no, "approve");
    await sandbox.settled();
    const order = await db.selectFrom("orders").selectAll().where("order_no", "=", body.data.order_no).executeTakeFirstOrThrow();
    expect(order.status).toBe("complete");
    return { s, order, editor: new EditorSimulator(call, s.serial, s.hwInfo) };
  }

  /** The webview: the editor's headers (when given), its language, optionally a form post, its cookie jar. */
  const sw = async (
    path: string,
    options: { licence?: Licence; lang?: "en" | "ko"; form?: Record<string, string | string[]>; jar?: Jar } = {},
  ) => {
    const headers: Record<string, string> = { "accept-language": options.lang ?? "en" };
    if (options.licence) Object.assign(headers, { license_id: options.licence.serial, hw_info: options.licence.hwInfo });
    if (options.jar?.header) headers.cookie = options.jar.header;
    let body: URLSearchParams | undefined;
    if (options.form) {
      body = new URLSearchParams();
      for (const [k, v] of Object.entries(options.form)) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x);
      headers["content-type"] = "application/x-www-form-urlencoded";
    }
    const res = await call(path, { method: options.form ? "POST" : "GET", body, headers });
    return options.jar ? options.jar.take(res) : res;
  };
  const location = (res: Response) => (res.headers.get("location") ?? "").replace(/^http:\/\/store\.test/, "");
  const tokenOf = (url: string) => new URL(url, "http://x").searchParams.get("token") as string;
  /** The item checkboxes of a page: content id → disabled. */
  const boxes = (html: string) =>
    new Map(
      [...html.matchAll(/<input type="checkbox" name="item"[^>]*>/g)].map((m) => [
        Number(/value="(\d+)"/.exec(m[0])?.[1]),
        /\sdisabled=""/.test(m[0]),
      ]),
    );
  const shownIds = (html: string) => [...boxes(html).keys()];

  it("lists the licence's purchases with their end dates and download counts, and the tabs", async () => {
    const items = take(2);
    const { s } = await buyer(items);
    const res = await sw("/mypage/sw/download", { licence: s });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const html = await res.text();
    expect(html).not.toContain('class="site-header"');
    expect(html).toContain("<title>Downloads | My page in the editor");
    expect(html).toContain(`Items the licence Test PC · ${s.serial} can download to the editor.`);
    for (const i of items) expect(boxes(html).get(i.id), "selectable").toBe(false);
    expect(html).toContain("Usable until");
    expect(html).toContain("Purchase");
    expect(html).toContain("This licence has no pass in use.");
    expect(html).toContain("Download to the editor");
    // The tab bar: Downloads is the current one; Benefits follows it.
    expect(html).toMatch(/<a [^>]*aria-current="page"[^>]*href="\/mypage\/sw\/download">Downloads<\/a>/);
    expect(html).toMatch(/<a [^>]*href="\/mypage\/sw\/benefit">Benefits<\/a>/);
    expect(html.indexOf('href="/mypage/sw/pay"')).toBeLessThan(html.indexOf('href="/mypage/sw/download"'));
    // Korean, with the end date spelled on the server.
    const ko = await (await sw("/mypage/sw/download", { licence: s, lang: "ko" })).text();
    expect(ko).toContain('<html lang="ko"');
    for (const text of ["다운로드", "사용 기한", "편집 프로그램으로 다운로드", "구매"]) expect(ko, text).toContain(text);
    expect(ko).toMatch(/\d{4}\. \d{1,2}\. \d{1,2}\./);
  });

  it("hands the chosen items to the editor: a start page with the deep link whose token the same licence redeems", async () => {
    const items = take(2);
    const { s, editor } = await buyer(items);
    const webview = new Jar();
    expect((await sw("/mypage/sw/download", { licence: s, jar: webview })).status).toBe(200);
    // The post goes on the licence cookie alone (the webview does not repeat its headers).
    const sent = await sw("/mypage/sw/download", { jar: webview, form: { item: items.map((i) => String(i.id)) } });
    expect(sent.status).toBe(302);
    const start = location(sent);
    expect(start).toMatch(/^\/mypage\/sw\/download\/start\?token=[\w-]{20,64}$/);
    const page = await sw(start, { jar: webview });
    expect(page.status).toBe(200);
    const html = await page.text();
    const token = tokenOf(start);
    expect(html).toContain(`href="videoasset-editor://download?token=${token}&amp;store=${encodeURIComponent("http://store.test")}"`);
    expect(html).toContain("Preparing the download");
    expect(html).not.toContain("The download will now begin excluding products that have expired.");
    expect(html).toMatch(/<a [^>]*aria-current="page"[^>]*href="\/mypage\/sw\/download">Downloads<\/a>/);
    // The deep link's token: only this licence redeems it, once, and gets the files.
    const other = await newShopper(db);
    expect((await new EditorSimulator(call, other.serial, other.hwInfo).redeem(token)).status).toBe(410);
    const redeemed = await editor.redeem(token);
    expect(redeemed.status).toBe(200);
    expect(redeemed.json.data.granted.map((g: { content_id: number }) => g.content_id).sort()).toEqual(items.map((i) => i.id).sort());
    for (const g of redeemed.json.data.granted as { url: string }[]) expect((await editor.fetchFile(g.url)).status).toBe(200);
    expect((await editor.redeem(token)).status).toBe(410);
    // Downloaded: the counts show on the list.
    const after = await (await sw("/mypage/sw/download", { licence: s })).text();
    expect(after.match(/<td>1<\/td>/g)?.length ?? 0).toBeGreaterThanOrEqual(2);
  });

  it("leaves expired items out with the spec's message, and says when nothing is left (then no token)", async () => {
    const items = take(2);
    const { s, order, editor } = await buyer(items);
    await db
      .updateTable("order_items")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("order_id", "=", order.id)
      .where("content_id", "=", items[1].id)
      .execute();
    const list = await (await sw("/mypage/sw/download", { licence: s })).text();
    expect(boxes(list).get(items[1].id), "expired: not selectable").toBe(true);
    expect(boxes(list).get(items[0].id)).toBe(false);
    expect(list).toContain("Expired");
    const sent = await sw("/mypage/sw/download", { licence: s, form: { item: items.map((i) => String(i.id)) } });
    expect(sent.status).toBe(302);
    const start = location(sent);
    expect(start).toMatch(/^\/mypage\/sw\/download\/start\?token=[\w-]+&excluded=1$/);
    const html = await (await sw(start, { licence: s })).text();
    expect(html).toContain("The download will now begin excluding products that have expired.");
    const redeemed = await editor.redeem(tokenOf(start));
    expect(redeemed.json.data.granted.map((g: { content_id: number }) => g.content_id)).toEqual([items[0].id]);

    const none = await sw("/mypage/sw/download", { licence: s, form: { item: String(items[1].id) } });
    expect(location(none)).toBe("/mypage/sw/download/start?none=1");
    const empty = await (await sw(location(none), { licence: s })).text();
    expect(empty).toContain("There is no item available for download.");
    expect(empty).not.toContain("videoasset-editor://");
    expect(
      await db.selectFrom("download_tokens").select("id").where("kind", "=", "bridge").where("license_id", "=", s.licenseId).execute(),
    ).toHaveLength(1);
  });

  it("never shows another licence's items, and a posted licence or item of someone else changes nothing", async () => {
    const [mine] = take(1);
    const [theirs] = take(1);
    const a = await buyer([mine]);
    const b = await buyer([theirs]);
    const pageA = await (await sw("/mypage/sw/download", { licence: a.s })).text();
    expect(shownIds(pageA)).toEqual([mine.id]);
    const pageB = await (await sw("/mypage/sw/download", { licence: b.s })).text();
    expect(shownIds(pageB)).toEqual([theirs.id]);
    // A asks for B's item, naming B's licence: the webview's own licence is used, which does not hold it.
    const sent = await sw("/mypage/sw/download", {
      licence: a.s,
      form: { license: String(b.s.licenseId), license_id: b.s.serial, item: String(theirs.id) },
    });
    expect(location(sent)).toBe("/mypage/sw/download/start?none=1");
    const both = await sw("/mypage/sw/download", {
      licence: a.s,
      form: { license: String(b.s.licenseId), item: [String(mine.id), String(theirs.id)] },
    });
    const start = location(both);
    expect(start).toMatch(/^\/mypage\/sw\/download\/start\?token=[\w-]+&excluded=1$/);
    expect((await b.editor.redeem(tokenOf(start))).status).toBe(410);
    const redeemed = await a.editor.redeem(tokenOf(start));
    expect(redeemed.json.data.granted.map((g: { content_id: number }) => g.content_id)).toEqual([mine.id]);
  });

  it("benefits: a licence whose owner has not bought is told it needs a purchase; one who has bought downloads", async () => {
    const fresh = await newShopper(db);
    const res = await sw("/mypage/sw/benefit", { licence: fresh });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("<title>Benefit content | My page in the editor");
    expect(html).toContain("Benefit content needs a purchase");
    expect(html).not.toContain("This licence can download benefit content.");
    expect(boxes(html).get(benefits[0].id), "not eligible: not selectable").toBe(true);
    expect(html).toMatch(/<a [^>]*aria-current="page"[^>]*href="\/mypage\/sw\/benefit">Benefits<\/a>/);
    const refused = await sw("/mypage/sw/benefit", { licence: fresh, form: { item: String(benefits[0].id) } });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("Benefit content needs a purchase");
    expect(await db.selectFrom("download_tokens").select("id").where("license_id", "=", fresh.licenseId).execute()).toHaveLength(0);

    const { s, editor } = await buyer(take(1));
    const ok = await (await sw("/mypage/sw/benefit", { licence: s })).text();
    expect(ok).toContain("This licence can download benefit content.");
    expect(ok).not.toContain("Benefit content needs a purchase");
    expect(boxes(ok).get(benefits[0].id)).toBe(false);
    // Only benefit content goes: a paid item posted along is dropped.
    const sent = await sw("/mypage/sw/benefit", { licence: s, form: { item: [String(benefits[0].id), String(paid[paid.length - 1].id)] } });
    expect(sent.status).toBe(302);
    const start = location(sent);
    expect(start).toMatch(/^\/mypage\/sw\/download\/start\?token=[\w-]+&from=benefit$/);
    const page = await (await sw(start, { licence: s })).text();
    expect(page).toContain(`videoasset-editor://download?token=${tokenOf(start)}`);
    expect(page).toMatch(/<a [^>]*href="\/mypage\/sw\/benefit"[^>]*>Back to benefits<\/a>/);
    const redeemed = await editor.redeem(tokenOf(start));
    expect(redeemed.status).toBe(200);
    expect(redeemed.json.data.granted.map((g: { content_id: number }) => g.content_id)).toEqual([benefits[0].id]);
    expect((await editor.fetchFile(redeemed.json.data.granted[0].url)).status).toBe(200);
    // Taken once: it counts on the benefit page and shows on the download page, from "Benefit" (issue 26.5).
    const list = await (await sw("/mypage/sw/download", { licence: s })).text();
    expect(boxes(list).get(benefits[0].id)).toBe(false);
    expect(list).toContain("<td>Benefit</td>");
  });

  it("benefits: the page is 20 a page, newest first", async () => {
    const { s } = await buyer(take(1));
    const html = await (await sw("/mypage/sw/benefit", { licence: s })).text();
    const shown = shownIds(html);
    const active = await db
      .selectFrom("contents")
      .select("id")
      .where("price_type", "=", "benefit")
      .where("status", "=", "active")
      .orderBy("released_at", "desc")
      .orderBy("id", "desc")
      .execute();
    expect(shown).toEqual(active.slice(0, 20).map((r) => r.id));
    if (active.length > 20) {
      const second = await (await sw("/mypage/sw/benefit?page=2", { licence: s })).text();
      expect(shownIds(second)).toEqual(active.slice(20, 40).map((r) => r.id));
    }
  });

  it("benefits: a non-member licence is told it needs a market account", async () => {
    const guest = { serial: DEMO.licenses.nonmember.serial, hwInfo: DEMO.licenses.nonmember.hw_info };
    const html = await (await sw("/mypage/sw/benefit", { licence: guest })).text();
    expect(html).toContain("Benefit content needs a market account");
    expect(html).not.toContain("Benefit content needs a purchase");
    const refused = await sw("/mypage/sw/benefit", { licence: guest, form: { item: String(benefits[0].id) } });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("Benefit content needs a market account");
    const ko = await (await sw("/mypage/sw/benefit", { licence: guest, lang: "ko" })).text();
    expect(ko).toContain("혜택 콘텐츠는 마켓 계정이 필요합니다.");
  });

  it("without the editor's headers: 401 and the 'open from the editor' page, for pages and posts; wrong hw_info: 403", async () => {
    const { s } = await buyer(take(1));
    for (const path of ["/mypage/sw/download", "/mypage/sw/benefit", "/mypage/sw/download/start?none=1"]) {
      const res = await sw(path);
      expect(res.status, path).toBe(401);
      expect(await res.text()).toContain("Open this page from the video editor");
    }
    const post = await sw("/mypage/sw/download", { form: { license: String(s.licenseId), item: String(paid[0].id) } });
    expect(post.status).toBe(401);
    expect(await sw("/mypage/sw/benefit", { form: { item: String(benefits[0].id) } }).then((r) => r.status)).toBe(401);
    const data = await sw("/mypage/sw/download.data?_routes=embedded-download");
    expect(data.status).toBe(401);
    const wrong = await sw("/mypage/sw/download", { licence: { serial: s.serial, hwInfo: "HW-SOMEONE-ELSE" } });
    expect(wrong.status).toBe(403);
    expect(await wrong.text()).toContain("No license key with this information found. Please check again.");
    expect(await db.selectFrom("download_tokens").select("id").where("license_id", "=", s.licenseId).execute()).toHaveLength(0);
  });
});
