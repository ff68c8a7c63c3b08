/**
 * Mail for real: messages queued with the change that causes them, delivered after commit by a worker to the outbox
 * folder (.eml) or over SMTP (a real SMTP server started here, smtp-server), retried with back-off when SMTP is down,
 * never sent twice by concurrent workers; HTML and text in the recipient's language with links on PUBLIC_URL; the
 * one-click unsubscribe of marketing mail; the test-mode outbox page.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { createOutboxTransport, createSmtpTransport, type MailTransport } from "../../app/integrations/mail/transport.server";
import type { SandboxGateway } from "../../app/integrations/payments/sandbox.server";
import { queueNewsletter, unsubscribeToken } from "../../app/market/mail/unsubscribe.server";
import { deliverDueMail, MAX_ATTEMPTS } from "../../app/market/mail/worker.server";
import { placeOrder } from "../../app/market/orders/orders.server";
import { joinMarket } from "../../app/market/users/auth.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { OPERATOR_EMAIL, signInOperator } from "../support/operator";
import { newShopper } from "../support/shopper";

const SECRET = "test-secret-test-secret";
const PUBLIC = "https://market.example.test";

/** A real SMTP server on a free loopback port, keeping what it receives. */
async function startSmtp() {
  const received: { to: string[]; raw: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (chunk: Buffer) => {
        raw += chunk.toString("utf8");
      });
      stream.on("end", () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  return { received, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe(`mail on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Awaited<ReturnType<typeof createTestApp>>;
  let outbox: string;
  let transport: MailTransport;
  const deliver = (t: MailTransport = transport, now?: Date) =>
    deliverDueMail(db, { transport: t, publicUrl: PUBLIC, from: "Store <no-reply@example.test>", now });
  const mailTo = (to: string) => db.selectFrom("mail_outbox").selectAll().where("to_address", "=", to).orderBy("id").execute();

  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    call = await createTestApp(db, { dataDir: t.dataDir });
    outbox = fs.mkdtempSync(path.join(os.tmpdir(), "outbox-"));
    transport = createOutboxTransport(outbox);
    // Whatever the seed or earlier files queued is not this file's concern.
    await db.updateTable("mail_outbox").set({ status: "sent" }).execute();
  });
  afterAll(async () => {
    await (call.payments.sandbox as SandboxGateway).settled();
    await drop();
    fs.rmSync(outbox, { recursive: true, force: true });
  });

  it("a join queues the welcome mail in its transaction; the worker writes it to the outbox once, links on PUBLIC_URL", async () => {
    const joined = await joinMarket(db, {
      email: "welcome-ko@example.com",
      password: "long-enough-pw",
      nickname: "환영",
      marketEmailAgree: true,
      language: "ko",
    });
    expect(joined.ok).toBe(true);
    const [queued] = await mailTo("welcome-ko@example.com");
    expect(queued).toMatchObject({ kind: "welcome", language: "ko", status: "queued", subject: "비디오에셋 마켓에 오신 것을 환영합니다" });
    expect((await deliver()).sent).toBe(1);
    const [sent] = await mailTo("welcome-ko@example.com");
    expect(sent.status).toBe("sent");
    const eml = fs.readFileSync(path.join(outbox, `${sent.id}.eml`), "utf8");
    expect(eml).toContain("Content-Type: text/html");
    expect(eml).toContain("Content-Type: text/plain");
    expect(eml).toContain(`Message-ID: <mail-${sent.id}@market.example.test>`);
    expect(eml).toContain("https://market.example.test/");
    expect(eml).not.toContain("%PUBLIC_URL%");
    expect((await deliver()).sent).toBe(0);
  });

  it("an English member's receipt and a virtual account's instructions are mailed in English", async () => {
    const s = await newShopper(db);
    const sandbox = call.payments.sandbox as SandboxGateway;
    const items = await db
      .selectFrom("contents")
      .select("id")
      .where("price_type", "=", "paid")
      .where("status", "=", "active")
      .orderBy("id", "desc")
      .limit(2)
      .execute();
    for (const [i, method] of (["card", "vbank"] as const).entries()) {
      const placed = await placeOrder(db, call.payments, {
        buyer: { id: s.userId, userType: 1, email: s.email },
        items: [{ kind: "content", id: items[i].id }],
        license: { licenseId: s.licenseId },
        method,
        locale: "en",
        idempotencyKey: `${s.userId}:mail-${method}`,
        origin: "http://store.test",
      });
      await sandbox.act(placed.orderNo, "approve");
      await sandbox.settled();
    }
    const mails = await mailTo(s.email);
    expect(mails.map((m) => m.kind)).toEqual(["welcome", "receipt", "vbank"]);
    // The deposit lands: the virtual-account order completes and its receipt confirms the deposit.
    const vbankOrder = await db
      .selectFrom("orders")
      .select("order_no")
      .where("user_id", "=", s.userId)
      .where("method", "=", "vbank")
      .executeTakeFirstOrThrow();
    await sandbox.act(vbankOrder.order_no, "deposit");
    await sandbox.settled();
    const deposit = (await mailTo(s.email)).find((m) => m.kind === "deposit");
    expect(deposit?.subject).toBe(`[VideoAsset Market] Deposit received for payment ${vbankOrder.order_no}`);
    expect(mails[1].subject).toMatch(/^\[VideoAsset Market\] Receipt for payment MKT-/);
    expect(mails[2].body_text).toMatch(/Deposit .* by .* \(KST\) to:\n.+ \d{13}/);
    expect(mails[1].body_html).toContain("%PUBLIC_URL%/mypage/pay/");
  });

  it("over SMTP: delivered to a real server; SMTP down loses nothing and retries later; concurrent workers send each message once", async () => {
    await deliver();
    const smtp = await startSmtp();
    const viaSmtp = createSmtpTransport(`smtp://127.0.0.1:${smtp.port}`);
    for (let i = 0; i < 6; i++)
      await joinMarket(db, {
        email: `smtp-${i}@example.com`,
        password: "long-enough-pw",
        nickname: `S${i}`,
        marketEmailAgree: false,
        language: "en",
      });
    const results = await Promise.all([deliver(viaSmtp), deliver(viaSmtp), deliver(viaSmtp)]);
    expect(results.reduce((n, r) => n + r.sent, 0)).toBe(6);
    expect(smtp.received.map((m) => m.to[0]).sort()).toEqual(Array.from({ length: 6 }, (_, i) => `smtp-${i}@example.com`));
    expect(smtp.received[0].raw).toContain("Subject: Welcome to VideoAsset Market");
    await smtp.close();
    viaSmtp.close?.();

    // The server is gone: the message stays queued with a later attempt, and goes out once it is back.
    await joinMarket(db, {
      email: "smtp-late@example.com",
      password: "long-enough-pw",
      nickname: "Late",
      marketEmailAgree: false,
      language: "en",
    });
    const down = createSmtpTransport(`smtp://127.0.0.1:${smtp.port}`);
    expect(await deliver(down)).toEqual({ sent: 0, failed: 1 });
    const [waiting] = await mailTo("smtp-late@example.com");
    expect(waiting).toMatchObject({ status: "queued", attempts: 1 });
    expect(Date.parse(waiting.next_attempt_at as string)).toBeGreaterThan(Date.now());
    expect((await deliver(down)).failed).toBe(0);
    const back = await startSmtp();
    const again = createSmtpTransport(`smtp://127.0.0.1:${back.port}`);
    expect((await deliver(again, new Date(Date.now() + 60_000))).sent).toBe(1);
    expect(back.received.map((m) => m.to[0])).toEqual(["smtp-late@example.com"]);
    expect((await mailTo("smtp-late@example.com"))[0]).toMatchObject({ status: "sent", attempts: 2 });
    await back.close();
    again.close?.();
    expect(MAX_ATTEMPTS).toBeGreaterThan(3);
  });

  it("a newsletter carries one-click unsubscribe headers; the link and the one-click POST stop marketing mail, no login", async () => {
    const a = await joinMarket(db, {
      email: "news-a@example.com",
      password: "long-enough-pw",
      nickname: "A",
      marketEmailAgree: true,
      language: "en",
    });
    const b = await joinMarket(db, {
      email: "news-b@example.com",
      password: "long-enough-pw",
      nickname: "B",
      marketEmailAgree: true,
      language: "ko",
    });
    if (!a.ok || !b.ok) throw new Error("join failed");
    await joinMarket(db, {
      email: "news-no@example.com",
      password: "long-enough-pw",
      nickname: "N",
      marketEmailAgree: false,
      language: "en",
    });
    expect(
      await queueNewsletter(db, { subject: { ko: "11월 소식", en: "November news" }, body: { ko: "새 음악", en: "New music" } }, SECRET),
    ).toBeGreaterThanOrEqual(2);
    const [letterA] = (await mailTo("news-a@example.com")).filter((m) => m.kind === "newsletter");
    expect(await mailTo("news-no@example.com").then((l) => l.filter((m) => m.kind === "newsletter"))).toHaveLength(0);
    const headers = JSON.parse(letterA.headers as string);
    expect(headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(headers["List-Unsubscribe"]).toBe(`<%PUBLIC_URL%/rejection?token=${unsubscribeToken(a.user.id, SECRET)}>`);
    await deliver();
    // Long header lines are folded (RFC 5322): unfold before reading.
    const eml = fs.readFileSync(path.join(outbox, `${letterA.id}.eml`), "utf8").replace(/\r?\n[ \t]+/g, " ");
    expect(eml).toContain(`List-Unsubscribe: <https://market.example.test/rejection?token=${unsubscribeToken(a.user.id, SECRET)}>`);

    const agree = async (id: number) =>
      (await db.selectFrom("users").select("market_email_agree").where("id", "=", id).executeTakeFirstOrThrow()).market_email_agree;
    const tokenA = unsubscribeToken(a.user.id, SECRET);
    const page = await call(`/rejection?token=${tokenA}`, { headers: { cookie: "lng=en" } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("n***@example.com");
    const confirm = await call("/rejection", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: "lng=en" },
      body: new URLSearchParams({ token: tokenA }),
    });
    expect(confirm.headers.get("location")).toBe("/rejec-complete");
    expect(await agree(a.user.id)).toBe(0);
    expect(await (await call("/rejec-complete", { headers: { cookie: "lng=en" } })).text()).toContain("You are unsubscribed");

    const oneClick = await call(`/rejection?token=${unsubscribeToken(b.user.id, SECRET)}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.status).toBe(200);
    expect(await agree(b.user.id)).toBe(0);

    // A tampered token (another member's id with this one's signature) opens nothing.
    const [, mac] = tokenA.split(".");
    const forged = `${Buffer.from(String(b.user.id)).toString("base64url")}.${mac}`;
    const bad = await call(`/rejection?token=${forged}`, { headers: { cookie: "lng=en" } });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("This unsubscribe link is not valid.");
    const post = (token: string) =>
      call("/rejection", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: "lng=en" },
        body: new URLSearchParams({ token }),
      });
    // A bad token goes back to its page; one longer than any the store signs is not echoed into the Location header.
    expect((await post(forged)).headers.get("location")).toBe(`/rejection?token=${encodeURIComponent(forged)}`);
    const long = await post("A".repeat(70_000));
    expect(long.status).toBe(302);
    expect(long.headers.get("location")).toBe("/rejection");
    const landing = await call("/rejection", { headers: { cookie: "lng=en" } });
    expect(landing.status).toBe(400);
    expect(await landing.text()).toContain("This unsubscribe link is not valid.");
  });

  it("POST mail/send sends the receipt of one's own paid order again, and nobody else's; it is rate-limited", async () => {
    const s = await newShopper(db);
    const sandbox = call.payments.sandbox as SandboxGateway;
    const [item] = await db
      .selectFrom("contents")
      .select("id")
      .where("price_type", "=", "paid")
      .where("status", "=", "active")
      .orderBy("id", "desc")
      .offset(5)
      .limit(1)
      .execute();
    const placed = await placeOrder(db, call.payments, {
      buyer: { id: s.userId, userType: 1, email: s.email },
      items: [{ kind: "content", id: item.id }],
      license: { licenseId: s.licenseId },
      method: "card",
      locale: "en",
      idempotencyKey: `${s.userId}:resend`,
      origin: "http://store.test",
    });
    await sandbox.act(placed.orderNo, "approve");
    await sandbox.settled();
    const order = await db.selectFrom("orders").select("id").where("order_no", "=", placed.orderNo).executeTakeFirstOrThrow();
    const send = (token: string, orderId: number, ip = "198.51.100.90") =>
      call("/api/v1/mail/send", {
        method: "POST",
        ip,
        headers: { authorizationToken: token, "content-type": "application/json" },
        body: JSON.stringify({ type: "receipt", order_id: orderId }),
      });
    const before = (await mailTo(s.email)).filter((m) => m.kind === "receipt").length;
    const res = await send(s.token, order.id);
    expect(res.status).toBe(200);
    expect((await res.json()).data.to).toBe(s.email);
    expect((await mailTo(s.email)).filter((m) => m.kind === "receipt")).toHaveLength(before + 1);
    const other = await newShopper(db);
    expect((await send(other.token, order.id)).status).toBe(404);
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) codes.push((await send(s.token, order.id, "198.51.100.91")).status);
    expect(codes).toContain(429);
  });

  it("the outbox is test mode and for an operator who may see members' data, whatever the address or proxy headers", async () => {
    const [one] = await db.selectFrom("mail_outbox").select(["id", "subject"]).orderBy("id", "desc").limit(1).execute();
    // A copy of its .eml where the outbox transport of a store on `emlDir` keeps it.
    const emlDir = fs.mkdtempSync(path.join(os.tmpdir(), "outbox-data-"));
    fs.mkdirSync(path.join(emlDir, "outbox"));
    fs.writeFileSync(path.join(emlDir, "outbox", `${one.id}.eml`), "Subject: kept\r\n\r\nBody\r\n");
    const emlApp = await createTestApp(db, { dataDir: emlDir });
    const pages = [`/outbox`, `/outbox/${one.id}`];
    const eml = `/outbox/${one.id}/eml`;
    // Nobody signed in, from the store's own machine or a reverse proxy on it, with any forwarded headers: nothing.
    const proxied = { "x-forwarded-for": "127.0.0.1", "x-real-ip": "127.0.0.1", forwarded: "for=127.0.0.1", cookie: "lng=en" };
    for (const ip of ["127.0.0.1", "::1", "::ffff:127.0.0.1", "203.0.113.50"]) {
      for (const page of pages) {
        expect((await call(page, { ip, headers: proxied })).status, `${page} from ${ip}`).toBe(404);
        expect((await call(page, { ip })).status, `${page} from ${ip}`).toBe(404);
      }
      expect((await emlApp(eml, { ip, headers: proxied })).status, `${eml} from ${ip}`).toBe(404);
    }
    // A member, an operator whose role does not reach members' data: nothing either.
    const member = await newShopper(db);
    for (const page of pages) expect((await call(page, { ip: "127.0.0.1", headers: { cookie: member.jar.header } })).status).toBe(404);
    const catalog = await signInOperator(call, "catalog", "198.51.100.96");
    for (const page of pages) expect((await call(page, { ip: "127.0.0.1", headers: { cookie: catalog } })).status).toBe(404);
    expect((await emlApp(eml, { ip: "127.0.0.1", headers: { cookie: catalog } })).status).toBe(404);

    // A support operator (or an administrator) reads it from wherever they are; opening a mail is a line of the audit log.
    const support = await signInOperator(call, "support", "198.51.100.95");
    const list = await call("/outbox", { ip: "203.0.113.50", headers: { cookie: `${support}; lng=en` } });
    expect(list.status).toBe(200);
    expect(list.headers.get("cache-control")).toContain("no-store");
    const shown = await call(`/outbox/${one.id}`, { ip: "203.0.113.50", headers: { cookie: support } });
    expect(shown.status).toBe(200);
    const file = await emlApp(eml, { ip: "203.0.113.50", headers: { cookie: support } });
    expect(file.status).toBe(200);
    expect(await file.text()).toContain("Subject: kept");
    const read = await db.selectFrom("audit_log").selectAll().where("target_type", "=", "mail").orderBy("seq").execute();
    expect(read.map((r) => [r.action, r.target_id, r.operator_email])).toEqual([
      ["mail.view", String(one.id), OPERATOR_EMAIL.support],
      ["mail.download", String(one.id), OPERATOR_EMAIL.support],
    ]);
    const admin = await signInOperator(call, "admin", "198.51.100.97");
    expect((await call("/outbox", { ip: "203.0.113.51", headers: { cookie: admin } })).status).toBe(200);
    // Not in test mode (SMTP), not even for an operator.
    const smtpApp = await createTestApp(db, { dataDir: outbox, env: { MAIL_TRANSPORT: "smtp", SMTP_URL: "smtp://127.0.0.1:2525" } });
    expect((await smtpApp("/outbox", { ip: "127.0.0.1", headers: { cookie: support } })).status).toBe(404);
    fs.rmSync(emlDir, { recursive: true, force: true });
  });
});
