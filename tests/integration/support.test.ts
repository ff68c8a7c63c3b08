import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

describe(`support: FAQ, guide and the 1:1 inquiry on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let dataDir: string;
  let call: Awaited<ReturnType<typeof createTestApp>>;
  const html = async (p: string) => (await (await call(p, { headers: { "accept-language": "en" } })).text()).replaceAll("<!-- -->", "");
  const send = (fields: Record<string, string>, file?: File) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    if (file) form.append("attachment", file);
    return call("/support/question", { method: "POST", headers: { "accept-language": "en" }, body: form });
  };
  beforeAll(async () => {
    const t = await createTestDb();
    ({ db, drop, dataDir } = t);
    call = await createTestApp(db, { dataDir });
  });
  afterAll(() => drop());

  it("searches the FAQ by keyword and category and shows the six-step guide", async () => {
    const all = await html("/support");
    expect(all).toContain("How to use the market in six steps");
    expect([...all.matchAll(/<li>[^<]+<\/li>/g)].length).toBeGreaterThanOrEqual(6);
    const refund = await html("/support?keyword=refund");
    expect(refund).toContain("Can I get a refund?");
    expect(refund).not.toContain("Can I download on a Mac?");
    const dl = await html("/support?category=download");
    expect(dl).toContain("Can I download on a Mac?");
    expect(dl).not.toContain("Can I get a refund?");
    expect(await html("/support?keyword=zzzz")).toContain("No questions match.");
    const faq = await db.selectFrom("faqs").select(["id", "question_en"]).executeTakeFirstOrThrow();
    expect(await html(`/support/detail?id=${faq.id}`)).toContain(`<h1>${faq.question_en}</h1>`);
  });

  it("re-renders the inquiry with the spec's messages and what was typed", async () => {
    const res = await send({ category: "", title: "", description: "My question", email: "not-mail" });
    expect(res.status).toBe(400);
    const body = (await res.text()).replaceAll("&#x27;", "'");
    expect(body).toContain("Please complete all required fields.");
    expect(body).toContain("Enter a valid email address");
    expect(body).toContain(">My question</textarea>");
    expect(body).toContain('value="not-mail"');
    const noMail = (await (await send({ category: "payment", title: "t", description: "d", email: "" })).text()).replaceAll("&#x27;", "'");
    expect(noMail).toContain("Please enter your email");
    const long = await send({ category: "payment", title: "t", description: "x".repeat(1001), email: "a@example.com" });
    expect(await long.text()).toContain("Use at most 1,000 characters.");
  });

  it("refuses attachments that are not jpg/png by name or content, or over 2 MB", async () => {
    const fields = { category: "payment", title: "Receipt", description: "See the file", email: "a@example.com" };
    for (const file of [
      new File(["hello"], "note.txt"),
      new File(["not really a png"], "fake.png"),
      new File([new Uint8Array(2 * 1024 * 1024 + 10).fill(1)], "big.png"),
    ]) {
      const res = await send(fields, file);
      expect(res.status, file.name).toBe(400);
      expect((await res.text()).replaceAll("&#x27;", "'")).toContain("Files can't be attached.");
    }
    expect(await db.selectFrom("support_tickets").selectAll().execute()).toEqual([]);
  });

  it("files a valid inquiry with its attachment in private storage", async () => {
    const res = await send(
      { category: "refund", title: "Refund please", description: "I bought the wrong item.", email: "Buyer@Example.com" },
      new File([PNG], "shot.png"),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/support/question?sent=1");
    const rows = await db.selectFrom("support_tickets").selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      category: "refund",
      title: "Refund please",
      email: "buyer@example.com",
      status: "accepted",
      user_id: null,
    });
    const stored = path.join(dataDir, "storage", rows[0].attachment_path as string);
    expect(new Uint8Array(fs.readFileSync(stored))).toEqual(PNG);
    expect(await html("/support/question?sent=1")).toContain("Your inquiry has been received.");
  });

  it("limits inquiries per address, re-rendering the form with what was typed and the wait", async () => {
    const fields = { category: "payment", title: "Spam?", description: "Once more", email: "sender@example.com" };
    const from = (ip: string, f = fields) => {
      const form = new FormData();
      for (const [k, v] of Object.entries(f)) form.append(k, v);
      return call("/support/question", { method: "POST", headers: { "accept-language": "en" }, body: form, ip });
    };
    for (let i = 0; i < 5; i++) expect((await from("198.51.100.60", { ...fields, email: `s${i}@example.com` })).status).toBe(302);
    const res = await from("198.51.100.60");
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(3000);
    const body = (await res.text()).replaceAll("<!-- -->", "");
    expect(body).toMatch(/Too many attempts\. Please try again in (59|60) minutes\./);
    expect(body).toContain('value="Spam?"');
    expect(body).toContain(">Once more</textarea>");
    expect((await from("198.51.100.61")).status).toBe(302);
  });
});
