/**
 * Every mail of the store, in both languages, through a real SMTP server started here (smtp-server), read back with
 * mailparser as a mail client would: each arrives once, to its recipient, in the recipient's language, with an HTML
 * and a text body that say the same, and links on PUBLIC_URL whose pages exist; marketing mail carries the RFC 8058
 * one-click headers, and its link unsubscribes.
 */
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { DEMO } from "../../app/db/seed/index.server";
import { DEMO_REQUESTS } from "../../app/db/seed/requests";
import type { Locale } from "../../app/i18n/config";
import { createSmtpTransport } from "../../app/integrations/mail/transport.server";
import type { ComposedMail } from "../../app/market/mail/compose.server";
import {
  inquiryAnsweredMail,
  inquiryReceivedMail,
  joinAttemptMail,
  newsletterMail,
  receiptMail,
  refundMail,
  requestPaidMail,
  requestToRepresentativeMail,
  requestToRequesterMail,
  vbankCancelledMail,
  vbankMail,
  welcomeMail,
} from "../../app/market/mail/messages.server";
import { queueMail } from "../../app/market/mail/queue.server";
import { unsubscribePath } from "../../app/market/mail/unsubscribe.server";
import { deliverDueMail } from "../../app/market/mail/worker.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";

const SECRET = "test-secret-test-secret";
const PUBLIC = "http://store.test";
const HANGUL = /[\uAC00-\uD7A3]/;

