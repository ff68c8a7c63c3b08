/**
 * Issue 24, point 2: a key-only buyer has a home after paying. The editor buys directly with its key, opens the
 * payment in its webview and cancels it under the member's refund rules; the order mails carry a signed, expiring
 * link that opens that one order for that key (tampered, expired or another order's id: refused, no data);
 * /payComp tells the truth per method and state; the representative sees and cancels the direct purchases made with
 * the company's keys.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import type { SandboxGateway } from "../../app/integrations/payments/sandbox.server";
import { resolveLinks } from "../../app/market/mail/worker.server";
import { signOrderAccess } from "../../app/market/orders/order-access.server";
import { placeOrder } from "../../app/market/orders/orders.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { EditorSimulator } from "../support/editor";
import { ENGINE } from "../support/engine";
import { Jar, newShopper } from "../support/shopper";

const SECRET = "test-secret-test-secret";
const PUBLIC = "http://store.test";
const DAY = 86_400_000;
type Shopper = Awaited<ReturnType<typeof newShopper>>;

describe(`a key-only buyer's orders on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Awaited<ReturnType<typeof createTestApp>>;
  let sandbox: SandboxGateway;
  let paid: { id: number; code: string }[];
  let next = 0;
  const take = (n: number) => {
    const out = paid.slice(next, next + n);
    next += n;
    return out.map((p) => p.id);
  };
  /** A business representative and a key of the company, registered on an editor (the simulator). */
  let rep: Shopper;
  let key: { id: number; serial: string; hwInfo: string; email: string };
  let editor: EditorSimulator;
  /** Another company's key: its orders must never show through the first key. */
  let otherEditor: EditorSimulator;
  let ipNo = 20;

  async function businessKey(owner: Shopper) {
    const hwInfo = `HW-B2B-${randomBytes(4).toString("hex")}`;
    const email = `editor-${randomBytes(3).toString("hex")}@studio.example`;
    const now = new Date().toISOString();
    const row = await db
      .insertInto("licenses")
      .values({
        serial: `VEDT-B2B-${randomBytes(4).toString("hex").toUpperCase()}`,
        alias: "Studio PC",
        email,
        owner_kind: "b2bg",
        user_id: owner.userId,
        hw_info: hwInfo,
        pc_name: "STUDIO-PC",
        status: "registered",
        license_type: "one_year",
        valid_until: new Date(Date.now() + 365 * DAY).toISOString(),
        product_version: "2.0.5.1.0",
        sort_order: 5,
        registered_at: now,
        created_at: now,
      })
      .returning(["id", "serial"])
      .executeTakeFirstOrThrow();
    return { id: row.id, serial: row.serial, hwInfo, email };
  }

  const orderOf = (orderNo: string) => db.selectFrom("orders").selectAll().where("order_no", "=", orderNo).executeTakeFirstOrThrow();
  const linesOf = async (orderId: number) =>
    (await db.selectFrom("order_items").select("id").where("order_id", "=", orderId).orderBy("id").execute()).map((l) => String(l.id));
  const settle = async (orderNo: string, action: "approve" | "deposit") => {
    await sandbox.act(orderNo, action);
    await sandbox.settled();
  };
  /** The editor buys directly and the sandbox approves (a virtual account: issued, and deposited when asked). */
  async function editorBuys(sim: EditorSimulator, n: number, method = "card", deposit = true) {
    const orderNo = await sim.buyDirect(take(n), method, `key-${randomBytes(6).toString("hex")}`);
    await settle(orderNo, "approve");
    if (method === "vbank" && deposit) await settle(orderNo, "deposit");
    return orderOf(orderNo);
  }
  /** The button link of the newest mail of a kind about an order, as delivered (the token signed at delivery). */
  async function mailLink(orderNo: string, kind: string) {
    const mail = await db
      .selectFrom("mail_outbox")
      .selectAll()
      .where("kind", "=", kind)
      .where("body_text", "like", `%${orderNo}%`)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    return {
      stored: mail.body_text,
      text: resolveLinks(mail.body_text, PUBLIC, false, SECRET),
      html: resolveLinks(mail.body_html ?? "", PUBLIC, true, SECRET),
    };
  }
  const linkIn = (text: string) => /http:\/\/store\.test(\/mypage\/order\/\d+\?access=[\w.-]+)/.exec(text)?.[1] ?? null;
  /** A browser opening a link: no editor headers, no cookies of the webview. */
  const browser = (path: string, form?: Record<string, string | string[]>, lang = "en") => {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(form ?? {})) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x);
    return call(path, {
      method: form ? "POST" : "GET",
      body: form ? body : undefined,
      headers: { "accept-language": lang, ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
    });
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
      .where("status", "=", "active")
      .where("price_type", "=", "paid")
      .where("contents_type", "in", ["video", "icon"])
      .orderBy("id", "desc")
      .limit(60)
      .execute();
    rep = await newShopper(db, { userType: 2 });
    await db.updateTable("users").set({ organization: "Studio Kim" }).where("id", "=", rep.userId).execute();
    key = await businessKey(rep);
    editor = new EditorSimulator(call, key.serial, key.hwInfo);
    const otherRep = await newShopper(db, { userType: 2 });
    const otherKey = await businessKey(otherRep);
    otherEditor = new EditorSimulator(call, otherKey.serial, otherKey.hwInfo);
  });
  afterAll(async () => {
    await sandbox.settled();
    await drop();
  });

  it("the editor buys directly, opens the payment in its webview and cancels it there, by the member's rules", async () => {
    const order = await editorBuys(editor, 2);
    expect(order).toMatchObject({ status: "complete", purchase_category: "direct", user_id: null, license_id: key.id });
    const first = await editor.paymentPage(order.id);
    expect(first.status).toBe(200);
    const cookie = (first.headers.get("set-cookie") ?? "").split(";")[0];
    expect(cookie).toMatch(/^sw_license=/);
    const html = await first.text();
    expect(html).toContain(order.order_no);
    expect(html).toContain("Direct purchase");
    expect(html).toContain("Cancel selected items");
    expect(html).toContain('href="/mypage/sw/download"');
    expect(html).toMatch(/href="\/mypage\/sw\/certificate\/\d+"/);
    // The website's My page is no place for a key-only buyer: the page no longer sends them there.
    expect(html).not.toContain("Manage on the website");
    expect(html).not.toContain(`/mypage/pay/${order.id}`);

    const lines = await linesOf(order.id);
    // Refusals are said on the page, which keeps working (the typed reason stays).
    const noReason = await editor.cancelPayment(order.id, { line: lines, reason: " " }, cookie);
    expect(noReason.status).toBe(400);
    expect(await noReason.text()).toContain("Enter the reason for the cancellation.");
    // A downloaded item cannot be cancelled (the same rule as a member's).
    await db.updateTable("order_items").set({ first_downloaded_at: new Date().toISOString() }).where("id", "=", Number(lines[0])).execute();
    const downloaded = await editor.cancelPayment(order.id, { line: [lines[0] as string], reason: "Wrong item" }, cookie);
    expect(downloaded.status).toBe(409);
    const downloadedHtml = await downloaded.text();
    expect(downloadedHtml).toContain("Downloaded items cannot be cancelled.");
    expect(downloadedHtml).toContain('value="Wrong item"');
    // The other line goes: refunded through the gateway, the order partially cancelled.
    const done = await editor.cancelPayment(order.id, { line: [lines[1] as string], reason: "Wrong item" }, cookie);
    expect(done.status).toBe(200);
    expect(await done.text()).toMatch(/Cancelled\. ₩[\d,]+ will be refunded\./);
    expect((await orderOf(order.order_no)).status).toBe("partially_cancelled");
    expect((await db.selectFrom("refunds").select("amount").where("order_id", "=", order.id).execute()).length).toBe(1);

    // Past 7 days: the form is gone and a post is refused with the spec's rule.
    const old = await editorBuys(editor, 1);
    await db
      .updateTable("orders")
      .set({ ptime: new Date(Date.now() - 8 * DAY).toISOString() })
      .where("id", "=", old.id)
      .execute();
    const oldPage = await (await editor.paymentPage(old.id, cookie)).text();
    expect(oldPage).not.toContain("Cancel selected items");
    expect(oldPage).toContain("Cancellation is possible only within 7 days of payment.");
    const late = await editor.cancelPayment(old.id, { line: await linesOf(old.id), reason: "Too late" }, cookie);
    expect(late.status).toBe(409);
    expect(await late.text()).toContain("Cancellation is possible only within 7 days of payment.");
    expect((await orderOf(old.order_no)).status).toBe("complete");
  });

  it("another key's editor cannot see or cancel the order; a member's order is not cancelled from the webview", async () => {
    const order = await editorBuys(editor, 1);
    expect((await otherEditor.paymentPage(order.id)).status).toBe(404);
    const refused = await otherEditor.cancelPayment(order.id, { line: await linesOf(order.id), reason: "Not mine" });
    expect(refused.status).toBe(404);
    expect(await refused.text()).not.toContain(order.order_no);
    expect((await orderOf(order.order_no)).status).toBe("complete");

    // A member's order for their own licence: shown in that editor, cancelled on the member's My page only.
    const member = await newShopper(db);
    const placed = await placeOrder(db, call.payments, {
      buyer: { id: member.userId, userType: 1, email: member.email },
      purchase: { category: "member" },
      items: take(1).map((id) => ({ kind: "content" as const, id })),
      license: { licenseId: member.licenseId },
      method: "card",
      locale: "en",
      idempotencyKey: `${member.userId}:m1`,
      origin: PUBLIC,
    });
    await settle(placed.orderNo, "approve");
    const memberOrder = await orderOf(placed.orderNo);
    const memberEditor = new EditorSimulator(call, member.serial, member.hwInfo);
    const page = await (await memberEditor.paymentPage(memberOrder.id)).text();
    expect(page).toContain("Member purchase");
    expect(page).not.toContain("Cancel selected items");
    expect(page).toContain(`href="/mypage/pay/${memberOrder.id}"`);
    const post = await memberEditor.cancelPayment(memberOrder.id, { line: await linesOf(memberOrder.id), reason: "From the editor" });
    expect(post.status).toBe(404);
    expect(await post.text()).toContain("No such payment.");
    expect((await orderOf(placed.orderNo)).status).toBe("complete");
  });

  it("the receipt mail's link opens that order for that key, in a browser, and nothing else", async () => {
    const order = await editorBuys(editor, 2);
    const other = await editorBuys(editor, 1);
    const mail = await mailLink(order.order_no, "receiptKey");
    // Queued without the secret (a mark), signed at delivery.
    expect(mail.stored).toContain("%ORDER_ACCESS:");
    const path = linkIn(mail.text) as string;
    expect(path).toMatch(new RegExp(`^/mypage/order/${order.id}\\?access=`));
    expect(linkIn(mail.html.replaceAll("&amp;", "&"))).toBe(path);

    const res = await browser(path);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(res.headers.get("set-cookie")).toBeNull();
    const html = await res.text();
    expect(html).toContain(order.order_no);
    expect(html).not.toContain(other.order_no);
    expect(html).toContain("Cancel selected items");
    expect(html).toContain("Downloads happen in the video editor of this licence key");
    expect(html).toContain(key.serial);

    const token = new URL(path, PUBLIC).searchParams.get("access") as string;
    // Another order's id with this token, a changed token, an expired one: refused, nothing of any order shown.
    const wrongOrder = await browser(`/mypage/order/${other.id}?access=${token}`);
    expect(wrongOrder.status).toBe(403);
    const wrongHtml = await wrongOrder.text();
    expect(wrongHtml).toContain("This link is not valid");
    expect(wrongHtml).not.toContain(other.order_no);
    const tampered = `${token.slice(0, -2)}${token.endsWith("AA") ? "BB" : "AA"}`;
    for (const bad of [tampered, token.replace(`.${key.id}.`, `.${key.id + 1}.`), "", "1.2.3.x"]) {
      const refused = await browser(`/mypage/order/${order.id}?access=${encodeURIComponent(bad)}`);
      expect(refused.status).toBe(403);
      expect(await refused.text()).not.toContain(order.order_no);
    }
    const expired = signOrderAccess({ orderId: order.id, licenseId: key.id, expires: Date.now() - 1000 }, SECRET);
    const gone = await browser(`/mypage/order/${order.id}?access=${expired}`, undefined, "ko");
    expect(gone.status).toBe(410);
    const goneHtml = await gone.text();
    expect(goneHtml).toContain("링크의 사용 기간이 지났습니다");
    expect(goneHtml).not.toContain(order.order_no);
    // A token signed by someone else's secret is not ours.
    const foreign = signOrderAccess({ orderId: order.id, licenseId: key.id, expires: Date.now() + DAY }, "another-secret");
    expect((await browser(`/mypage/order/${order.id}?access=${foreign}`)).status).toBe(403);
    // The grant is no licence session: the webview's pages still ask for the editor.
    const swList = await call(`/mypage/sw/pay?access=${token}`, { headers: { "accept-language": "en" } });
    expect(swList.status).toBe(401);
    expect(await swList.text()).not.toContain(order.order_no);

    // The certificate of an item of this order opens by the link; another order's item does not.
    const [line] = await linesOf(order.id);
    const certificate = await browser(`/mypage/order/${order.id}/certificate/${line}?access=${token}`);
    expect(certificate.status).toBe(200);
    const certificateHtml = await certificate.text();
    expect(certificateHtml).toContain("Licence certificate");
    expect(certificateHtml).toContain("Studio Kim");
    const [otherLine] = await linesOf(other.id);
    expect((await browser(`/mypage/order/${order.id}/certificate/${otherLine}?access=${token}`)).status).toBe(404);
    expect((await browser(`/mypage/order/${order.id}/certificate/${line}?access=${tampered}`)).status).toBe(403);

    // Cancelled through the link, without scripts, by the same rules; the refund mail links to the same page.
    const cancelled = await browser(path, { line: await linesOf(order.id), reason: "Bought twice" });
    expect(cancelled.status).toBe(200);
    expect(await cancelled.text()).toMatch(/Cancelled\. ₩[\d,]+ will be refunded\./);
    expect((await orderOf(order.order_no)).status).toBe("cancelled");
    const refundMail = await mailLink(order.order_no, "refund");
    expect(linkIn(refundMail.text)).toMatch(new RegExp(`^/mypage/order/${order.id}\\?access=`));
    // A tampered token cannot cancel.
    const otherLines = await linesOf(other.id);
    const forged = await browser(`/mypage/order/${other.id}?access=${token}`, { line: otherLines, reason: "Forged" });
    expect(forged.status).toBe(403);
    expect((await orderOf(other.order_no)).status).toBe("complete");
  });

  it("a virtual account by key: the link shows the deadline while waiting; deposited, it is cancelled keeping back 10%", async () => {
    const order = await editorBuys(editor, 1, "vbank", false);
    expect(order.status).toBe("waiting");
    const path = linkIn((await mailLink(order.order_no, "vbank")).text) as string;
    const waiting = await (await browser(path)).text();
    expect(waiting).toContain(order.vbank_account as string);
    expect(waiting).toContain("Deposit by");
    expect(waiting).toContain("The items become available after your deposit arrives");
    expect(waiting).not.toContain("Cancel selected items");
    // The webview says the same.
    expect(await (await editor.paymentPage(order.id)).text()).toContain("The items become available after your deposit arrives");

    await settle(order.order_no, "deposit");
    const lines = await linesOf(order.id);
    const noAccount = await browser(path, { line: lines, reason: "Changed my mind" });
    expect(noAccount.status).toBe(400);
    expect(await noAccount.text()).toContain("Enter the bank, account number and holder for the refund.");
    const done = await browser(path, { line: lines, reason: "Changed my mind", bank: "KB", account: "123456789", holder: "Kim" });
    expect(done.status).toBe(200);
    const after = await orderOf(order.order_no);
    expect(after.status).toBe("cancelled");
    expect(after.refund_deduction).toBe(Math.round(after.paid_amount * 0.1));
    expect(after.cancel_amount).toBe(after.paid_amount - after.refund_deduction);
  });

  it("/payComp says the truth per method and state for a key-only buyer and for a member", async () => {
    // A key-only buyer in the storefront: cart → /pay01 → /pay-key → /pay03 → the gateway → /payComp.
    const jar = new Jar({ lng: "en" });
    const ip = `198.51.100.${ipNo++}`;
    const go = async (p: string, form?: Record<string, string | string[]>) => {
      const body = new URLSearchParams();
      for (const [k, v] of Object.entries(form ?? {})) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x);
      return jar.take(
        await call(p, {
          method: form ? "POST" : "GET",
          body: form ? body : undefined,
          ip,
          headers: { cookie: jar.header, ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
        }),
      );
    };
    const location = (res: Response) => (res.headers.get("location") ?? "").replace(/^http:\/\/store\.test/, "");
    const items = paid.slice(next, next + 1);
    next += 1;
    for (const i of items) expect((await go("/cart", { intent: "add", code: i.code, redirectTo: "/cart" })).status).toBe(302);
    const lines = [...(await (await go("/cart")).text()).matchAll(/name="cart_id" id="cart-(\d+)"/g)].map((m) => m[1] as string);
    expect(location(await go("/cart", { intent: "direct", cart_id: lines }))).toBe("/pay01");
    expect(location(await go("/pay-key", { serial: key.serial, email: key.email }))).toBe("/pay03");
    const hosted = location(await go("/pay03", { method: "vbank", agreeTerms: "on", agreePaid: "on" }));
    const orderNo = decodeURIComponent(hosted.split("/").pop() as string);
    expect(location(await go(location(await go(hosted, { action: "approve" }))))).toBe("/payComp");

    const waiting = await (await go("/payComp")).text();
    const order = await orderOf(orderNo);
    expect(order.status).toBe("waiting");
    expect(waiting).toContain("Order received");
    expect(waiting).toContain(order.vbank_account as string);
    expect(waiting).toContain("Deposit by");
    expect(waiting).toContain("after the deposit arrives");
    expect(waiting).not.toContain("are ready");
    expect(waiting).not.toContain("/mypage/pay/");
    const keyLink = /href="(\/mypage\/order\/\d+\?access=[\w.-]+)"/.exec(waiting)?.[1] as string;
    expect(keyLink).toMatch(new RegExp(`^/mypage/order/${order.id}\\?`));
    expect((await browser(keyLink.replaceAll("&amp;", "&"))).status).toBe(200);

    await settle(orderNo, "deposit");
    const complete = await (await go("/payComp")).text();
    expect(complete).toContain("Payment complete");
    expect(complete).toContain("The items are ready in the editor of this licence key");
    expect(complete).not.toContain("after the deposit arrives");
    expect(complete).not.toContain("/mypage/pay/");

    await browser(keyLink, { line: await linesOf(order.id), reason: "Cancel", bank: "KB", account: "123456789", holder: "Kim" });
    expect((await orderOf(orderNo)).status).toBe("cancelled");
    const cancelled = await (await go("/payComp")).text();
    expect(cancelled).toContain("Payment cancelled");
    expect(cancelled).toContain("This payment was cancelled.");
    expect(cancelled).not.toContain("are ready");

    // A member's waiting virtual account: the account, the deadline, the items after the deposit; paid: ready.
    const member = await newShopper(db);
    const at = new Date().toISOString();
    const cart = await db
      .insertInto("carts")
      .values(take(1).map((id) => ({ user_id: member.userId, ngt: null, content_id: id, level_flag: 1, created_at: at })))
      .returning("id")
      .execute();
    const mgo = async (p: string, form?: Record<string, string | string[]>) => {
      const body = new URLSearchParams();
      for (const [k, v] of Object.entries(form ?? {})) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x);
      return member.jar.take(
        await call(p, {
          method: form ? "POST" : "GET",
          body: form ? body : undefined,
          headers: {
            "accept-language": "en",
            cookie: member.jar.header,
            ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
          },
        }),
      );
    };
    expect(location(await mgo("/cart", { intent: "buy", cart_id: cart.map((c) => String(c.id)) }))).toBe("/pay01");
    expect(location(await mgo("/pay02", { choice: String(member.licenseId) }))).toBe("/pay03");
    const mHosted = location(await mgo("/pay03", { method: "vbank", agreeTerms: "on", agreePaid: "on" }));
    const mOrderNo = decodeURIComponent(mHosted.split("/").pop() as string);
    await mgo(location(await mgo(mHosted, { action: "approve" })));
    const mWaiting = await (await mgo("/payComp")).text();
    expect(mWaiting).toContain("after the deposit arrives");
    expect(mWaiting).not.toContain("Download now");
    expect(mWaiting).toContain(`/mypage/pay/${(await orderOf(mOrderNo)).id}`);
    await settle(mOrderNo, "deposit");
    const mDone = await (await mgo("/payComp")).text();
    expect(mDone).toContain("Download now");
    expect(mDone).not.toContain("after the deposit arrives");
  });

  it("the representative sees the direct purchases of the company's keys in /mypage/pay and users/orders, and cancels them", async () => {
    const order = await editorBuys(editor, 2);
    const otherCompany = await editorBuys(otherEditor, 1);
    const repGo = (p: string, form?: Record<string, string | string[]>) => {
      const body = new URLSearchParams();
      for (const [k, v] of Object.entries(form ?? {})) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x);
      return call(p, {
        method: form ? "POST" : "GET",
        body: form ? body : undefined,
        headers: {
          "accept-language": "en",
          cookie: rep.jar.header,
          ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
        },
      });
    };
    const list = await (await repGo("/mypage/pay")).text();
    expect(list).toContain(order.order_no);
    expect(list).toContain("Direct purchase");
    expect(list).not.toContain(otherCompany.order_no);
    const detail = await repGo(`/mypage/pay/${order.id}`);
    expect(detail.status).toBe(200);
    const detailHtml = await detail.text();
    expect(detailHtml).toContain("Direct purchase");
    expect(detailHtml).toContain(key.serial);
    expect((await repGo(`/mypage/pay/${otherCompany.id}`)).status).toBe(404);

    const api = await call("/api/v1/users/orders?limit=100", { headers: { authorizationToken: rep.token, language: "en" } });
    const rows = (await api.json()).data.list as { order_no: string; purchase_category: string }[];
    expect(rows.find((r) => r.order_no === order.order_no)?.purchase_category).toBe("direct");
    expect(rows.some((r) => r.order_no === otherCompany.order_no)).toBe(false);
    const one = await call(`/api/v1/users/orders/${order.id}`, { headers: { authorizationToken: rep.token, language: "en" } });
    expect(one.status).toBe(200);
    expect((await one.json()).data.purchase_category).toBe("direct");

    // The representative cancels one item by the same rules (a downloaded item refused).
    const lines = await linesOf(order.id);
    await db.updateTable("order_items").set({ first_downloaded_at: new Date().toISOString() }).where("id", "=", Number(lines[0])).execute();
    const refused = await repGo(`/mypage/pay/${order.id}`, { line: [lines[0] as string], reason: "Not needed" });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("Downloaded items cannot be cancelled.");
    const done = await repGo(`/mypage/pay/${order.id}`, { line: [lines[1] as string], reason: "Not needed" });
    expect(done.status).toBe(200);
    expect((await orderOf(order.order_no)).status).toBe("partially_cancelled");
    // Another company's representative cannot.
    const stranger = await repGo(`/mypage/pay/${otherCompany.id}`, { line: await linesOf(otherCompany.id), reason: "Not mine" });
    expect(stranger.status).toBe(404);
    expect((await orderOf(otherCompany.order_no)).status).toBe("complete");
  });
});
