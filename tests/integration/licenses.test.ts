import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { DEMO } from "../../app/db/seed/index.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { signIn } from "../support/session";

type Call = Awaited<ReturnType<typeof createTestApp>>;
const text = async (res: Response) => (await res.text()).replaceAll("<!-- -->", "");

describe(`licence management on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Call;
  let cookie: string;
  const post = (fields: Record<string, string>) =>
    call("/mypage/licenses", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "accept-language": "en", cookie },
      body: new URLSearchParams(fields),
    });
  const upload = (name: string, bytes: Uint8Array, type: string) => {
    const form = new FormData();
    form.append("sheet", new File([bytes as Uint8Array<ArrayBuffer>], name, { type }));
    return call("/mypage/licenses", { method: "POST", headers: { "accept-language": "en", cookie }, body: form });
  };
  const order = async () => {
    const user = await db.selectFrom("users").select("id").where("email", "=", DEMO.member.email).executeTakeFirstOrThrow();
    return (
      await db.selectFrom("licenses").select("serial").where("user_id", "=", user.id).orderBy("sort_order").orderBy("id").execute()
    ).map((r) => r.serial);
  };
  beforeAll(async () => {
    const t = await createTestDb();
    ({ db, drop } = t);
    call = await createTestApp(db, { dataDir: t.dataDir });
    ({ cookie } = await signIn(call, DEMO.member.email, "198.51.100.30"));
  });
  afterAll(() => drop());

  it("lists only the member's licences with status, type and term, and searches them", async () => {
    const body = await text(await call("/mypage/licenses", { headers: { cookie, "accept-language": "en" } }));
    expect(body).toContain("VEDT-IND-0001-DEMO");
    expect(body).toContain("VEDT-IND-0002-DEMO");
    expect(body).not.toContain(DEMO.licenses.b2bg.serial);
    expect(body).toContain("Waiting for registration");
    expect(body).toMatch(/\(36[56] days left\)/);
    const found = await text(await call("/mypage/licenses?keyword=studio", { headers: { cookie, "accept-language": "en" } }));
    expect(found).toContain("VEDT-IND-0001-DEMO");
    expect(found).not.toContain("VEDT-IND-0002-DEMO");
    const byType = await text(await call("/mypage/licenses?type=permanent", { headers: { cookie, "accept-language": "en" } }));
    expect(byType).toContain("VEDT-IND-0002-DEMO");
    expect(byType).not.toContain("VEDT-IND-0001-DEMO");
  });

  it("renames, reorders by a saved order and by moving one place, refusing orders that are not exactly the member's", async () => {
    const ids = await db
      .selectFrom("licenses")
      .select(["id", "serial"])
      .where("serial", "in", ["VEDT-IND-0001-DEMO", "VEDT-IND-0002-DEMO"])
      .execute();
    const idOf = (s: string) => ids.find((r) => r.serial === s)?.id as number;
    expect(await text(await post({ intent: "alias", id: String(idOf("VEDT-IND-0002-DEMO")), alias: "노트북" }))).toContain(
      "The nickname has been saved.",
    );
    expect(
      (await db.selectFrom("licenses").select("alias").where("serial", "=", "VEDT-IND-0002-DEMO").executeTakeFirstOrThrow()).alias,
    ).toBe("노트북");
    await post({ intent: "order", order: `${idOf("VEDT-IND-0002-DEMO")},${idOf("VEDT-IND-0001-DEMO")}` });
    expect(await order()).toEqual(["VEDT-IND-0002-DEMO", "VEDT-IND-0001-DEMO"]);
    await post({ intent: "move", id: String(idOf("VEDT-IND-0002-DEMO")), direction: "down" });
    expect(await order()).toEqual(["VEDT-IND-0001-DEMO", "VEDT-IND-0002-DEMO"]);
    const other = await db.selectFrom("licenses").select("id").where("serial", "=", DEMO.licenses.b2bg.serial).executeTakeFirstOrThrow();
    expect((await post({ intent: "order", order: `${other.id},${idOf("VEDT-IND-0001-DEMO")}` })).status).toBe(400);
    expect(await order()).toEqual(["VEDT-IND-0001-DEMO", "VEDT-IND-0002-DEMO"]);
  });

  it("applies nicknames from a .csv and an .xlsx sheet with a message per row", async () => {
    const csv = "product key,nickname\nVEDT-IND-0001-DEMO,편집실\nVEDT-B2B-0001-DEMO,남의 것\nVEDT-IND-0002-DEMO,\n";
    const res = await text(await upload("aliases.csv", new TextEncoder().encode(csv), "text/csv"));
    expect(res).toContain("1 of 3 rows saved.");
    expect(res).toContain("Row 1 (VEDT-IND-0001-DEMO): saved.");
    expect(res).toContain("Row 2 (VEDT-B2B-0001-DEMO): no licence with this product key on your account.");
    expect(res).toContain("Row 3: the product key or the nickname is missing.");
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet("aliases");
    sheet.addRow(["VEDT-IND-0002-DEMO", "작업용 노트북"]);
    sheet.addRow(["VEDT-IND-0001-DEMO", "x".repeat(31)]);
    const xlsx = new Uint8Array(await book.xlsx.writeBuffer());
    const res2 = await text(await upload("aliases.xlsx", xlsx, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"));
    expect(res2).toContain("1 of 2 rows saved.");
    expect(res2).toContain("the nickname is longer than 30 characters");
    const rows = await db
      .selectFrom("licenses")
      .select(["serial", "alias"])
      .where("serial", "in", ["VEDT-IND-0001-DEMO", "VEDT-IND-0002-DEMO"])
      .orderBy("serial")
      .execute();
    expect(rows).toEqual([
      { serial: "VEDT-IND-0001-DEMO", alias: "편집실" },
      { serial: "VEDT-IND-0002-DEMO", alias: "작업용 노트북" },
    ]);
    const bad = await upload("notes.txt", new TextEncoder().encode("hello"), "text/plain");
    expect(bad.status).toBe(400);
    expect(await text(bad)).toContain("The file could not be read.");
  });

  it("links a licence bought without an account only with the right key and e-mail, answering every refusal alike", async () => {
    const answer = async (fields: Record<string, string>) => {
      const res = await post({ intent: "link", ...fields });
      const status = (await text(res)).match(/<div role="status"[^>]*>([^<]*)<\/div>/)?.[1];
      return { code: res.status, status };
    };
    const refused = { code: 400, status: "No license key with this information found. Please check again." };
    // Another e-mail, a key that does not exist, and a licence that already belongs to an account (right e-mail).
    expect(await answer({ serial: DEMO.licenses.nonmember.serial, email: "someone@example.com" })).toEqual(refused);
    expect(await answer({ serial: "VEDT-NONE-0000-DEMO", email: "guest@example.com" })).toEqual(refused);
    expect(await answer({ serial: DEMO.licenses.b2bg.serial, email: "editor1@studio.example" })).toEqual(refused);
    const kept = await text(await post({ intent: "link", serial: "VEDT-NONE-0000-DEMO", email: "typed@example.com" }));
    expect(kept).toContain('value="VEDT-NONE-0000-DEMO"');
    expect(kept).toContain('value="typed@example.com"');
    const ok = await post({ intent: "link", serial: DEMO.licenses.nonmember.serial, email: "GUEST@example.com" });
    expect(await text(ok)).toContain("The licence has been linked to your account.");
    expect(await order()).toEqual(["VEDT-IND-0001-DEMO", "VEDT-IND-0002-DEMO", DEMO.licenses.nonmember.serial]);
  });

  it("refuses a nickname on another member's licence and leaves it as it was", async () => {
    const other = await db
      .selectFrom("licenses")
      .select(["id", "alias"])
      .where("serial", "=", DEMO.licenses.b2bg.serial)
      .executeTakeFirstOrThrow();
    const res = await post({ intent: "alias", id: String(other.id), alias: "mine now" });
    expect(res.status).toBe(404);
    const body = await text(res);
    expect(body).toContain("No license key with this information found. Please check again.");
    expect(body).not.toContain("The nickname has been saved.");
    expect((await db.selectFrom("licenses").select("alias").where("id", "=", other.id).executeTakeFirstOrThrow()).alias).toBe(other.alias);
  });

  it("limits failed links per member, with the wait in the message and what was typed kept", async () => {
    // The member has failed 4 links above (the successful one was given back): 6 more reach the 10 an hour.
    for (let i = 0; i < 6; i++)
      expect((await post({ intent: "link", serial: `VEDT-GUESS-${i}`, email: "guest@example.com" })).status).toBe(400);
    const res = await post({ intent: "link", serial: "VEDT-GUESS-X", email: "guest@example.com" });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(3000);
    const body = await text(res);
    expect(body).toMatch(/Too many attempts\. Please try again in (59|60) minutes\./);
    expect(body).toContain('value="VEDT-GUESS-X"');
  });
});
