/**
 * Events (/event, /event/{id}, GET pboard/event[/{id}]) and the notices API (GET notice/list, notice/{id}): the
 * pages and the API in both languages, 15 a page with running events first, the event-ended page, the testYn rules
 * (test events only when asked for and the store is in test mode) and the storefront's 404 convention.
 */
import fs from "node:fs";
import path from "node:path";
import type { Selectable } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import type { EventsTable } from "../../app/db/schema";
import { PORTONE_API_SECRET, PORTONE_CHANNEL_KEYS, PORTONE_STORE_ID, PORTONE_WEBHOOK_SECRET } from "../mocks/portone";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";

type Lang = "ko" | "en";
type App = Awaited<ReturnType<typeof createTestApp>>;
type ApiEvent = {
  id: number;
  title: string;
  body: string;
  image_url: string | null;
  coupon_code: string | null;
  discount_percent: number | null;
  starts_at: string;
  ends_at: string;
  status: "running" | "ended";
  test_yn: "Y" | "N";
};

type Events = Selectable<EventsTable>;
const DAY = 86_400_000;
const LIVE_ENV = {
  PAYMENT_GATEWAY: "live",
  PORTONE_API_SECRET,
  PORTONE_WEBHOOK_SECRET,
  PORTONE_STORE_ID,
  PORTONE_CHANNEL_CARD: PORTONE_CHANNEL_KEYS.card,
  PORTONE_CHANNEL_VBANK: PORTONE_CHANNEL_KEYS.vbank,
};
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** An instant spelled as the event page spells it in Asia/Seoul (UTC+9, no daylight saving), worked out by hand. */
function seoulTime(iso: string, lang: Lang): string {
  const k = new Date(Date.parse(iso) + 9 * 3_600_000);
  const hm = `${String(k.getUTCHours()).padStart(2, "0")}:${String(k.getUTCMinutes()).padStart(2, "0")}`;
  return lang === "ko"
    ? `${k.getUTCFullYear()}년 ${k.getUTCMonth() + 1}월 ${k.getUTCDate()}일 ${hm}`
    : `${MONTHS[k.getUTCMonth()]} ${k.getUTCDate()}, ${k.getUTCFullYear()} at ${hm}`;
}

const eventLinks = (html: string) => [...html.matchAll(/href="\/event\/(\d+)(\?testYn=Y)?"/g)].map((m) => Number(m[1]));

