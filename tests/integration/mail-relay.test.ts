/**
 * The store is not a mail relay (issue 25, point 5). Every address a visitor types is unverified, so the mail the
 * store sends there on the visitor's word carries none of the visitor's words, and cannot be sent in bulk:
 * - an inquiry's acknowledgement quotes its title only to the signed-in member's own address; a visitor's address,
 *   or another address a member typed, gets the brief acknowledgement without the title or the text;
 * - joining answers a taken e-mail as it answers a free one (the same redirect; only no session), and the address's
 *   owner is told by mail that someone tried, at most once a day;
 * - the welcome mail (which no longer quotes the nickname) and that notice go at most once a day to an address and
 *   ten a day from one client address (RULES.joinMailRecipient, RULES.joinMailAddress); past them the join goes on.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { DEMO } from "../../app/db/seed/index.server";
import { createLocalStorage } from "../../app/integrations/storage/local.server";
import { RULES } from "../../app/market/rate-limits.server";
import { fileInquiry } from "../../app/market/support.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";

type Call = Awaited<ReturnType<typeof createTestApp>>;
const join = (fields: Record<string, string>, ip: string) => ({
  method: "POST",
  body: new URLSearchParams({ password: "long-enough-pw", agreeTerms: "on", ...fields }),
  headers: { "content-type": "application/x-www-form-urlencoded", "accept-language": "en" },
  ip,
});
/** What a spammer would want carried: a link and a pitch, in the fields a visitor fills. */
const PITCH = "Claim your prize at prize.example";