async function startSmtp() {
  const received: { to: string[]; raw: Buffer }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  return { received, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** One of each mail the store sends, to its own address (kind.locale@mail.test), with ASCII facts. */
function everyMail(locale: Locale, memberId: number, orderId: number): ComposedMail[] {
  const to = (kind: string) => `${kind}.${locale}@mail.test`;
  const order = { orderNo: "MKT-20261126-0000ABCD", orderId, name: "Ocean 61", total: "KRW 25,900" };
  const quotePath = `/mypage/estimate?token=${DEMO_REQUESTS.quotes.waiting}`;
  return [
    welcomeMail(to("welcome"), locale),
    joinAttemptMail(to("joinAttempt"), locale),
    receiptMail(to("receipt"), locale, order, true),
    receiptMail(to("receiptKey"), locale, order, false),
    receiptMail(to("deposit"), locale, order, true, true),
    vbankMail(to("vbank"), locale, { ...order, bank: "KB", account: "123-456", holder: "VideoAsset", due: "2026-12-01 23:59" }),
    vbankCancelledMail(to("vbankCancelled"), locale, { orderNo: order.orderNo, name: order.name, total: order.total, due: "2026-12-01" }),
    refundMail(to("refund"), locale, { ...order, refund: "KRW 25,900", deduction: "KRW 0" }),
    requestToRepresentativeMail(to("requestRep"), locale, {
      requestNo: "REQ-20261126-00000001",
      requestId: 1,
      email: "editor@studio.test",
      serial: "VEDT-B2B-0002-DEMO",
      message: "for the launch",
      items: "Ocean 61",
      quotePath,
    }),
    requestToRequesterMail(to("requestRequester"), locale, {
      requestNo: "REQ-20261126-00000001",
      serial: "VEDT-B2B-0002-DEMO",
      items: "Ocean 61",
      quotePath,
    }),
    requestPaidMail(to("requestPaid"), locale, "REQ-20261126-00000001"),
    inquiryReceivedMail(to("inquiryReceived"), locale, { title: "Refund", quoted: true }),
    inquiryReceivedMail(to("inquiryReceivedBrief"), locale, { title: "Refund", quoted: false }),
    inquiryAnsweredMail(to("inquiryAnswered"), locale, { title: "Refund", answer: "Done.", path: "/mypage/qna/1" }),
    newsletterMail(to("newsletter"), locale, {
      subject: locale === "ko" ? "11월 새 콘텐츠" : "New in November",
      body: locale === "ko" ? "새 영상이 들어왔습니다." : "New clips are in.",
      unsubscribePath: unsubscribePath(memberId, SECRET),
    }),
  ];
}

describe(`every mail over SMTP, read back with mailparser, on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Awaited<ReturnType<typeof createTestApp>>;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let memberId: number;
  const parsed = new Map<string, ParsedMail[]>();
  const sent: ComposedMail[] = [];

  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    call = await createTestApp(db, { dataDir: t.dataDir, env: { PUBLIC_URL: PUBLIC } });
    await db.updateTable("mail_outbox").set({ status: "sent" }).execute();
    const member = await db.selectFrom("users").select("id").where("email", "=", DEMO.member.email).executeTakeFirstOrThrow();
    memberId = member.id;
    await db.updateTable("users").set({ market_email_agree: 1 }).where("id", "=", memberId).execute();
    const order = await db.selectFrom("orders").select("id").orderBy("id").limit(1).executeTakeFirst();
    smtp = await startSmtp();
    for (const locale of ["ko", "en"] as const)
      for (const mail of everyMail(locale, memberId, order?.id ?? 1)) {
        sent.push(mail);
        await queueMail(db, mail);
      }
    const transport = createSmtpTransport(`smtp://127.0.0.1:${smtp.port}`);
    // Two workers at once: each message still goes out once.
    await Promise.all([1, 2].map(() => deliverDueMail(db, { transport, publicUrl: PUBLIC, from: "Store <no-reply@store.test>" })));
    await deliverDueMail(db, { transport, publicUrl: PUBLIC, from: "Store <no-reply@store.test>" });
    transport.close?.();
    for (const m of smtp.received) {
      const mail = await simpleParser(m.raw);
      const list = parsed.get(m.to[0]) ?? [];
      list.push(mail);
      parsed.set(m.to[0], list);
    }
  }, 60_000);
  afterAll(async () => {
    await smtp?.close();
    await drop();
  });

  it("delivers each of the 15 mails in both languages once, to its recipient", () => {
    expect(sent).toHaveLength(30);
    expect([...parsed.keys()].sort()).toEqual(sent.map((m) => m.to).sort());
    for (const [to, list] of parsed) expect(list.length, to).toBe(1);
  });

  it("writes each in the recipient's language: subject, HTML and text, the html lang and the sender", () => {
    for (const m of sent) {
      const [mail] = parsed.get(m.to) ?? [];
      expect(mail, m.to).toBeTruthy();
      expect(mail.subject).toBe(m.subject);
      expect(mail.from?.text).toContain("no-reply@store.test");
      expect(mail.html || "", m.to).toContain(`<html lang="${m.language}">`);
      const text = mail.text ?? "";
      expect(text.length).toBeGreaterThan(20);
      if (m.language === "ko") {
        expect(HANGUL.test(mail.subject ?? ""), `${m.to} subject`).toBe(true);
        expect(HANGUL.test(text), `${m.to} text`).toBe(true);
      } else {
        expect(HANGUL.test(mail.subject ?? ""), `${m.to} subject`).toBe(false);
        expect(HANGUL.test(text), `${m.to} text`).toBe(false);
      }
      // The text body carries the same heading as the HTML.
      const heading = /<h1[^>]*>([^<]+)<\/h1>/.exec(mail.html || "")?.[1] ?? "";
      expect(text).toContain(heading.replaceAll("&#39;", "'").replaceAll("&amp;", "&"));
    }
  });

  it("links only to the store's public address, and every linked page exists", async () => {
    const missing: string[] = [];
    const paths = new Set<string>();
    for (const m of sent) {
      const [mail] = parsed.get(m.to) ?? [];
      const links = [...(mail.html || "").matchAll(/href="([^"]+)"/g)].map((x) => x[1].replaceAll("&amp;", "&"));
      const textLinks = [...(mail.text ?? "").matchAll(/https?:\/\/\S+/g)].map((x) => x[0]);
      // Mails that point nowhere: a key buyer's receipt (no member page), a paid request, an inquiry received.
      if (!["receiptKey", "requestPaid", "inquiryReceived", "inquiryReceivedBrief"].includes(m.kind))
        expect(links.length, m.to).toBeGreaterThan(0);
      for (const link of [...links, ...textLinks]) {
        expect(link.startsWith(`${PUBLIC}/`), `${m.to}: ${link}`).toBe(true);
        paths.add(link.slice(PUBLIC.length));
      }
    }
    for (const p of paths) {
      const res = await call(p);
      // A member's page sends a visitor to sign in (302); a page that does not exist goes to /404.
      if (res.status >= 500 || res.status === 404 || (res.headers.get("location") ?? "").startsWith("/404"))
        missing.push(`${p} → ${res.status}`);
    }
    expect(missing).toEqual([]);
  });

  it("gives the newsletter one-click unsubscribe headers (RFC 8058) whose address unsubscribes the member, no login", async () => {
    for (const locale of ["ko", "en"]) {
      const [mail] = parsed.get(`newsletter.${locale}@mail.test`) ?? [];
      // As a mail client reads them: the raw header lines (mailparser folds List-* headers into one object).
      const line = (name: string) =>
        mail.headerLines
          .find((h) => h.key === name)
          ?.line.slice(name.length + 1)
          .replace(/\s+/g, " ")
          .trim() ?? "";
      expect(line("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
      const url = line("list-unsubscribe").replace(/[<>]/g, "");
      expect(url.startsWith(`${PUBLIC}/rejection?token=`)).toBe(true);
      // Other mail is not marketing: no unsubscribe header.
      const [receipt] = parsed.get(`receipt.${locale}@mail.test`) ?? [];
      expect(receipt.headerLines.some((h) => h.key === "list-unsubscribe")).toBe(false);
      if (locale === "en") {
        const oneClick = await call(url.slice(PUBLIC.length), {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: "List-Unsubscribe=One-Click",
        });
        expect(oneClick.status).toBeLessThan(400);
        const row = await db.selectFrom("users").select("market_email_agree").where("id", "=", memberId).executeTakeFirstOrThrow();
        expect(row.market_email_agree).toBe(0);
      }
    }
  });
});
