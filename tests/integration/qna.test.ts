import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { createLocalStorage } from "../../app/integrations/storage/local.server";
import { answerInquiry, fileInquiry } from "../../app/market/support.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { newShopper } from "../support/shopper";

type Call = Awaited<ReturnType<typeof createTestApp>>;
type Shopper = Awaited<ReturnType<typeof newShopper>>;

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
const PNG2 = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9, 8, 7, 6, 5]);
const JPG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]);
const BIG = new Uint8Array(2 * 1024 * 1024 + 10).fill(1);
BIG.set(PNG);
const clean = (s: string) =>
  s
    .replaceAll("<!-- -->", "")
    .replaceAll("&#x27;", "'")
    .replaceAll("&quot;", '"')
    .replaceAll("\r\n", "\n")
    .replaceAll(' data-discover="true"', "");
const DAY = 86_400_000;

describe(`My page 1:1 inquiries (/mypage/qna, support API) on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let dataDir: string;
  let call: Call;
  /** A has 23 inquiries (paging), B has one; C is used by the API tests. */
  let a: Shopper;
  let b: Shopper;
  let c: Shopper;
  let aIds: number[];
  let bId: number;

  const page = async (who: Shopper | null, p: string, lang: "en" | "ko" = "en") => {
    const res = await call(p, { headers: { "accept-language": lang, ...(who ? { cookie: who.jar.header } : {}) } });
    return { res, body: clean(await res.text()) };
  };
  const form = (fields: Record<string, string>, file?: { name: string; bytes: Uint8Array }) => {
    const f = new FormData();
    for (const [k, v] of Object.entries(fields)) f.append(k, v);
    if (file) f.append("attachment", new File([file.bytes as Uint8Array<ArrayBuffer>], file.name));
    return f;
  };
  const edit = (who: Shopper, id: number, fields: Record<string, string>, file?: { name: string; bytes: Uint8Array }, ip?: string) =>
    call(`/mypage/qna/${id}`, {
      method: "POST",
      headers: { "accept-language": "en", cookie: who.jar.header },
      body: form(fields, file),
      ip,
    });
  const api = async (method: string, p: string, options: { token?: string; language?: "ko" | "en"; body?: FormData; ip?: string } = {}) => {
    const headers: Record<string, string> = { language: options.language ?? "en" };
    if (options.token) headers.authorizationToken = options.token;
    const res = await call(`/api/v1/${p}`, { method, headers, body: options.body, ip: options.ip });
    return { status: res.status, body: await res.json() };
  };
  const row = (id: number) => db.selectFrom("support_tickets").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const stored = (p: string | null) => path.join(dataDir, "storage", p as string);
  const valid = { category: "refund", title: "Changed title", description: "Changed question\nwith two lines", email: "New@Example.com" };

  beforeAll(async () => {
    const t = await createTestDb();
    ({ db, drop, dataDir } = t);
    call = await createTestApp(db, { dataDir });
    [a, b, c] = await Promise.all([newShopper(db), newShopper(db), newShopper(db)]);
    const start = Date.parse("2026-10-01T03:00:00Z");
    aIds = [];
    for (let i = 1; i <= 23; i++) {
      aIds.push(
        await fileInquiry(
          db,
          createLocalStorage(dataDir),
          a.userId,
          {
            category: i % 2 ? "payment" : "download",
            title: `A question ${String(i).padStart(2, "0")}`,
            description: `Details of question ${i}`,
            email: a.email,
            attachment: i === 23 || i === 22 ? PNG : null,
            language: "en",
          },
          new Date(start + i * DAY),
        ),
      );
    }
    bId = await fileInquiry(db, createLocalStorage(dataDir), b.userId, {
      category: "license",
      title: "B private question",
      description: "Only B may read this",
      email: b.email,
      attachment: JPG,
    });
  });
  afterAll(() => drop());

  it("lists the member's inquiries 10 a page, newest first, with status, date, category and title", async () => {
    await answerInquiry(db, aIds[20], "Answer to 21", new Date(Date.parse("2026-10-25T00:00:00Z")));
    const first = await page(a, "/mypage/qna");
    expect(first.res.status).toBe(200);
    const titles = (body: string) => [...body.matchAll(/<a href="\/mypage\/qna\/(\d+)">([^<]+)<\/a>/g)].map((m) => m[2]);
    expect(titles(first.body)).toEqual(Array.from({ length: 10 }, (_, i) => `A question ${23 - i}`));
    expect(first.body).toContain("23 inquiries");
    expect(first.body).toContain("Oct 24, 2026"); // question 23, filed 2026-10-24 12:00 in Seoul
    expect(first.body).toContain(">Payment<");
    expect(first.body).toContain(">Download<");
    expect(first.body).toMatch(/A question 21<\/a><\/td><td class="nowrap">[^<]+<\/td><td><span class="qna-status is-completed">Answered</);
    expect(first.body).toMatch(/A question 20<\/a><\/td><td class="nowrap">[^<]+<\/td><td><span class="qna-status is-accepted">Accepted</);
    expect(first.body).not.toContain("B private question");
    const third = await page(a, "/mypage/qna?page=3");
    expect(titles(third.body)).toEqual(["A question 03", "A question 02", "A question 01"]);
    // Past the end: the last page.
    expect(titles((await page(a, "/mypage/qna?page=99")).body)).toHaveLength(3);
    const ko = await page(a, "/mypage/qna", "ko");
    expect(ko.body).toContain("1:1 문의 내역");
    expect(ko.body).toContain(">답변 완료<");
    expect(ko.body).toContain(">접수<");
    expect(ko.body).toContain(">결제<");
    // B sees only B's.
    const theirs = await page(b, "/mypage/qna");
    expect(titles(theirs.body)).toEqual(["B private question"]);
    // Signed out: the sign-in redirect of every login-only page.
    const anonymous = await call("/mypage/qna");
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toMatch(/^\/\?redirect=requires-auth&redirectTo=%2Fmypage%2Fqna/);
    // My page home links to it.
    expect((await page(a, "/mypage/home")).body).toMatch(/<a[^>]+href="\/mypage\/qna"/);
  });

  it("shows one inquiry: the question, its attachment through the owner-only route, and the answer once completed", async () => {
    const id = aIds[22];
    const open = await page(a, `/mypage/qna/${id}`);
    expect(open.res.status).toBe(200);
    expect(open.body).toContain("<h1>A question 23</h1>");
    expect(open.body).toContain("Details of question 23");
    expect(open.body).toContain(`<img src="/mypage/qna/${id}/attachment" alt="The image attached to this inquiry"/>`);
    expect(open.body).toContain("We have received your inquiry and will answer by e-mail.");
    expect(open.body).toContain('<details class="qna-edit">');
    expect(open.body).not.toContain("Answered inquiries can't be edited.");

    const answered = await page(a, `/mypage/qna/${aIds[20]}`);
    expect(answered.body).toContain("Answer to 21");
    expect(answered.body).toContain(">Answered<");
    expect(answered.body).toContain("Answered inquiries can't be edited.");
    expect(answered.body).not.toContain("qna-edit");
    const answeredKo = await page(a, `/mypage/qna/${aIds[20]}`, "ko");
    expect(answeredKo.body).toContain("답변이 완료된 문의는 수정할 수 없습니다.");

    // The attachment: to its owner, from private storage, with its type and a private cache policy.
    const file = await call(`/mypage/qna/${id}/attachment`, { headers: { cookie: a.jar.header } });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/png");
    expect(file.headers.get("cache-control")).toMatch(/^private/);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(PNG);
    const etag = file.headers.get("etag") as string;
    expect((await call(`/mypage/qna/${id}/attachment`, { headers: { cookie: a.jar.header, "if-none-match": etag } })).status).toBe(304);
    // The API's token opens it too (the detail's attachment.url).
    expect((await call(`/mypage/qna/${id}/attachment`, { headers: { authorizationToken: a.token } })).status).toBe(200);
    // Nothing public serves the storage folder.
    const name = path.basename((await row(id)).attachment_path as string);
    for (const p of [`/storage/inquiries/${name}`, `/inquiries/${name}`, `/media/../storage/inquiries/${name}`]) {
      const res = await call(p);
      expect(res.status, p).not.toBe(200);
    }
    // An inquiry without one.
    expect((await call(`/mypage/qna/${aIds[0]}/attachment`, { headers: { cookie: a.jar.header } })).status).toBe(404);
  });

  it("answers 404 for another member's inquiry: the page, its edit, its attachment and the API", async () => {
    const before = await row(bId);
    expect((await page(a, `/mypage/qna/${bId}`)).res.status).toBe(404);
    expect((await page(a, "/mypage/qna/999999")).res.status).toBe(404);
    expect((await page(a, "/mypage/qna/abc")).res.status).toBe(404);
    expect((await edit(a, bId, valid)).status).toBe(404);
    expect((await call(`/mypage/qna/${bId}/attachment`, { headers: { cookie: a.jar.header } })).status).toBe(404);
    expect((await call(`/mypage/qna/${bId}/attachment`, { headers: { authorizationToken: a.token } })).status).toBe(404);
    const anonymous = await call(`/mypage/qna/${bId}/attachment`);
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toMatch(/^\/\?redirect=requires-auth/);
    expect((await api("GET", `support/qna/${bId}`, { token: a.token })).status).toBe(404);
    const put = new FormData();
    for (const [k, v] of Object.entries({ ...valid, id: String(bId) })) put.append(k, v);
    const refused = await api("PUT", "support/qna", { token: a.token, body: put });
    expect(refused.status).toBe(404);
    expect(refused.body.result.message).toBe("This inquiry was not found.");
    expect(await row(bId)).toEqual(before);
    // Its owner still gets it.
    const own = await call(`/mypage/qna/${bId}/attachment`, { headers: { cookie: b.jar.header } });
    expect(own.headers.get("content-type")).toBe("image/jpeg");
    expect(new Uint8Array(await own.arrayBuffer())).toEqual(JPG);
  });

  it("edits an accepted inquiry without JavaScript, re-rendering the spec's messages with what was typed", async () => {
    const id = aIds[21];
    const original = await row(id);
    const bad = await edit(a, id, { category: "", title: "", description: "Typed text stays", email: "not-mail" });
    expect(bad.status).toBe(400);
    const body = clean(await bad.text());
    expect(body).toContain("Please complete all required fields.");
    expect(body).toContain("Enter a valid email address");
    expect(body).toContain(">Typed text stays</textarea>");
    expect(body).toContain('value="not-mail"');
    expect(body).toContain('<details class="qna-edit" open="">');
    const noMail = clean(await (await edit(a, id, { ...valid, email: " " })).text());
    expect(noMail).toContain("Please enter your email");
    const long = clean(await (await edit(a, id, { ...valid, description: "x".repeat(1001) })).text());
    expect(long).toContain("Use at most 1,000 characters.");
    for (const file of [
      { name: "big.png", bytes: BIG },
      { name: "fake.png", bytes: new TextEncoder().encode("not really a png") },
      { name: "note.txt", bytes: PNG },
    ]) {
      const res = await edit(a, id, { ...valid, title: "Kept title" }, file);
      expect(res.status, file.name).toBe(400);
      const text = clean(await res.text());
      expect(text, file.name).toContain("Files can't be attached.");
      expect(text, file.name).toContain('value="Kept title"');
      expect(text, file.name).toContain(">Changed question\nwith two lines</textarea>");
    }
    expect(await row(id)).toEqual(original);

    // A valid edit replaces the attachment: the new file in, the old one gone.
    const saved = await edit(a, id, valid, { name: "new.png", bytes: PNG2 });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe(`/mypage/qna/${id}?saved=1`);
    const changed = await row(id);
    expect(changed).toMatchObject({
      category: "refund",
      title: "Changed title",
      description: "Changed question\nwith two lines",
      email: "new@example.com",
      status: "accepted",
    });
    expect(changed.updated_at).not.toBeNull();
    expect(changed.attachment_path).not.toBe(original.attachment_path);
    expect(new Uint8Array(fs.readFileSync(stored(changed.attachment_path)))).toEqual(PNG2);
    expect(fs.existsSync(stored(original.attachment_path))).toBe(false);
    const after = await page(a, `/mypage/qna/${id}?saved=1`);
    expect(after.body).toContain("Your changes have been saved.");
    expect(after.body).toContain("<h1>Changed title</h1>");
    expect(after.body).toContain(">Refund<");
    expect(after.body).toContain("Last edited");

    // Without a new file the attachment stays; the box removes it.
    expect((await edit(a, id, { ...valid, title: "Kept file" })).status).toBe(302);
    expect((await row(id)).attachment_path).toBe(changed.attachment_path);
    expect((await edit(a, id, { ...valid, removeAttachment: "on" })).status).toBe(302);
    expect((await row(id)).attachment_path).toBeNull();
    expect(fs.existsSync(stored(changed.attachment_path))).toBe(false);
    expect((await call(`/mypage/qna/${id}/attachment`, { headers: { cookie: a.jar.header } })).status).toBe(404);
    // An inquiry without an attachment gets one.
    expect((await edit(a, aIds[0], { ...valid, title: "Now with a file" }, { name: "shot.jpg", bytes: JPG })).status).toBe(302);
    const added = await row(aIds[0]);
    expect(new Uint8Array(fs.readFileSync(stored(added.attachment_path)))).toEqual(JPG);
  });

  it("does not edit a completed inquiry", async () => {
    const id = aIds[1];
    await answerInquiry(db, id, "Here is the answer.");
    const before = await row(id);
    const res = await edit(a, id, valid, { name: "new.png", bytes: PNG2 });
    expect(res.status).toBe(409);
    expect(clean(await res.text())).toContain("Answered inquiries can't be edited.");
    expect(await row(id)).toEqual(before);
    const files = fs.readdirSync(path.join(dataDir, "storage", "inquiries"));
    expect(files.filter((f) => f.startsWith(".tmp-"))).toEqual([]);
  });

  it("answerInquiry stores the answer, completes the inquiry and says when", async () => {
    const id = await fileInquiry(db, createLocalStorage(dataDir), c.userId, {
      category: "account",
      title: "To be answered",
      description: "?",
      email: c.email,
      language: "ko",
    });
    const at = new Date("2026-11-20T01:02:03.000Z");
    const answered = await answerInquiry(db, id, "  The answer.  ", at);
    expect(answered).toEqual({
      id,
      userId: c.userId,
      email: c.email,
      title: "To be answered",
      language: "ko",
      answeredAt: at.toISOString(),
      edited: false,
    });
    expect(await row(id)).toMatchObject({ status: "completed", answer: "The answer.", answered_at: at.toISOString() });
    // A correction replaces the answer.
    expect((await answerInquiry(db, id, "The corrected answer.", new Date("2026-11-21T00:00:00.000Z"))).edited).toBe(true);
    expect(await row(id)).toMatchObject({ answer: "The corrected answer.", answered_at: "2026-11-21T00:00:00.000Z" });
    await expect(answerInquiry(db, id, "   ")).rejects.toMatchObject({ code: "ANSWER_REQUIRED", status: 400 });
    await expect(answerInquiry(db, 999_999, "Answer")).rejects.toMatchObject({ code: "INQUIRY_NOT_FOUND", status: 404 });
    await db.deleteFrom("support_tickets").where("id", "=", id).execute();
  });

  it("GET support/category and support/faq answer in the caller's language, with paging and filters", async () => {
    const en = await api("GET", "support/category");
    expect(en.status).toBe(200);
    expect(en.body.result).toEqual({ code: 200, message: "SUCCESS" });
    expect(en.body.data.total_count).toBe(7);
    expect(en.body.data.list[0]).toEqual({ code: "purchase", name: "Purchase" });
    const ko = await api("GET", "support/category", { language: "ko" });
    expect(ko.body.data.list.map((c: { name: string }) => c.name)).toContain("환불");

    const faqs = await db.selectFrom("faqs").selectAll().orderBy("sort").execute();
    const all = await api("GET", "support/faq");
    expect(all.body.data.total_count).toBe(faqs.length);
    expect(all.body.data.list).toHaveLength(Math.min(20, faqs.length));
    expect(all.body.data.list[0]).toEqual({
      id: faqs[0].id,
      category: faqs[0].category,
      category_name: expect.any(String),
      question: faqs[0].question_en,
      answer: faqs[0].answer_en,
    });
    const koFaq = await api("GET", "support/faq?limit=1&offset=1", { language: "ko" });
    expect(koFaq.body.data.list).toEqual([expect.objectContaining({ id: faqs[1].id, question: faqs[1].question_ko })]);
    expect(koFaq.body.data.total_count).toBe(faqs.length);
    const refund = await api("GET", "support/faq?keyword=REFUND");
    expect(refund.body.data.list.map((f: { question: string }) => f.question)).toContain("Can I get a refund?");
    expect(refund.body.data.list.every((f: { question: string; answer: string }) => /refund/i.test(f.question + f.answer))).toBe(true);
    const download = await api("GET", "support/faq?category=download");
    expect(download.body.data.total_count).toBe(faqs.filter((f) => f.category === "download").length);
    expect(download.body.data.list.every((f: { category: string }) => f.category === "download")).toBe(true);
    // "%" and "_" are plain characters, not wildcards.
    const having = (text: string) => faqs.filter((f) => `${f.question_en} ${f.answer_en}`.toLowerCase().includes(text)).length;
    expect((await api("GET", "support/faq?keyword=%25")).body.data.total_count).toBe(having("%"));
    expect((await api("GET", "support/faq?keyword=%25%25")).body.data.total_count).toBe(0);
    expect((await api("GET", "support/faq?keyword=_")).body.data.total_count).toBe(having("_"));
    expect((await api("GET", "support/faq?category=nope")).status).toBe(400);
    expect((await api("GET", "support/faq?limit=0")).status).toBe(400);
  });

  it("GET support/qna lists the caller's inquiries (offset, limit 10) and support/qna/{id} shows one", async () => {
    expect((await api("GET", "support/qna")).status).toBe(401);
    const first = await api("GET", "support/qna", { token: a.token });
    expect(first.status).toBe(200);
    expect(first.body.data.total_count).toBe(23);
    expect(first.body.data.list).toHaveLength(10);
    expect(first.body.data.list[0]).toMatchObject({ id: aIds[22], title: "A question 23", status: "accepted", status_name: "Accepted" });
    expect(Object.keys(first.body.data.list[0]).sort()).toEqual(
      [
        "answered_at",
        "category",
        "category_name",
        "created_at",
        "has_attachment",
        "id",
        "status",
        "status_name",
        "title",
        "updated_at",
      ].sort(),
    );
    const rest = await api("GET", "support/qna?offset=20&limit=10", { token: a.token, language: "ko" });
    expect(rest.body.data.list.map((r: { id: number }) => r.id)).toEqual([aIds[2], aIds[1], aIds[0]]);
    expect(rest.body.data.list[1]).toMatchObject({ status: "completed", status_name: "답변 완료" });

    const one = await api("GET", `support/qna/${aIds[20]}`, { token: a.token, language: "ko" });
    expect(one.body.data).toMatchObject({
      id: aIds[20],
      category: "payment",
      category_name: "결제",
      title: "A question 21",
      description: "Details of question 21",
      status: "completed",
      editable: false,
      answer: "Answer to 21",
      answered_at: "2026-10-25T00:00:00.000Z",
      attachment: null,
    });
    const withFile = await api("GET", `support/qna/${aIds[22]}`, { token: a.token });
    expect(withFile.body.data.attachment).toEqual({
      url: `http://store.test/mypage/qna/${aIds[22]}/attachment`,
      content_type: "image/png",
    });
    expect(withFile.body.data).toMatchObject({ answer: null, editable: true });
    const missing = await api("GET", "support/qna/999999", { token: a.token, language: "ko" });
    expect(missing.status).toBe(404);
    expect(missing.body.result).toEqual({ code: 404, message: "문의를 찾을 수 없습니다." });
  });

  it("POST support/qna files an inquiry with the page's validation, messages and limits, member or not", async () => {
    const post = (
      fields: Record<string, string>,
      options: { token?: string; language?: "ko" | "en"; file?: Uint8Array; ip?: string } = {},
    ) => {
      const body = new FormData();
      for (const [k, v] of Object.entries(fields)) body.append(k, v);
      if (options.file) body.append("file", new File([options.file as Uint8Array<ArrayBuffer>], "shot.png", { type: "image/png" }));
      return api("POST", "support/qna", { token: options.token, language: options.language, body, ip: options.ip ?? "198.51.100.90" });
    };
    const fields = { category: "download", title: "From the API", description: "Sent by a script", email: c.email };
    const missing = await post({ ...fields, title: "" });
    expect(missing.status).toBe(400);
    expect(missing.body.result).toEqual({ code: 400, message: "Please complete all required fields." });
    expect(missing.body.data).toMatchObject({ state: "ERROR", error: "REQUIRED" });
    expect((await post({ ...fields, title: "" }, { language: "ko" })).body.result.message).toBe("필수 항목을 모두 입력해 주세요.");
    expect((await post({ ...fields, email: "nope" })).body.result.message).toBe("Enter a valid email address");
    expect((await post({ ...fields, email: "" })).body.result.message).toBe("Please enter your email");
    expect((await post({ ...fields, category: "nope" })).body.result.message).toBe("Please complete all required fields.");
    expect((await post({ ...fields, description: "x".repeat(1001) })).body.result.message).toBe("Use at most 1,000 characters.");
    const big = await post(fields, { file: BIG, ip: "198.51.100.91" });
    expect(big.status).toBe(400);
    expect(big.body.result.message).toBe("Files can't be attached.");
    expect((await post(fields, { file: new TextEncoder().encode("fake"), language: "ko", ip: "198.51.100.91" })).body.result.message).toBe(
      "파일을 첨부할 수 없습니다.",
    );

    const filed = await post(fields, { token: c.token, file: PNG, ip: "198.51.100.92" });
    expect(filed.status).toBe(200);
    expect(filed.body.data).toMatchObject({ state: "SUCCESS", status: "accepted" });
    const created = await row(filed.body.data.id);
    expect(created).toMatchObject({ user_id: c.userId, title: "From the API", status: "accepted", language: "en" });
    expect(new Uint8Array(fs.readFileSync(stored(created.attachment_path)))).toEqual(PNG);
    const listed = await api("GET", "support/qna", { token: c.token });
    expect(listed.body.data.list.map((r: { id: number }) => r.id)).toContain(filed.body.data.id);

    const anonymous = await post({ ...fields, email: "guest@example.com" }, { language: "ko", ip: "198.51.100.92" });
    expect(anonymous.status).toBe(200);
    expect(await row(anonymous.body.data.id)).toMatchObject({ user_id: null, email: "guest@example.com", language: "ko" });

    // The page's limit: five an hour from one address.
    for (let i = 0; i < 3; i++) expect((await post({ ...fields, email: `g${i}@example.com` }, { ip: "198.51.100.92" })).status).toBe(200);
    const limited = await post({ ...fields, email: "g9@example.com" }, { ip: "198.51.100.92" });
    expect(limited.status).toBe(429);
    expect(limited.body.result.message).toMatch(/^Too many attempts\. Please try again in \d+ minutes\.$/);
  });

  it("PUT support/qna edits one of the caller's accepted inquiries", async () => {
    const id = await fileInquiry(db, createLocalStorage(dataDir), c.userId, {
      category: "other",
      title: "Edit me",
      description: "Before",
      email: c.email,
      attachment: PNG,
    });
    const put = (fields: Record<string, string>, options: { token?: string; language?: "ko" | "en"; file?: Uint8Array } = {}) => {
      const body = new FormData();
      for (const [k, v] of Object.entries(fields)) body.append(k, v);
      if (options.file) body.append("file", new File([options.file as Uint8Array<ArrayBuffer>], "shot.jpg"));
      return api("PUT", "support/qna", { token: options.token ?? c.token, language: options.language, body });
    };
    const fields = { id: String(id), category: "purchase", title: "Edited", description: "After", email: c.email };
    expect((await put(fields, { token: "" })).status).toBe(401);
    const noId = await put({ ...fields, id: "" });
    expect(noId.status).toBe(400);
    expect(noId.body.result.message).toBe("Send the id of the inquiry to edit.");
    expect((await put({ ...fields, title: "" }, { language: "ko" })).body.result.message).toBe("필수 항목을 모두 입력해 주세요.");
    const before = await row(id);
    const ok = await put(fields, { file: JPG });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ state: "SUCCESS", id });
    const after = await row(id);
    expect(after).toMatchObject({ category: "purchase", title: "Edited", description: "After" });
    expect(after.attachment_path).toMatch(/\.jpg$/);
    expect(fs.existsSync(stored(before.attachment_path))).toBe(false);
    expect((await put({ ...fields, remove_file: "1" })).status).toBe(200);
    expect((await row(id)).attachment_path).toBeNull();
    await answerInquiry(db, id, "Done");
    const late = await put(fields, { language: "ko" });
    expect(late.status).toBe(409);
    expect(late.body.result).toEqual({ code: 409, message: "답변이 완료된 문의는 수정할 수 없습니다." });
    expect(late.body.data.error).toBe("INQUIRY_ANSWERED");
  });

  it("the 1:1 form files a signed-in member's inquiry on My page and links there", async () => {
    const res = await call("/support/question", {
      method: "POST",
      headers: { "accept-language": "ko", cookie: b.jar.header },
      body: form({ category: "payment", title: "From the page", description: "Filed on the form", email: b.email }),
      ip: "198.51.100.95",
    });
    expect(res.status).toBe(302);
    const created = await db.selectFrom("support_tickets").selectAll().where("title", "=", "From the page").executeTakeFirstOrThrow();
    expect(created).toMatchObject({ user_id: b.userId, language: "ko" });
    const sent = await page(b, "/support/question?sent=1", "ko");
    expect(sent.body).toMatch(/<a[^>]+href="\/mypage\/qna"[^>]*>내 문의 내역 보기<\/a>/);
    // A visitor's inquiry has no My page: no link.
    expect((await page(null, "/support/question?sent=1")).body).not.toContain('href="/mypage/qna"');
    const list = await page(b, "/mypage/qna");
    expect(list.body).toContain(`<a href="/mypage/qna/${created.id}">From the page</a>`);
  });
});
