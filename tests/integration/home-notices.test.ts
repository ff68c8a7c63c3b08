/**
 * Issue 26, point 4: the home's service-stop notice is a picture that says the service is suspended, in the page's
 * language (the store's own, public/pictures/service-stop-<lang>.svg, its words drawn as outlines), replaceable per
 * language from the console (/admin/modes, administrators only, audited); and the banner that invites a visitor who
 * bought the editor without a market account to link it (spec sections 1 and 2).
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { adminPost, signInOperator } from "../support/operator";
import { newShopper } from "../support/shopper";

type Call = Awaited<ReturnType<typeof createTestApp>>;
/** The first bytes of a PNG: the store checks pictures by their signature. */
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 4, 5, 6]);
const OWN = {
  en: "Service suspended. The VideoAsset Market service has been suspended. Thank you for using the market.",
  ko: "서비스 운영 중단 안내. 비디오에셋 마켓 서비스가 중단되었습니다. 그동안 이용해 주셔서 감사합니다.",
};

describe(`the home's notices on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let dataDir: string;
  let call: Call;
  let admin: string;
  const IP = "198.51.100.181";

  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    dataDir = t.dataDir;
    call = await createTestApp(db, { dataDir });
    admin = await signInOperator(call, "admin", IP);
  });
  afterAll(async () => {
    await drop();
  });

  const home = async (lang: "ko" | "en", cookie = "") =>
    (
      await call("/", { headers: { "accept-language": lang, cookie: `lng=${lang}${cookie ? `; ${cookie}` : ""}` }, ip: "203.0.113.81" })
    ).text();
  const imgOf = (html: string) => /<section class="service-stop">[\s\S]*?<img ([^>]*)>/.exec(html)?.[1] ?? "";
  const attr = (tag: string, name: string) => new RegExp(`${name}="([^"]*)"`).exec(tag)?.[1]?.replaceAll("&#x27;", "'") ?? null;
  const picture = (fields: Record<string, string>, file?: Uint8Array, cookie = admin) => {
    const body = new FormData();
    for (const [k, v] of Object.entries(fields)) body.append(k, v);
    if (file) body.append("image", new Blob([Buffer.from(file)]), "notice.png");
    return call("/admin/modes", { method: "POST", headers: { cookie, "accept-language": "en" }, body, ip: IP });
  };

  it("the store's own notice is a picture per language whose words are drawn in it, and say the alt text", async () => {
    for (const lang of ["ko", "en"] as const) {
      const svg = fs.readFileSync(path.resolve(`public/pictures/service-stop-${lang}.svg`), "utf8");
      // Words as glyph outlines (no <text>, no font needed on the visitor's machine), not an empty box.
      expect(svg).not.toMatch(/<text/);
      expect((svg.match(/<path /g) ?? []).length).toBeGreaterThan(40);
    }
    expect(
      (await adminPost(call, admin, "/admin/modes", { home: "service-stop", start: "", end: "", textKo: "", textEn: "" }, IP)).status,
    ).toBe(200);
    for (const lang of ["ko", "en"] as const) {
      const img = imgOf(await home(lang));
      expect(attr(img, "src")).toBe(`/pictures/service-stop-${lang}.svg`);
      expect(attr(img, "alt")).toBe(OWN[lang]);
    }
  });

  it("an administrator replaces one language's picture with its words, and gives the store's own back; both audited", async () => {
    // Words are required; a file that is not a picture is refused by its bytes; other roles are refused.
    expect((await picture({ locale: "ko", intent: "replace", alt: "" }, PNG)).status).toBe(400);
    const fake = await picture({ locale: "ko", intent: "replace", alt: "공사 중" }, new TextEncoder().encode("<svg onload=x>"));
    expect(fake.status).toBe(400);
    expect(await fake.text()).toContain("The picture must be a PNG or JPEG file.");
    const support = await signInOperator(call, "support", "198.51.100.182");
    expect((await picture({ locale: "ko", intent: "replace", alt: "공사 중" }, PNG, support)).status).toBe(403);
    expect(attr(imgOf(await home("ko")), "src")).toBe("/pictures/service-stop-ko.svg");

    const saved = await picture({ locale: "ko", intent: "replace", alt: "서비스를 잠시 멈춥니다. 곧 다시 만나요." }, PNG);
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain("Saved. The home shows it within a couple of seconds.");
    const ko = imgOf(await home("ko"));
    const image = attr(ko, "src") as string;
    expect(image).toMatch(/^\/media\/publishing\/[0-9a-f]{32}\.png$/);
    expect(fs.existsSync(path.join(dataDir, image))).toBe(true);
    expect(attr(ko, "alt")).toBe("서비스를 잠시 멈춥니다. 곧 다시 만나요.");
    // The English home keeps the store's own.
    expect(attr(imgOf(await home("en")), "src")).toBe("/pictures/service-stop-en.svg");
    // New words for the picture in place (no file sent).
    expect((await picture({ locale: "ko", intent: "replace", alt: "잠시 쉽니다." })).status).toBe(200);
    expect(attr(imgOf(await home("ko")), "alt")).toBe("잠시 쉽니다.");
    expect(attr(imgOf(await home("ko")), "src")).toBe(image);

    expect((await picture({ locale: "ko", intent: "default" })).status).toBe(200);
    const back = imgOf(await home("ko"));
    expect(attr(back, "src")).toBe("/pictures/service-stop-ko.svg");
    expect(attr(back, "alt")).toBe(OWN.ko);
    const lines = await db.selectFrom("audit_log").selectAll().where("action", "=", "mode.stop_notice").orderBy("id").execute();
    expect(lines.map((l) => l.target_id)).toEqual(["stop_notice_ko", "stop_notice_ko", "stop_notice_ko"]);
    expect(JSON.parse(lines[2].after_json ?? "null")).toBeNull();
  });

  it("a visitor who is not signed in is invited to link the editor they bought; a member is not", async () => {
    expect((await adminPost(call, admin, "/admin/modes", { home: "full", start: "", end: "", textKo: "", textEn: "" }, IP)).status).toBe(
      200,
    );
    const guest = await home("en");
    expect(guest).toContain("Bought the video editor without a market account?");
    expect(guest).toContain('href="/join?redirectTo=%2Fmypage%2Flicenses%23link-licence"');
    expect(guest).toContain('href="/login?redirectTo=%2Fmypage%2Flicenses%23link-licence"');
    expect(await home("ko")).toContain("마켓 계정 없이 영상 편집 프로그램을 구매하셨나요?");
    const member = await newShopper(db);
    expect(await home("en", member.jar.header)).not.toContain("Bought the video editor without a market account?");
    // The join form keeps where it leads: the licence-linking form of My page.
    const join = await (
      await call("/join?redirectTo=%2Fmypage%2Flicenses%23link-licence", { headers: { "accept-language": "en" } })
    ).text();
    expect(join).toContain('value="/mypage/licenses#link-licence"');
  });
});