describe(`events and notices on ${ENGINE}`, () => {
  let db: DB;
  let dataDir: string;
  let drop: () => Promise<void>;
  let call: App;
  let live: App;
  let seeded: Events[];
  const byTitle = (en: string) => {
    const e = seeded.find((r) => r.title_en === en);
    if (!e) throw new Error(`no seeded event ${en}`);
    return e;
  };

  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    dataDir = t.dataDir;
    drop = t.drop;
    call = await createTestApp(db, { dataDir });
    live = await createTestApp(db, { dataDir, env: LIVE_ENV });
    seeded = await db.selectFrom("events").selectAll().orderBy("id").execute();
  });
  afterAll(() => drop());

  const page = async (app: App, url: string, lang: Lang = "en") => {
    const res = await app(url, { headers: { "accept-language": lang } });
    return { res, html: res.status === 200 ? await res.text() : "" };
  };
  const api = async (app: App, url: string, lang: Lang = "en") => {
    const res = await app(`/api/v1/${url}`, { headers: { language: lang } });
    const body = await res.json();
    return { status: res.status, body, data: body.data };
  };

  describe("the demo seed", () => {
    it("has a running event with the promotion's coupon, another running one, an ended one and a test one, dated from the seed", async () => {
      const seededAt = (await db.selectFrom("settings").select("value").where("key", "=", "seeded_at").executeTakeFirstOrThrow()).value;
      const running = seeded.filter((e) => e.test_only === 0 && e.starts_at < seededAt && e.ends_at > seededAt);
      const ended = seeded.filter((e) => e.test_only === 0 && e.ends_at < seededAt);
      const test = seeded.filter((e) => e.test_only === 1 && e.starts_at < seededAt && e.ends_at > seededAt);
      expect(running.map((e) => e.coupon_code)).toContain("WELCOME20");
      expect(running.length).toBeGreaterThanOrEqual(2);
      expect(ended.length).toBeGreaterThanOrEqual(1);
      expect(test.length).toBe(1);
      // Relative to the seed: the running coupon event started days ago and runs for weeks to come.
      const welcome = byTitle("20% off for new members");
      expect(Date.parse(seededAt) - Date.parse(welcome.starts_at)).toBeGreaterThan(7 * DAY);
      expect(Date.parse(welcome.ends_at) - Date.parse(seededAt)).toBeGreaterThan(30 * DAY);
    });

    it("gives every event a real PNG picture written by the seed's media code", () => {
      for (const e of seeded) {
        expect(e.image_path).toMatch(/^\/media\/events\/[\w-]+\.png$/);
        const file = fs.readFileSync(path.join(dataDir, (e.image_path as string).replace(/^\//, "")));
        expect(file.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
        expect(file.readUInt32BE(16)).toBe(1200); // IHDR width
        expect(file.readUInt32BE(20)).toBe(600); // IHDR height
        expect(file.length).toBeGreaterThan(10_000);
      }
    });
  });

  describe("pages", () => {
    it("/event lists running events first, then ended ones, in both languages, without test events", async () => {
      const welcome = byTitle("20% off for new members");
      const summer = byTitle("Summer audio festival");
      const test = seeded.find((e) => e.test_only === 1) as Events;
      for (const lang of ["en", "ko"] as const) {
        const { res, html } = await page(call, "/event", lang);
        expect(res.status).toBe(200);
        expect(html).toContain(lang === "en" ? "<h1>Events</h1>" : "<h1>이벤트</h1>");
        expect(html).toContain(lang === "en" ? "Running events" : "진행 중인 이벤트");
        expect(html).toContain(lang === "en" ? "Ended events" : "종료된 이벤트");
        expect(html).toContain(lang === "en" ? welcome.title_en : welcome.title_ko);
        expect(html).not.toContain(lang === "en" ? test.title_en : test.title_ko);
        const ids = eventLinks(html);
        expect(ids).not.toContain(test.id);
        expect(ids.indexOf(welcome.id)).toBeLessThan(ids.indexOf(summer.id));
        expect(html).toContain(`src="${welcome.image_path}"`);
        expect(html).toMatch(lang === "en" ? /<title>Events \| VideoAsset Market<\/title>/ : /<title>이벤트 \| 비디오에셋 마켓<\/title>/);
        expect(html).toContain('<link rel="canonical" href="http://store.test/event"/>');
        // Public and cached like the notices (the catalog policy).
        expect(res.headers.get("x-page-cache")).toBe("30");
        expect(res.headers.get("cache-control")).toBe("private, no-cache");
      }
    });

    it("the footer links to the events on every storefront page", async () => {
      const { html } = await page(call, "/", "ko");
      expect(html).toMatch(/<footer[\s\S]*href="\/event"[^>]*>이벤트<\/a>/);
    });

    it("/event/{id} shows a running event: title, period in Asia/Seoul, picture, body, coupon code with a copy button", async () => {
      const welcome = byTitle("20% off for new members");
      for (const lang of ["en", "ko"] as const) {
        const { res, html } = await page(call, `/event/${welcome.id}`, lang);
        expect(res.status).toBe(200);
        expect(html).toContain(`<h1>${lang === "en" ? welcome.title_en : welcome.title_ko}</h1>`);
        expect(html).toContain(seoulTime(welcome.starts_at, lang));
        expect(html).toContain(seoulTime(welcome.ends_at, lang));
        expect(seoulTime(welcome.starts_at, lang)).toMatch(/00:00$/);
        expect(seoulTime(welcome.ends_at, lang)).toMatch(/23:59$/);
        expect(html).toContain(lang === "en" ? "(KST)" : "(한국 시간)");
        expect(html).toContain(`src="${welcome.image_path}"`);
        const firstLine = (lang === "en" ? welcome.body_en : welcome.body_ko).split("\n")[0];
        expect(html).toContain(`<p>${firstLine.replace(/'/g, "&#x27;")}</p>`);
        expect(html).toContain("<code>WELCOME20</code>");
        expect(html).toContain(lang === "en" ? "20% off" : "20% 할인");
        // The copy button appears once scripts run; its labels travel with the page's strings.
        const table = (await res.stringTable()) as { ns: { event: Record<string, string> } };
        expect(table.ns.event.copy).toBe(lang === "en" ? "Copy code" : "코드 복사");
        expect(html).toContain(`<meta property="og:image" content="http://store.test${welcome.image_path}"/>`);
        expect(html).toContain(`<link rel="canonical" href="http://store.test/event/${welcome.id}"/>`);
        expect(html).not.toContain('name="robots"');
        expect(res.headers.get("x-page-cache")).toBe("30");
      }
    });

    it('the event "New 4K video collection" links to the collection; the link\'s path is not in its description (issue 26.8)', async () => {
      const collection = byTitle("New 4K video collection");
      for (const lang of ["en", "ko"] as const) {
        const { res, html } = await page(call, `/event/${collection.id}`, lang);
        expect(res.status).toBe(200);
        const body = html.match(/<div class="event-body">[\s\S]*?<\/div>/)?.[0] ?? "";
        const words = lang === "en" ? "the video category, sorted by most recent" : "영상 카테고리의 최신순 목록";
        expect(body).toMatch(new RegExp(`<a [^>]*href="/list/video/all\\?sort=recent">${words}</a>`));
        expect(body).not.toContain("](");
        const description = html.match(/<meta name="description" content="([^"]*)"/)?.[1] ?? "";
        expect(description).toContain(words);
        expect(description).not.toContain("/list/video");
        // The link leads to a page of the store.
        expect((await page(call, "/list/video/all?sort=recent", lang)).res.status).toBe(200);
      }
    });

    it("an ended event answers the event-ended page in both languages, without its coupon", async () => {
      const summer = byTitle("Summer audio festival");
      const en = await page(call, `/event/${summer.id}`, "en");
      expect(en.res.status).toBe(200);
      expect(en.html).toContain("<h1>This event has ended.</h1>");
      expect(en.html).toContain(`The event “Summer audio festival” ended on ${seoulTime(summer.ends_at, "en")}.`);
      expect(en.html).toMatch(/href="\/event"[^>]*>See running events</);
      expect(en.html).toContain('<meta name="robots" content="noindex"/>');
      const ko = await page(call, `/event/${summer.id}`, "ko");
      expect(ko.html).toContain("<h1>종료된 이벤트입니다.</h1>");
      expect(ko.html).toContain(`‘여름 오디오 페스티벌’ 이벤트는 ${seoulTime(summer.ends_at, "ko")}에 종료되었습니다.`);
      expect(ko.html).toContain("진행 중인 이벤트 보기");
    });

    it("test events: only with ?testYn=Y and only in test mode; links then keep testYn=Y", async () => {
      const test = seeded.find((e) => e.test_only === 1) as Events;
      // Not asked for: not listed, and its page is the storefront's 404.
      expect((await call(`/event/${test.id}`)).headers.get("location")).toBe("/404");
      expect((await call(`/event/${test.id}?testYn=N`)).headers.get("location")).toBe("/404");
      expect((await call(`/event/${test.id}?testYn=yes`)).headers.get("location")).toBe("/404");
      // Asked for in test mode (the sandbox gateway).
      for (const lang of ["en", "ko"] as const) {
        const list = await page(call, "/event?testYn=Y", lang);
        expect(eventLinks(list.html)).toContain(test.id);
        expect(list.html).toContain(`href="/event/${test.id}?testYn=Y"`);
        expect(list.html).toContain(lang === "en" ? ">Test</span>" : ">테스트</span>");
        expect(list.html).toContain('<meta name="robots" content="noindex"/>');
        const detail = await page(call, `/event/${test.id}?testYn=Y`, lang);
        expect(detail.res.status).toBe(200);
        expect(detail.html).toContain(`<h1>${lang === "en" ? test.title_en : test.title_ko}</h1>`);
        expect(detail.html).toContain(lang === "en" ? "A test event, shown only in test mode" : "테스트 모드에서 요청할 때만 보이는");
        expect(detail.html).toContain('href="/event?testYn=Y"');
      }
      // Asked for while the store is live: never.
      const liveList = await page(live, "/event?testYn=Y");
      expect(liveList.res.status).toBe(200);
      expect(eventLinks(liveList.html)).not.toContain(test.id);
      expect(liveList.html).not.toMatch(/href="\/event\/\d+\?testYn=Y"/);
      expect((await live(`/event/${test.id}?testYn=Y`)).headers.get("location")).toBe("/404");
    });

    it("unknown, malformed and not yet started events follow the storefront's 404 convention", async () => {
      const [upcoming] = await db
        .insertInto("events")
        .values({
          title_ko: "곧 시작",
          title_en: "Starting soon",
          body_ko: "곧",
          body_en: "Soon",
          image_path: null,
          coupon_code: null,
          discount_percent: null,
          test_only: 0,
          starts_at: new Date(Date.now() + 5 * DAY).toISOString(),
          ends_at: new Date(Date.now() + 9 * DAY).toISOString(),
        })
        .returning("id")
        .execute();
      try {
        for (const p of ["/event/999999", "/event/abc", "/event/0", "/event/-1", "/event/1.5", `/event/${upcoming.id}`]) {
          const res = await call(p);
          expect(res.status, p).toBe(302);
          expect(res.headers.get("location"), p).toBe("/404");
        }
        expect(eventLinks((await page(call, "/event")).html)).not.toContain(upcoming.id);
        expect((await api(call, `pboard/event/${upcoming.id}`)).status).toBe(404);
      } finally {
        await db.deleteFrom("events").where("id", "=", upcoming.id).execute();
      }
    });

    it("a page past the last goes to the last page; a bad page number is the first", async () => {
      const res = await call("/event?page=7");
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/event?page=1");
      expect((await call("/event?page=7&testYn=Y")).headers.get("location")).toBe("/event?page=1&testYn=Y");
      expect((await page(call, "/event?page=abc")).res.status).toBe(200);
    });
  });

  describe("API", () => {
    it("GET pboard/event lists events in the caller's language with snake_case fields, running first, no test events by default", async () => {
      const test = seeded.find((e) => e.test_only === 1) as Events;
      const welcome = byTitle("20% off for new members");
      for (const lang of ["en", "ko"] as const) {
        const { status, body, data } = await api(call, "pboard/event", lang);
        expect(status).toBe(200);
        expect(body.result).toEqual({ code: 200, message: "SUCCESS" });
        const list = data.list as ApiEvent[];
        expect(data.total_count).toBe(seeded.length - 1);
        expect(list.map((e) => e.id)).not.toContain(test.id);
        const states = list.map((e) => e.status);
        expect(states.indexOf("ended")).toBeGreaterThan(states.lastIndexOf("running"));
        const w = list.find((e) => e.id === welcome.id) as ApiEvent;
        expect(w).toEqual({
          id: welcome.id,
          title: lang === "en" ? welcome.title_en : welcome.title_ko,
          body: lang === "en" ? welcome.body_en : welcome.body_ko,
          image_url: `http://store.test${welcome.image_path}`,
          coupon_code: "WELCOME20",
          discount_percent: 20,
          starts_at: welcome.starts_at,
          ends_at: welcome.ends_at,
          status: "running",
          test_yn: "N",
        });
      }
    });

    it("testYn=Y shows test events only in test mode; testYn must be Y or N", async () => {
      const test = seeded.find((e) => e.test_only === 1) as Events;
      const ids = async (app: App, url: string) => ((await api(app, url)).data.list as ApiEvent[]).map((e) => e.id);
      expect(await ids(call, "pboard/event?testYn=Y")).toContain(test.id);
      expect(await ids(call, "pboard/event?testYn=N")).not.toContain(test.id);
      expect(await ids(live, "pboard/event?testYn=Y")).not.toContain(test.id);
      expect((await api(call, "pboard/event?testYn=Y")).data.total_count).toBe(seeded.length);
      const one = await api(call, `pboard/event/${test.id}?testYn=Y`, "ko");
      expect(one.status).toBe(200);
      expect(one.data).toMatchObject({ id: test.id, title: test.title_ko, test_yn: "Y", status: "running" });
      expect((await api(call, `pboard/event/${test.id}`)).status).toBe(404);
      expect((await api(live, `pboard/event/${test.id}?testYn=Y`)).status).toBe(404);
      const bad = await api(call, "pboard/event?testYn=yes");
      expect(bad.status).toBe(400);
      expect(bad.body.result.message).toMatch(/^testYn:/);
      expect((await api(call, `pboard/event/${test.id}?testYn=1`)).status).toBe(400);
    });

    it("GET pboard/event/{id} answers one event; an ended one has no coupon; unknown ids answer a translated 404", async () => {
      const summer = byTitle("Summer audio festival");
      const ended = await api(call, `pboard/event/${summer.id}`, "ko");
      expect(ended.data).toMatchObject({ id: summer.id, title: summer.title_ko, status: "ended", coupon_code: null });
      for (const [lang, message] of [
        ["en", "This event was not found."],
        ["ko", "이벤트를 찾을 수 없습니다."],
      ] as const) {
        const missing = await api(call, "pboard/event/999999", lang);
        expect(missing.status).toBe(404);
        expect(missing.body.result).toEqual({ code: 404, message });
        expect(missing.data).toMatchObject({ state: "ERROR", error: "EVENT_NOT_FOUND" });
      }
      expect((await api(call, "pboard/event/abc")).status).toBe(400);
    });
  });

  describe("paging: 15 events a page", () => {
    let pdb: DB;
    let pdrop: () => Promise<void>;
    let papp: App;
    /** Every visible non-test event in the expected order: running (latest start first), then ended (latest end first). */
    let expected: number[];
    beforeAll(async () => {
      const t = await createTestDb();
      pdb = t.db;
      pdrop = t.drop;
      papp = await createTestApp(pdb, { dataDir: t.dataDir });
      const now = Date.now();
      const at = (days: number) => new Date(now + days * DAY).toISOString();
      // 12 running, 22 ended (one with a coupon), 3 upcoming, 4 test: with the seed's 3 public ones, 37 to list.
      const rows = [
        ...Array.from({ length: 12 }, (_, i) => ({ starts_at: at(-1 - i * 2), ends_at: at(3 + (i % 5)), test_only: 0, coupon: null })),
        ...Array.from({ length: 22 }, (_, i) => ({
          starts_at: at(-200 - i),
          ends_at: at(-2 - i * 3),
          test_only: 0,
          coupon: i === 0 ? "OLD10" : null,
        })),
        ...Array.from({ length: 3 }, (_, i) => ({ starts_at: at(2 + i), ends_at: at(20), test_only: 0, coupon: null })),
        ...Array.from({ length: 4 }, (_, i) => ({ starts_at: at(-3 - i), ends_at: at(10), test_only: 1, coupon: null })),
      ];
      await pdb
        .insertInto("events")
        .values(
          rows.map((r, i) => ({
            title_ko: `행사 ${i}`,
            title_en: `Event ${i}`,
            body_ko: `행사 ${i} 내용`,
            body_en: `About event ${i}`,
            image_path: null,
            coupon_code: r.coupon,
            discount_percent: r.coupon ? 10 : null,
            test_only: r.test_only,
            starts_at: r.starts_at,
            ends_at: r.ends_at,
          })),
        )
        .execute();
      const all = await pdb.selectFrom("events").selectAll().where("test_only", "=", 0).execute();
      const nowIso = new Date().toISOString();
      const visible = all.filter((e) => e.starts_at <= nowIso);
      const running = visible.filter((e) => e.ends_at >= nowIso).sort((a, b) => b.starts_at.localeCompare(a.starts_at) || b.id - a.id);
      const ended = visible.filter((e) => e.ends_at < nowIso).sort((a, b) => b.ends_at.localeCompare(a.ends_at) || b.id - a.id);
      expected = [...running, ...ended].map((e) => e.id);
      expect(expected.length).toBe(37);
    });
    afterAll(() => pdrop());

    it("the pages show 15 events each in order, with page links", async () => {
      const p1 = await page(papp, "/event", "en");
      expect(eventLinks(p1.html)).toEqual(expected.slice(0, 15));
      expect(p1.html).toContain('href="/event?page=2"');
      expect(p1.html).toContain('href="/event?page=3"');
      const p2 = await page(papp, "/event?page=2", "ko");
      expect(eventLinks(p2.html)).toEqual(expected.slice(15, 30));
      expect(p2.html).toContain('<link rel="canonical" href="http://store.test/event?page=2"/>');
      const p3 = await page(papp, "/event?page=3", "en");
      expect(eventLinks(p3.html)).toEqual(expected.slice(30));
      expect((await papp("/event?page=4")).headers.get("location")).toBe("/event?page=3");
    });

    it("the API pages by offset and limit, 15 by default, with the total", async () => {
      const first = await api(papp, "pboard/event");
      expect(first.data.total_count).toBe(37);
      expect((first.data.list as ApiEvent[]).map((e) => e.id)).toEqual(expected.slice(0, 15));
      const window = await api(papp, "pboard/event?offset=10&limit=20", "ko");
      expect((window.data.list as ApiEvent[]).map((e) => e.id)).toEqual(expected.slice(10, 30));
      const last = await api(papp, "pboard/event?offset=30");
      expect((last.data.list as ApiEvent[]).map((e) => e.id)).toEqual(expected.slice(30));
      expect((await api(papp, "pboard/event?testYn=Y")).data.total_count).toBe(37 + 1 + 4);
      for (const bad of ["limit=0", "limit=101", "offset=-1", "offset=x"])
        expect((await api(papp, `pboard/event?${bad}`)).status, bad).toBe(400);
    });

    it("an ended event's coupon is not offered on its page or by the API", async () => {
      const old = await pdb.selectFrom("events").selectAll().where("coupon_code", "=", "OLD10").executeTakeFirstOrThrow();
      const { html } = await page(papp, `/event/${old.id}`);
      expect(html).toContain("This event has ended.");
      expect(html).not.toContain("OLD10");
      expect((await api(papp, `pboard/event/${old.id}`)).data).toMatchObject({
        status: "ended",
        coupon_code: null,
        discount_percent: null,
      });
    });
  });

  describe("notices API", () => {
    it("GET notice/list: 15 by default, pinned first, newest first, in the caller's language, with the total", async () => {
      const all = await db
        .selectFrom("notices")
        .selectAll()
        .orderBy("pinned", "desc")
        .orderBy("published_at", "desc")
        .orderBy("id", "desc")
        .execute();
      for (const lang of ["en", "ko"] as const) {
        const { status, data } = await api(call, "notice/list", lang);
        expect(status).toBe(200);
        expect(data.total_count).toBe(all.length);
        expect(data.list).toHaveLength(15);
        expect(data.list[0]).toEqual({
          id: all[0].id,
          title: lang === "en" ? all[0].title_en : all[0].title_ko,
          body: lang === "en" ? all[0].body_en : all[0].body_ko,
          pinned: true,
          published_at: all[0].published_at,
        });
        expect(data.list.map((n: { id: number }) => n.id)).toEqual(all.slice(0, 15).map((n) => n.id));
      }
      const rest = await api(call, "notice/list?offset=15&limit=15");
      expect(rest.data.list.map((n: { id: number }) => n.id)).toEqual(all.slice(15, 30).map((n) => n.id));
      expect((await api(call, "notice/list?limit=0")).status).toBe(400);
    });

    it("GET notice/{id} answers like the notice page; unknown ids answer a translated 404", async () => {
      const notice = await db.selectFrom("notices").selectAll().orderBy("id").executeTakeFirstOrThrow();
      const ko = await api(call, `notice/${notice.id}`, "ko");
      expect(ko.data).toMatchObject({ id: notice.id, title: notice.title_ko, body: notice.body_ko });
      const en = await api(call, `notice/${notice.id}`, "en");
      expect(en.data).toMatchObject({ id: notice.id, title: notice.title_en, body: notice.body_en });
      expect((await page(call, `/notice/${notice.id}`)).html).toContain(`<h1>${en.data.title}</h1>`);
      for (const [lang, message] of [
        ["en", "This notice was not found."],
        ["ko", "공지사항을 찾을 수 없습니다."],
      ] as const) {
        const missing = await api(call, "notice/999999", lang);
        expect(missing.status).toBe(404);
        expect(missing.body.result).toEqual({ code: 404, message });
      }
      expect((await api(call, "notice/abc")).status).toBe(400);
    });
  });
});