describe(`the store is not a mail relay, on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let dataDir: string;
  let call: Call;
  const mailsTo = (to: string) =>
    db
      .selectFrom("mail_outbox")
      .select(["kind", "language", "subject", "body_text", "body_html"])
      .where("to_address", "=", to)
      .orderBy("id")
      .execute();
  const carries = (m: { subject: string; body_text: string; body_html: string | null }, text: string) =>
    [m.subject, m.body_text, m.body_html ?? ""].some((part) => part.includes(text));

  beforeAll(async () => {
    const t = await createTestDb();
    ({ db, drop, dataDir } = t);
    call = await createTestApp(db, { dataDir });
  });
  afterAll(() => drop());

  it("acknowledges an inquiry with its title only to the member's own address; others get no word of the text", async () => {
    const storage = createLocalStorage(dataDir);
    const member = await db.selectFrom("users").select(["id", "email"]).where("email", "=", DEMO.member.email).executeTakeFirstOrThrow();
    const inquiry = { category: "payment" as const, description: `${PITCH}, details inside`, language: "en" as const };

    // A visitor, signed out, naming a stranger's address (through the page, as a spammer would).
    const form = new FormData();
    for (const [k, v] of Object.entries({ ...inquiry, title: `${PITCH} now`, email: "stranger@example.com" })) form.append(k, v);
    const sent = await call("/support/question", { method: "POST", headers: { "accept-language": "en" }, body: form, ip: "203.0.113.51" });
    expect(sent.status).toBe(302);
    const [toStranger] = await mailsTo("stranger@example.com");
    expect(toStranger).toMatchObject({ kind: "inquiryReceivedBrief", subject: "[VideoAsset Market] We received an inquiry" });
    expect(carries(toStranger, "prize.example")).toBe(false);
    expect(toStranger.body_text).toContain("If you did not write to us, you can ignore this message.");

    // A member naming another address than their own: still unverified, still brief.
    await fileInquiry(db, storage, member.id, { ...inquiry, title: `Other address ${PITCH}`, email: "Someone.Else@Example.com" });
    const [toOther] = await mailsTo("someone.else@example.com");
    expect(toOther.kind).toBe("inquiryReceivedBrief");
    expect(carries(toOther, "prize.example")).toBe(false);

    // A member's own address: the title is quoted, as before.
    await fileInquiry(db, storage, member.id, { ...inquiry, title: "Where is my receipt", email: member.email.toUpperCase() });
    const own = (await mailsTo(member.email)).filter((m) => m.kind?.startsWith("inquiryReceived"));
    expect(own).toHaveLength(1);
    expect(own[0].kind).toBe("inquiryReceived");
    expect(own[0].body_text).toContain('"Where is my receipt"');
    expect(carries(own[0], "prize.example")).toBe(false);
  });

  it("answers a taken e-mail as it answers a free one (no session), and tells the owner once a day", async () => {
    const free = await call("/join", join({ email: "fresh-joiner@example.com", nickname: "Fresh" }, "203.0.113.61"));
    const taken = await call("/join", join({ email: DEMO.business.email, nickname: PITCH.slice(0, 30) }, "203.0.113.62"));
    expect(taken.status).toBe(free.status);
    expect(taken.status).toBe(302);
    expect(taken.headers.get("location")).toBe(free.headers.get("location"));
    const sessionCookies = (res: Response) => res.headers.getSetCookie().filter((c) => /^(gt|gsi)=[^;]/.test(c));
    expect(sessionCookies(free)).toHaveLength(2);
    expect(sessionCookies(taken)).toEqual([]);
    // Where the taken one lands: the visitor's welcome, asking to sign in; nothing of the address or the account.
    const landing = await call(taken.headers.get("location") as string, { headers: { "accept-language": "en" } });
    const page = await call(landing.headers.get("location") as string, { headers: { "accept-language": "en" } });
    const html = (await page.text()).replaceAll("<!-- -->", "");
    expect(html).toContain("If you have just made your account, sign in to the market");
    expect(html).not.toContain(DEMO.business.email);

    // The owner hears of it, in the account's language, in fixed words: nothing the visitor typed.
    const owner = await db.selectFrom("users").select("language").where("email", "=", DEMO.business.email).executeTakeFirstOrThrow();
    const notices = (await mailsTo(DEMO.business.email)).filter((m) => m.kind === "joinAttempt");
    expect(notices).toHaveLength(1);
    expect(notices[0].language).toBe(owner.language === "en" ? "en" : "ko");
    expect(carries(notices[0], "prize.example")).toBe(false);
    expect(notices[0].body_html).toContain("%PUBLIC_URL%/login");
    // No account was made or changed.
    expect(await db.selectFrom("users").select("id").where("email", "=", DEMO.business.email).execute()).toHaveLength(1);

    // Again the same day, from elsewhere: the same answer, no second notice.
    const again = await call("/join", join({ email: DEMO.business.email, nickname: "Again" }, "203.0.113.63"));
    expect(again.status).toBe(302);
    expect((await mailsTo(DEMO.business.email)).filter((m) => m.kind === "joinAttempt")).toHaveLength(1);
  });

  it("welcomes at most ten new addresses a day from one client address, quoting no nickname; the joins go on", async () => {
    const ip = "203.0.113.71";
    const cap = RULES.joinMailAddress.limit;
    expect(cap).toBe(10);
    const addresses = Array.from({ length: cap + 2 }, (_, i) => `bulk-${i}@example.com`);
    for (const email of addresses) {
      const res = await call("/join", join({ email, nickname: PITCH.slice(0, 30) }, ip));
      expect(res.status, email).toBe(302);
      expect(
        res.headers.getSetCookie().some((c) => /^gt=[^;]/.test(c)),
        email,
      ).toBe(true);
    }
    const welcomed: string[] = [];
    for (const email of addresses) {
      const mails = (await mailsTo(email)).filter((m) => m.kind === "welcome");
      for (const m of mails) expect(carries(m, "prize.example"), email).toBe(false);
      if (mails.length) welcomed.push(email);
    }
    expect(welcomed).toEqual(addresses.slice(0, cap));
    const made = await db.selectFrom("users").select("email").where("email", "like", "bulk-%@example.com").execute();
    expect(made).toHaveLength(addresses.length);
    // Another client address still gets its own welcome.
    await call("/join", join({ email: "elsewhere@example.com", nickname: "Elsewhere" }, "203.0.113.72"));
    expect((await mailsTo("elsewhere@example.com")).map((m) => m.kind)).toEqual(["welcome"]);
  }, 60_000);
});
