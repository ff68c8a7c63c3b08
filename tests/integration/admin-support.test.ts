import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { GUIDE_SEED } from "../../app/db/migrations/0019_support_console";
import { createLocalStorage } from "../../app/integrations/storage/local.server";
import { fileInquiry } from "../../app/market/support.server";
import { FORM_SAMPLES, PARAMS } from "../e2e/admin-samples/support";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { OPERATOR_EMAIL, signInOperator } from "../support/operator";
import { newShopper } from "../support/shopper";

type Call = Awaited<ReturnType<typeof createTestApp>>;
type Shopper = Awaited<ReturnType<typeof newShopper>>;

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4, 5]);
const clean = (s: string) =>
  s
    .replaceAll("<!-- -->", "")
    .replaceAll("&#x27;", "'")
    .replaceAll("&quot;", '"')
    .replaceAll("&amp;", "&")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">");

describe(`operator console support: inquiries, the FAQ and the user guide on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let dataDir: string;
  let call: Call;
  let support: string;
  let catalog: string;
  let member: Shopper;
  let memberInquiry: number;
  let guestInquiry: number;
  let oldInquiry: number;

  beforeAll(async () => {
    const t = await createTestDb();
    ({ db, drop, dataDir } = t);
    call = await createTestApp(db, { dataDir });
    support = await signInOperator(call, "support", "198.51.100.131");
    catalog = await signInOperator(call, "catalog", "198.51.100.132");
    member = await newShopper(db);
    oldInquiry = await fileInquiry(
      db,
      createLocalStorage(dataDir),
      member.userId,
      { category: "payment", title: "An old payment question", description: "Old.", email: member.email, language: "en" },
      new Date("2026-01-05T03:00:00Z"),
    );
    memberInquiry = await fileInquiry(
      db,
      createLocalStorage(dataDir),
      member.userId,
      {
        category: "download",
        title: "My download is missing",
        description: "I paid yesterday.\nThe item is not in the editor.",
        email: member.email,
        attachment: PNG,
        language: "en",
      },
      new Date("2026-11-20T03:00:00Z"),
    );
    guestInquiry = await fileInquiry(
      db,
      createLocalStorage(dataDir),
      null,
      { category: "refund", title: "환불 문의합니다", description: "환불해 주세요.", email: "guest@example.com", language: "ko" },
      new Date("2026-11-21T03:00:00Z"),
    );
  }, 60_000);
  afterAll(async () => drop());

  const get = async (path: string, cookie = support, lang: "en" | "ko" = "en") => {
    const res = await call(path, { headers: { cookie, "accept-language": lang }, ip: "198.51.100.133" });
    return { res, html: clean(await res.text()) };
  };
  const post = async (path: string, fields: Record<string, string>, cookie = support, lang: "en" | "ko" = "en") => {
    const res = await call(path, {
      method: "POST",
      headers: { cookie, "accept-language": lang, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields),
      ip: "198.51.100.134",
    });
    return { res, html: clean(await res.text()) };
  };
  const store = async (path: string, lang: "en" | "ko" = "en", cookie?: string) => {
    const res = await call(path, { headers: { "accept-language": lang, ...(cookie ? { cookie } : {}) } });
    return { res, html: clean(await res.text()) };
  };
  const audit = (action: string, targetId?: string | number) => {
    let q = db.selectFrom("audit_log").selectAll().where("action", "=", action);
    if (targetId !== undefined) q = q.where("target_id", "=", String(targetId));
    return q.orderBy("id").execute();
  };

  it("lists every member's and guest's inquiries newest first, filtered by status, category and day", async () => {
    const all = await get("/admin/inquiries");
    expect(all.res.status).toBe(200);
    expect(all.res.headers.get("cache-control")).toContain("no-store");
    const order = [guestInquiry, memberInquiry, oldInquiry].map((id) => all.html.indexOf(`href="/admin/inquiries/${id}"`));
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(all.html).toContain("guest@example.com");
    expect(all.html).toContain("Guest");
    const refunds = await get("/admin/inquiries?category=refund");
    expect(refunds.html).toContain("환불 문의합니다");
    expect(refunds.html).not.toContain("My download is missing");
    const november = await get("/admin/inquiries?from=2026-11-01&to=2026-11-20");
    expect(november.html).toContain("My download is missing");
    expect(november.html).not.toContain("An old payment question");
    expect(november.html).not.toContain("환불 문의합니다");
    // Unreadable filters are dropped, never an error.
    const odd = await get("/admin/inquiries?status=nope&category=%27&from=2026-13-45&page=-3");
    expect(odd.res.status).toBe(200);
    expect(odd.html).toContain("An old payment question");
    // Korean.
    const ko = await get("/admin/inquiries?status=accepted", support, "ko");
    expect(ko.html).toContain("1:1 문의");
    expect(ko.html).toContain("접수");
  });

  it("shows one inquiry with its member and text, and serves its attachment to operators of the area only", async () => {
    const page = await get(`/admin/inquiries/${memberInquiry}`);
    expect(page.res.status).toBe(200);
    expect(page.html).toContain("<h1>My download is missing</h1>");
    expect(page.html).toContain(`Buyer (${member.email}, member no. ${member.userId})`);
    expect(page.html).toContain("The item is not in the editor.");
    expect(page.html).toContain(`href="/admin/inquiries/${memberInquiry}/attachment"`);
    const file = await call(`/admin/inquiries/${memberInquiry}/attachment`, { headers: { cookie: support } });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/png");
    expect(file.headers.get("cache-control")).toBe("private, no-store");
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(PNG);
    // Another role, a member, a visitor: no file.
    expect((await call(`/admin/inquiries/${memberInquiry}/attachment`, { headers: { cookie: catalog } })).status).toBe(403);
    const asMember = await call(`/admin/inquiries/${memberInquiry}/attachment`, { headers: { cookie: member.jar.header } });
    expect(asMember.status).toBe(302);
    expect(asMember.headers.get("location")).toMatch(/^\/admin\/login/);
    // None attached, none at all: 404.
    expect((await call(`/admin/inquiries/${guestInquiry}/attachment`, { headers: { cookie: support } })).status).toBe(404);
    expect((await get("/admin/inquiries/999999")).res.status).toBe(404);
    expect((await get("/admin/inquiries/abc")).res.status).toBe(404);
    const guest = await get(`/admin/inquiries/${guestInquiry}`, support, "ko");
    expect(guest.html).toContain("비회원(로그인하지 않음)");
    expect(guest.html).toContain("첨부 파일이 없습니다.");
  });

  it("answers an inquiry: the member sees the answer on My page, the answer mail is queued and the audit line written", async () => {
    const path = `/admin/inquiries/${memberInquiry}`;
    // An empty answer: 400, the page says so, nothing changes.
    const empty = await post(path, { answer: "   " });
    expect(empty.res.status).toBe(400);
    expect(empty.html).toContain("Write the answer before sending it.");
    const long = await post(path, { answer: `Keep this ${"x".repeat(5001)}` });
    expect(long.res.status).toBe(400);
    expect(long.html).toContain("The answer is too long");
    expect(long.html).toContain("Keep this xxx");
    expect((await db.selectFrom("support_tickets").select("status").where("id", "=", memberInquiry).executeTakeFirstOrThrow()).status).toBe(
      "accepted",
    );
    expect(await audit("inquiry.answer", memberInquiry)).toHaveLength(0);

    const mailsBefore = await db.selectFrom("mail_outbox").select("id").where("to_address", "=", member.email).execute();
    const answer = "It is in the editor now: open Downloads and refresh.";
    const done = await post(path, { answer });
    expect(done.res.status).toBe(200);
    expect(done.html).toContain("The answer was saved and its e-mail queued for the sender.");
    expect(done.html).toContain("Answered");
    const row = await db.selectFrom("support_tickets").selectAll().where("id", "=", memberInquiry).executeTakeFirstOrThrow();
    expect(row.status).toBe("completed");
    expect(row.answer).toBe(answer);
    expect(row.answered_at).toBeTruthy();
    const mails = await db.selectFrom("mail_outbox").selectAll().where("to_address", "=", member.email).orderBy("id").execute();
    expect(mails.length).toBe(mailsBefore.length + 1);
    const mail = mails[mails.length - 1];
    expect(mail.body_text).toContain(answer);
    expect(mail.body_text).toContain(`/mypage/qna/${memberInquiry}`);
    const [line] = await audit("inquiry.answer", memberInquiry);
    expect(line.operator_email).toBe(OPERATOR_EMAIL.support);
    expect(line.target_type).toBe("inquiry");
    expect(JSON.parse(line.before_json ?? "{}")).toEqual({ status: "accepted", answer: null });
    expect(JSON.parse(line.after_json ?? "{}")).toEqual({ status: "completed", answer });

    const mine = await store(`/mypage/qna/${memberInquiry}`, "en", member.jar.header);
    expect(mine.res.status).toBe(200);
    expect(mine.html).toContain(answer);
    expect(mine.html).toContain("Answered inquiries can't be edited.");
  });

  it("changes a sent answer only with a reason, keeping what was typed, and logs the change", async () => {
    const path = `/admin/inquiries/${memberInquiry}`;
    const page = await get(path);
    expect(page.html).toContain("Change the answer");
    const noReason = await post(path, { answer: "A corrected answer.", reason: "" });
    expect(noReason.res.status).toBe(400);
    expect(noReason.html).toContain("Give a reason for changing the answer.");
    expect(noReason.html).toContain("A corrected answer.");
    expect(await audit("inquiry.answer_edit", memberInquiry)).toHaveLength(0);
    const fixed = await post(path, { answer: "A corrected answer.", reason: "The first one named the wrong menu." });
    expect(fixed.res.status).toBe(200);
    expect(fixed.html).toContain("The corrected answer was saved");
    const [line] = await audit("inquiry.answer_edit", memberInquiry);
    expect(line.reason).toBe("The first one named the wrong menu.");
    expect(JSON.parse(line.before_json ?? "{}").answer).toBe("It is in the editor now: open Downloads and refresh.");
    const mine = await store(`/mypage/qna/${memberInquiry}`, "en", member.jar.header);
    expect(mine.html).toContain("A corrected answer.");
    const last = await db
      .selectFrom("mail_outbox")
      .selectAll()
      .where("to_address", "=", member.email)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(last.body_text).toContain("A corrected answer.");
    // A guest's inquiry is answered to the address it gave, in its language.
    const guest = await post(`/admin/inquiries/${guestInquiry}`, { answer: "환불해 드렸습니다." }, support, "ko");
    expect(guest.res.status).toBe(200);
    expect(guest.html).toContain("답변을 저장했고");
    const guestMail = await db
      .selectFrom("mail_outbox")
      .selectAll()
      .where("to_address", "=", "guest@example.com")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(guestMail.body_text).toContain("환불해 드렸습니다.");
    // A role outside inquiries cannot answer.
    const denied = await post(`/admin/inquiries/${oldInquiry}`, { answer: "No." }, catalog);
    expect(denied.res.status).toBe(403);
    expect((await db.selectFrom("support_tickets").select("status").where("id", "=", oldInquiry).executeTakeFirstOrThrow()).status).toBe(
      "accepted",
    );
  });

  const faqFields = {
    intent: "create",
    category: "download",
    questionKo: "맥에서 편집기를 쓸 수 있나요 zebra?",
    answerKo: "네, 맥용 편집기가 있습니다.",
    questionEn: "Does the editor run on a Mac zebra?",
    answerEn: "Yes, there is a Mac edition.",
    sort: "",
  };
  let faqId: number;

  it("adds an FAQ entry in both languages, which the storefront's FAQ search then finds; bad input keeps what was typed", async () => {
    expect((await get("/admin/publishing/faq", support)).res.status).toBe(403);
    const list = await get("/admin/publishing/faq", catalog);
    expect(list.res.status).toBe(200);
    expect(list.html).toContain("Can I get a refund?");
    const bad = await post("/admin/publishing/faq", { ...faqFields, questionEn: "" }, catalog);
    expect(bad.res.status).toBe(400);
    expect(bad.html).toContain("Write the question in English");
    expect(bad.html).toContain(faqFields.questionKo);
    expect(bad.html).toContain(faqFields.answerEn);
    const badCategory = await post("/admin/publishing/faq", { ...faqFields, category: "nope" }, catalog);
    expect(badCategory.res.status).toBe(400);
    expect(badCategory.html).toContain("Choose a category.");
    expect(await audit("faq.create")).toHaveLength(0);
    expect((await store("/support?keyword=zebra")).html).toContain("No questions match.");

    const made = await post("/admin/publishing/faq", faqFields, catalog);
    expect(made.res.status).toBe(302);
    const location = made.res.headers.get("location") ?? "";
    expect(location).toMatch(/^\/admin\/publishing\/faq\/\d+\?created=1$/);
    faqId = Number(location.split("/").pop()?.split("?")[0]);
    const [line] = await audit("faq.create", faqId);
    expect(line.operator_email).toBe(OPERATOR_EMAIL.catalog);
    expect(JSON.parse(line.after_json ?? "{}").questionEn).toBe(faqFields.questionEn);
    // At the end of the list.
    const max = await db
      .selectFrom("faqs")
      .select((eb) => eb.fn.max("sort").as("m"))
      .executeTakeFirstOrThrow();
    expect((await db.selectFrom("faqs").select("sort").where("id", "=", faqId).executeTakeFirstOrThrow()).sort).toBe(Number(max.m));
    expect((await get(location, catalog)).html).toContain("The entry was added.");

    const en = await store("/support?keyword=zebra");
    expect(en.html).toContain(faqFields.questionEn);
    expect(en.html).toContain(faqFields.answerEn);
    const ko = await store("/support?keyword=zebra", "ko");
    expect(ko.html).toContain(faqFields.questionKo);
    expect((await store("/support?category=download&keyword=zebra")).html).toContain(faqFields.questionEn);
  });

  it("edits, hides, shows and deletes an FAQ entry, each seen by the storefront and logged", async () => {
    const path = `/admin/publishing/faq/${faqId}`;
    const bad = await post(path, { ...faqFields, intent: "update", sort: "-1", questionEn: "Typed but refused zebra" }, catalog);
    expect(bad.res.status).toBe(400);
    expect(bad.html).toContain("The order is a whole number");
    expect(bad.html).toContain("Typed but refused zebra");
    const edited = await post(path, { ...faqFields, intent: "update", questionEn: "Can I edit on a Mac zebra?", sort: "7" }, catalog);
    expect(edited.res.status).toBe(200);
    expect(edited.html).toContain("The entry was saved.");
    const [update] = await audit("faq.update", faqId);
    expect(JSON.parse(update.before_json ?? "{}").questionEn).toBe(faqFields.questionEn);
    expect(JSON.parse(update.after_json ?? "{}")).toMatchObject({ questionEn: "Can I edit on a Mac zebra?", sort: 7 });
    const after = await store("/support?keyword=zebra");
    expect(after.html).toContain("Can I edit on a Mac zebra?");
    expect(after.html).not.toContain(faqFields.questionEn);

    const hidden = await post(path, { intent: "hide" }, catalog);
    expect(hidden.res.status).toBe(200);
    expect(hidden.html).toContain("The entry is now hidden from the store.");
    expect(await audit("faq.hide", faqId)).toHaveLength(1);
    expect((await store("/support?keyword=zebra")).html).toContain("No questions match.");
    expect((await store(`/support/detail?id=${faqId}`)).res.status).toBe(302);
    const api = async () => {
      const res = await call("/api/v1/support/faq?keyword=zebra", { headers: { language: "en" } });
      return (await res.json()).data.total_count as number;
    };
    expect(await api()).toBe(0);
    expect((await get("/admin/publishing/faq?keyword=zebra", catalog)).html).toContain("Hidden");
    await post(path, { intent: "show" }, catalog);
    expect(await audit("faq.show", faqId)).toHaveLength(1);
    expect((await store("/support?keyword=zebra")).html).toContain("Can I edit on a Mac zebra?");
    expect(await api()).toBe(1);

    const unconfirmed = await post(path, { intent: "delete" }, catalog);
    expect(unconfirmed.res.status).toBe(400);
    expect(unconfirmed.html).toContain("Tick the box to confirm the deletion.");
    expect(await db.selectFrom("faqs").select("id").where("id", "=", faqId).executeTakeFirst()).toBeTruthy();
    const gone = await post(path, { intent: "delete", confirm: "1" }, catalog);
    expect(gone.res.status).toBe(302);
    expect(gone.res.headers.get("location")).toBe(`/admin/publishing/faq?deleted=${faqId}`);
    const [deleted] = await audit("faq.delete", faqId);
    expect(JSON.parse(deleted.before_json ?? "{}").questionEn).toBe("Can I edit on a Mac zebra?");
    expect((await store("/support?keyword=zebra")).html).toContain("No questions match.");
    expect((await get(path, catalog)).res.status).toBe(404);
  });

  it("serves the six-step guide from the database and lets the console edit it, which /support then shows", async () => {
    const before = await store("/support");
    for (const s of GUIDE_SEED) expect(before.html).toContain(`<li>${s.title_en}</li>`);
    expect((await store("/support", "ko")).html).toContain(`<li>${GUIDE_SEED[2].title_ko}</li>`);

    const page = await get("/admin/publishing/guide", catalog);
    expect(page.res.status).toBe(200);
    const fields: Record<string, string> = {};
    for (const s of GUIDE_SEED) {
      fields[`titleKo${s.step}`] = s.title_ko;
      fields[`titleEn${s.step}`] = s.title_en;
      fields[`textKo${s.step}`] = "";
      fields[`textEn${s.step}`] = "";
      expect(page.html).toContain(`value="${s.title_en}"`);
    }
    const bad = await post("/admin/publishing/guide", { ...fields, titleEn3: "  ", titleKo4: "타이핑한 제목" }, catalog);
    expect(bad.res.status).toBe(400);
    expect(bad.html).toContain("Step 3 needs a title in both languages");
    expect(bad.html).toContain("타이핑한 제목");
    expect(await audit("guide.update")).toHaveLength(0);

    const same = await post("/admin/publishing/guide", fields, catalog);
    expect(same.html).toContain("Nothing changed.");
    expect(await audit("guide.update")).toHaveLength(0);

    const saved = await post(
      "/admin/publishing/guide",
      {
        ...fields,
        titleEn3: "Browse by category or search, then preview.",
        textEn3: "Previews are free.",
        titleKo3: "카테고리나 검색으로 찾아 미리 봅니다.",
      },
      catalog,
    );
    expect(saved.res.status).toBe(200);
    expect(saved.html).toContain("The guide was saved (1 step(s) changed).");
    const [line] = await audit("guide.update");
    expect(line.operator_email).toBe(OPERATOR_EMAIL.catalog);
    expect(JSON.parse(line.before_json ?? "{}")["3"].titleEn).toBe(GUIDE_SEED[2].title_en);
    expect(JSON.parse(line.after_json ?? "{}")["3"]).toMatchObject({
      titleEn: "Browse by category or search, then preview.",
      textEn: "Previews are free.",
    });
    const en = await store("/support");
    expect(en.html).toContain("Browse by category or search, then preview.");
    expect(en.html).toContain("Previews are free.");
    expect(en.html).not.toContain(GUIDE_SEED[2].title_en);
    expect(en.html).toContain(`<li>${GUIDE_SEED[0].title_en}</li>`);
    expect((await store("/support", "ko")).html).toContain("카테고리나 검색으로 찾아 미리 봅니다.");
    // The support role does not edit the guide.
    expect((await post("/admin/publishing/guide", fields, support)).res.status).toBe(403);
  });

  it("answers every fuzz sample of the section, posted by an administrator, without a server error", async () => {
    const admin = await signInOperator(call, "admin", "198.51.100.135");
    const paths: Record<string, string> = {
      "admin-inquiries-detail": `/admin/inquiries/${PARAMS["admin-inquiries-detail"].id}`,
      "admin-publishing-faq": "/admin/publishing/faq",
      "admin-publishing-faq-edit": `/admin/publishing/faq/${PARAMS["admin-publishing-faq-edit"].id}`,
      "admin-publishing-guide": "/admin/publishing/guide",
    };
    expect(Object.keys(FORM_SAMPLES).sort()).toEqual(Object.keys(paths).sort());
    const wrong: string[] = [];
    for (const [id, samples] of Object.entries(FORM_SAMPLES))
      for (const sample of samples) {
        const body = new URLSearchParams();
        for (const [k, v] of Object.entries(sample)) for (const one of Array.isArray(v) ? v : [v]) body.append(k, one);
        const res = await call(paths[id], {
          method: "POST",
          headers: { cookie: admin, "content-type": "application/x-www-form-urlencoded" },
          body,
          ip: "198.51.100.136",
        });
        if (res.status >= 500) wrong.push(`${id} ${JSON.stringify(sample).slice(0, 80)} → ${res.status}`);
      }
    expect(wrong).toEqual([]);
  });
});
