import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { eventImagePng } from "../../app/db/seed/event-images";
import { synthBgm } from "../../app/db/seed/media.server";
import { createLocalStorage } from "../../app/integrations/storage/local.server";
import { mediaKind, svgIsSafe } from "../../app/market/catalog/media-files.server";
import { MEDIA_JOB_LEASE, peaksOf, runMediaJobs } from "../../app/market/catalog/media-jobs.server";
import { runExclusive, takeLease } from "../../app/market/jobs.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { adminPost, signInOperator } from "../support/operator";

type Call = Awaited<ReturnType<typeof createTestApp>>;
const en = { "accept-language": "en", cookie: "lng=en" };

describe(`operator console: the catalog on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Call;
  let dataDir: string;
  let cookie: string;

  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    // A data folder of this file's own: uploads and previews land here.
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "admin-catalog-"));
    call = await createTestApp(db, { dataDir });
    cookie = `${await signInOperator(call, "catalog", "198.51.100.131")}; lng=en`;
  });
  afterAll(async () => {
    await drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const page = async (p: string, c = cookie) => {
    const res = await call(p, { headers: { ...en, cookie: c }, ip: "198.51.100.131" });
    return { status: res.status, html: (await res.text()).replaceAll("<!-- -->", "") };
  };
  const store = async (p: string) => (await (await call(p, { headers: { "accept-language": "en" } })).text()).replaceAll("<!-- -->", "");
  const post = (p: string, fields: Record<string, string>) => adminPost(call, cookie, p, fields, "198.51.100.131");
  const auditOf = (action: string, targetId: number) =>
    db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", action)
      .where("target_id", "=", String(targetId))
      .orderBy("id", "desc")
      .executeTakeFirst();
  const formOf = async (id: number) => {
    const row = await db.selectFrom("contents").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    const s = (v: number | null) => (v === null ? "" : String(v));
    return {
      intent: "update",
      titleKo: row.title_ko,
      titleEn: row.title_en,
      descriptionKo: row.description_ko,
      descriptionEn: row.description_en,
      tagsKo: row.tags_ko,
      tagsEn: row.tags_en,
      priceType: row.price_type,
      priceKrw: String(row.price_krw),
      priceUsd: String(row.price_usd),
      categoryId: s(row.category_id),
      genreId: s(row.genre_id),
      moodId: s(row.mood_id),
      bpm: s(row.bpm),
      audioSub: s(row.contents_type_sub),
    };
  };

  it("lists the catalog with filters by type, status and keyword, paged; other roles get 403", async () => {
    const all = await page("/admin/catalog");
    expect(all.status).toBe(200);
    expect(all.html).toContain("Catalog items, newest first");
    const audio = await db
      .selectFrom("contents")
      .select(["id", "code", "title_en"])
      .where("contents_type", "=", "audio")
      .where("status", "=", "active")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    const byCode = await page(`/admin/catalog?keyword=${audio.code.toLowerCase()}`);
    expect(byCode.html).toContain(`href="/admin/catalog/${audio.id}"`);
    expect(byCode.html).toContain("Items: 1");
    const audioOnly = await page("/admin/catalog?type=audio&status=active");
    const n = await db
      .selectFrom("contents")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("contents_type", "=", "audio")
      .where("status", "=", "active")
      .executeTakeFirstOrThrow();
    expect(audioOnly.html).toContain(`Items: ${Number(n.n)}`);
    expect(audioOnly.html).not.toContain("<td>Video</td>");
    expect(audioOnly.html).toContain("<td>Audio</td>");
    // Hostile or wrong filters fall back, never a 500.
    expect((await page("/admin/catalog?type=<script>&status=x&page=-3")).status).toBe(200);
    const second = await page("/admin/catalog?page=2");
    expect(second.html).toContain("Page 2 of");
    const support = await signInOperator(call, "support", "198.51.100.132");
    expect((await call("/admin/catalog", { headers: { cookie: support }, ip: "198.51.100.132" })).status).toBe(403);
    expect((await page("/admin/catalog/999999999")).status).toBe(404);
  });

  it("edits an audio item's titles, prices, taxonomy, BPM and tags; search and the store follow; audit before/after", async () => {
    const item = await db
      .selectFrom("contents")
      .select(["id", "code", "title_en"])
      .where("contents_type", "=", "audio")
      .where("contents_type_sub", "=", 3002)
      .where("status", "=", "active")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const genre = await db.selectFrom("taxonomy").select("id").where("kind", "=", "genre").orderBy("id", "desc").executeTakeFirstOrThrow();
    const form = await formOf(item.id);
    const res = await post(`/admin/catalog/${item.id}`, {
      ...form,
      titleEn: "Zanzibar moonlight groove",
      titleKo: "잔지바르 달빛 그루브",
      priceType: "paid",
      priceKrw: "12000",
      priceUsd: "899",
      genreId: String(genre.id),
      bpm: "128",
      tagsEn: "groove, moonlight ,groove,,night",
    });
    expect(res.status).toBe(200);
    expect((await res.text()).replaceAll("<!-- -->", "")).toContain("The item was saved.");
    const row = await db.selectFrom("contents").selectAll().where("id", "=", item.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ title_en: "Zanzibar moonlight groove", price_krw: 12000, price_usd: 899, genre_id: genre.id, bpm: 128 });
    expect(row.tags_en).toBe("groove,moonlight,night");
    const audit = await auditOf("content.update", item.id);
    expect(JSON.parse(audit?.before_json ?? "{}").title_en).toBe(item.title_en);
    expect(JSON.parse(audit?.after_json ?? "{}").title_en).toBe("Zanzibar moonlight groove");
    expect(audit?.operator_email).toBe("catalog@example.com");
    // Search finds it by its new title (the index was rewritten in the same transaction), and not by the old one.
    const found = await store("/search/all?keywords=zanzibar");
    expect(found).toContain("Zanzibar moonlight groove");
    expect(found).toContain(item.code);
    // The store's item page shows the new title.
    expect(await store(`/contents/audio?code=${item.code}`)).toContain("Zanzibar moonlight groove");
  });

  it("refuses bad input with the typed values kept and a message, and writes nothing", async () => {
    const item = await db
      .selectFrom("contents")
      .select(["id", "title_en"])
      .where("contents_type", "=", "video")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const form = await formOf(item.id);
    const before = await db
      .selectFrom("audit_log")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    const cases: [Record<string, string>, string][] = [
      [{ titleEn: "  " }, "Enter both titles"],
      [{ priceType: "paid", priceKrw: "0", priceUsd: "100" }, "Check the price"],
      [{ priceType: "free", priceKrw: "1000", priceUsd: "0" }, "Check the price"],
      [{ priceKrw: "-5" }, "Check the price"],
      [{ bpm: "120" }, "BPM is for audio items only"],
      [{ genreId: "1" }, "A genre is for audio items only"],
      [{ categoryId: "999999" }, "Choose a category of this item"],
      [{ priceType: "<script>" }, "Check the price"],
    ];
    for (const [change, message] of cases) {
      const res = await post(`/admin/catalog/${item.id}`, { ...form, titleKo: "입력 보존 확인", ...change });
      expect(res.status, JSON.stringify(change)).toBe(400);
      const html = (await res.text()).replaceAll("<!-- -->", "").replaceAll("&#x27;", "'");
      expect(html).toContain(message);
      expect(html).toContain('value="입력 보존 확인"');
    }
    // A category of another type is refused too.
    const iconCategory = await db
      .selectFrom("taxonomy")
      .select("id")
      .where("kind", "=", "category")
      .where("space", "=", "icon")
      .executeTakeFirstOrThrow();
    expect((await post(`/admin/catalog/${item.id}`, { ...form, categoryId: String(iconCategory.id) })).status).toBe(400);
    expect((await post(`/admin/catalog/${item.id}`, { intent: "nonsense" })).status).toBe(400);
    expect((await post("/admin/catalog/999999999", form)).status).toBe(404);
    const after = await db
      .selectFrom("audit_log")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    expect((await db.selectFrom("contents").select("title_en").where("id", "=", item.id).executeTakeFirstOrThrow()).title_en).toBe(
      item.title_en,
    );
  });

  it("discontinues an item (the store's page says so, it leaves search) and restores it, each in the audit log", async () => {
    const item = await db
      .selectFrom("contents")
      .select(["id", "code", "contents_type", "title_en"])
      .where("contents_type", "=", "icon")
      .where("status", "=", "active")
      .where("price_type", "=", "paid")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const form = await formOf(item.id);
    await post(`/admin/catalog/${item.id}`, { ...form, titleEn: "Quokka gradient badge" });
    expect(await store("/search/all?keywords=quokka")).toContain(item.code);
    const before = await store(`/contents/icon?code=${item.code}`);
    expect(before).not.toContain("This content has been discontinued");
    const res = await post(`/admin/catalog/${item.id}`, { intent: "discontinue", reason: "Rights expired" });
    expect(res.status).toBe(200);
    expect((await res.text()).replaceAll("<!-- -->", "")).toContain("The item was discontinued.");
    expect((await db.selectFrom("contents").select("status").where("id", "=", item.id).executeTakeFirstOrThrow()).status).toBe(
      "discontinued",
    );
    const gone = await store(`/contents/icon?code=${item.code}`);
    expect(gone).toContain("This content has been discontinued");
    expect(gone).not.toContain("Add to cart");
    expect(await store("/search/all?keywords=quokka")).not.toContain(item.code);
    const audit = await auditOf("content.discontinue", item.id);
    expect(audit).toMatchObject({ reason: "Rights expired", before_json: '{"status":"active"}', after_json: '{"status":"discontinued"}' });
    // The console's list shows it under "discontinued".
    expect((await page(`/admin/catalog?status=discontinued&keyword=${item.code}`)).html).toContain(item.code);
    // Again: nothing changes, no second line.
    await post(`/admin/catalog/${item.id}`, { intent: "discontinue" });
    const lines = await db
      .selectFrom("audit_log")
      .select("id")
      .where("action", "=", "content.discontinue")
      .where("target_id", "=", String(item.id))
      .execute();
    expect(lines).toHaveLength(1);
    const restored = await post(`/admin/catalog/${item.id}`, { intent: "restore", reason: "" });
    expect((await restored.text()).replaceAll("<!-- -->", "")).toContain("The item is on sale again.");
    expect(await store(`/contents/icon?code=${item.code}`)).not.toContain("This content has been discontinued");
    expect(await store("/search/all?keywords=quokka")).toContain(item.code);
    expect(await auditOf("content.restore", item.id)).toBeTruthy();
    expect((await post(`/admin/catalog/${item.id}`, { intent: "discontinue", reason: "x".repeat(600) })).status).toBe(400);
  });

  /** A small real MP4 (2 s of ffmpeg's test picture), made once. */
  const mp4 = () => {
    const file = path.join(dataDir, "sample.mp4");
    if (!fs.existsSync(file))
      execFileSync("ffmpeg", [
        "-hide_banner",
        "-loglevel",
        "error",
        "-y",
        "-f",
        "lavfi",
        "-i",
        "testsrc=s=320x240:d=2:r=12",
        "-c:v",
        "libx264",
        "-pix_fmt",
        "yuv420p",
        file,
      ]);
    return new Uint8Array(fs.readFileSync(file));
  };
  const fontBytes = () =>
    new Uint8Array(fs.readFileSync(createRequire(import.meta.url).resolve("@expo-google-fonts/jua/400Regular/Jua_400Regular.ttf")));
  const fields = (type: string, title: string, extra: Record<string, string> = {}) => ({
    type,
    titleKo: `${title} 한국어`,
    titleEn: title,
    descriptionKo: "업로드 테스트",
    descriptionEn: "Uploaded in a test",
    tagsKo: "테스트",
    tagsEn: "test",
    priceType: "paid",
    priceKrw: "5000",
    priceUsd: "399",
    ...extra,
  });
  const upload = (values: Record<string, string>, file: Uint8Array | null, name = "upload.bin") => {
    const body = new FormData();
    for (const [k, v] of Object.entries(values)) body.append(k, v);
    if (file) body.append("file", new File([file as BlobPart], name, { type: "application/octet-stream" }));
    return call("/admin/catalog/new", { method: "POST", headers: { ...en, cookie }, body, ip: "198.51.100.131" });
  };
  const created = async (res: Response) => {
    expect(
      res.status,
      await res
        .clone()
        .text()
        .then((t) => t.slice(0, 300)),
    ).toBe(302);
    const id = Number(/\/admin\/catalog\/(\d+)$/.exec(res.headers.get("location") ?? "")?.[1]);
    expect(id).toBeGreaterThan(0);
    return db.selectFrom("contents").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  };
  const jobOf = (id: number) =>
    db.selectFrom("media_jobs").selectAll().where("content_id", "=", id).orderBy("id", "desc").executeTakeFirstOrThrow();

  it("tells media files by their bytes, not their names, and refuses SVGs that could run script", () => {
    expect(mediaKind(eventImagePng(0))).toBe("png");
    expect(mediaKind(synthBgm(0, 90, 1))).toBe("wav");
    expect(mediaKind(fontBytes())).toBe("ttf");
    expect(mediaKind(new TextEncoder().encode('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"></svg>'))).toBe("svg");
    expect(mediaKind(new TextEncoder().encode("<html><body>not a picture</body></html>"))).toBeNull();
    expect(mediaKind(new Uint8Array([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0, 0, 0]))).toBe("mp3");
    const svg = (body: string) => new TextEncoder().encode(`<svg xmlns="http://www.w3.org/2000/svg">${body}</svg>`);
    expect(svgIsSafe(svg('<rect width="4" height="4" fill="url(#g)"/>'))).toBe(true);
    for (const bad of [
      "<script>alert(1)</script>",
      '<rect onload="alert(1)"/>',
      '<image href="https://evil.test/x.png"/>',
      '<a xlink:href="javascript:alert(1)">x</a>',
      "<foreignObject/>",
      '<rect style="fill:url(https://evil.test/a)"/>',
    ])
      expect(svgIsSafe(svg(bad)), bad).toBe(false);
    expect(peaksOf(new Int16Array([0, 16384, -32768, 0]), 2)).toEqual([0.5, 1]);
  });

  it("adds a video with its uploaded file: stored privately, searchable at once, previews made by the background job, audited", async () => {
    const res = await upload(fields("video", "Xylophone harbor sunrise"), mp4(), "clip.mp4");
    const row = await created(res);
    expect(row).toMatchObject({
      contents_type: "video",
      status: "active",
      title_en: "Xylophone harbor sunrise",
      preview_path: null,
      price_krw: 5000,
    });
    expect(row.code).toMatch(/^VI\d{7}$/);
    expect(row.file_path).toBe(`uploads/${row.code}.mp4`);
    expect(fs.existsSync(path.join(dataDir, "storage", row.file_path ?? ""))).toBe(true);
    expect(fs.readdirSync(path.join(dataDir, "storage", "uploads")).some((f) => f.startsWith(".tmp-"))).toBe(false);
    const audit = await auditOf("content.create", row.id);
    expect(JSON.parse(audit?.after_json ?? "{}")).toMatchObject({ code: row.code, title_en: "Xylophone harbor sunrise" });
    // In search right away (the index is written with the item), the previews still to come.
    expect(await store("/search/all?keywords=xylophone")).toContain(row.code);
    expect((await jobOf(row.id)).state).toBe("queued");
    const waiting = await page(`/admin/catalog/${row.id}`);
    expect(waiting.html).toContain("Waiting to start");
    expect(waiting.html).toMatch(/<progress[^>]*value="0"/);
    // Another process holding the lease: this one skips.
    expect(await takeLease(db, MEDIA_JOB_LEASE, "other-process", 60_000)).toBe(true);
    expect(
      (await runExclusive(db, MEDIA_JOB_LEASE, { holder: "me", leaseMs: 60_000 }, () => runMediaJobs(db, createLocalStorage(dataDir)))).ran,
    ).toBe(false);
    expect((await jobOf(row.id)).state).toBe("queued");
    await db.deleteFrom("job_leases").where("name", "=", MEDIA_JOB_LEASE).execute();
    const run = await runExclusive(db, MEDIA_JOB_LEASE, { holder: "me", leaseMs: 60_000 }, () =>
      runMediaJobs(db, createLocalStorage(dataDir)),
    );
    expect(run).toEqual({ ran: true, result: { done: 1, failed: 0 } });
    const job = await jobOf(row.id);
    expect(job).toMatchObject({ state: "done", error: null });
    expect(Number(job.progress)).toBe(100);
    const after = await db.selectFrom("contents").selectAll().where("id", "=", row.id).executeTakeFirstOrThrow();
    expect(after).toMatchObject({
      preview_path: `/media/uploads/${row.code}/preview.mp4`,
      poster_path: `/media/uploads/${row.code}/poster.jpg`,
      width: 320,
      height: 240,
    });
    expect(after.duration_ms).toBeGreaterThan(1500);
    const clip = fs.readFileSync(path.join(dataDir, "media", "uploads", row.code, "preview.mp4"));
    expect(mediaKind(new Uint8Array(clip))).toBe("mp4");
    expect(fs.readFileSync(path.join(dataDir, "media", "uploads", row.code, "poster.jpg")).subarray(0, 2)).toEqual(
      Buffer.from([0xff, 0xd8]),
    );
    // Search shows it with its poster; the store's page plays the clip.
    const found = await store("/search/all?keywords=xylophone");
    expect(found).toContain(`/media/uploads/${row.code}/poster.jpg`);
    expect(await store(`/contents/video?code=${row.code}`)).toContain(`/media/uploads/${row.code}/preview.mp4`);
    expect((await page(`/admin/catalog/${row.id}`)).html).toContain("Previews ready");
  });

  it("adds audio (waveform peaks and an MP3 preview), a font (its subset preview works) and an icon", async () => {
    const audio = await created(
      await upload(fields("audio", "Yodel canyon echo", { bpm: "96", audioSub: "3002" }), synthBgm(1, 96, 3), "song.wav"),
    );
    const font = await created(await upload(fields("font", "Quillwort Sans"), fontBytes(), "font.ttf"));
    const icon = await created(await upload(fields("icon", "Vortex badge"), eventImagePng(1), "badge.png"));
    expect(await runMediaJobs(db, createLocalStorage(dataDir))).toEqual({ done: 3, failed: 0 });
    const a = await db.selectFrom("contents").selectAll().where("id", "=", audio.id).executeTakeFirstOrThrow();
    expect(a).toMatchObject({ preview_path: `/media/uploads/${audio.code}/preview.mp3`, bpm: 96, contents_type_sub: 3002 });
    expect(Math.abs((a.duration_ms ?? 0) - 3000)).toBeLessThan(100);
    const peaks = JSON.parse(fs.readFileSync(path.join(dataDir, "media", "uploads", audio.code, "peaks.json"), "utf8")).peaks as number[];
    expect(peaks).toHaveLength(400);
    expect(Math.max(...peaks)).toBeGreaterThan(0.1);
    expect(mediaKind(new Uint8Array(fs.readFileSync(path.join(dataDir, "media", "uploads", audio.code, "preview.mp3"))))).toBe("mp3");
    expect((await page(`/admin/catalog/${audio.id}`)).html).toContain('aria-label="Waveform of Yodel canyon echo"');
    // The font's preview is the store's own subset path, cut from the upload.
    const subset = await call(`/api/v1/font/subset?contents_code=${font.code}&text=${encodeURIComponent("Quill 가나")}`, { headers: en });
    expect(subset.status).toBe(200);
    expect(
      Buffer.from(await subset.arrayBuffer())
        .subarray(0, 4)
        .toString("latin1"),
    ).toBe("wOF2");
    expect(font.font_family).toBe("Quillwort Sans");
    const i = await db.selectFrom("contents").selectAll().where("id", "=", icon.id).executeTakeFirstOrThrow();
    expect(i).toMatchObject({
      preview_path: `/media/uploads/${icon.code}/picture.png`,
      poster_path: `/media/uploads/${icon.code}/picture.png`,
    });
    expect(i.width).toBeGreaterThan(0);
    expect(await store("/search/all?keywords=vortex")).toContain(`/media/uploads/${icon.code}/picture.png`);
  });

  it("refuses a missing file, a file of the wrong kind whatever its name, an unsafe SVG and bad fields, keeping what was typed", async () => {
    const count = async () =>
      Number(
        (
          await db
            .selectFrom("contents")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const cases: [Record<string, string>, Uint8Array | null, string, string][] = [
      [fields("video", "Kept title one"), null, "x.mp4", "Choose the item's media file."],
      [fields("video", "Kept title two"), eventImagePng(0), "really-a-video.mp4", "This file is not of a kind this type takes"],
      [
        fields("font", "Kept title three"),
        new TextEncoder().encode("<html>hi</html>"),
        "font.ttf",
        "This file is not of a kind this type takes",
      ],
      [
        fields("icon", "Kept title four"),
        new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        "icon.svg",
        "This SVG holds scripts or outside links",
      ],
      [fields("audio", "Kept title five", { bpm: "900" }), synthBgm(0, 90, 1), "a.wav", "BPM is for audio items only"],
      [fields("nonsense", "Kept title six"), eventImagePng(0), "a.png", "Choose the item's type."],
    ];
    for (const [values, file, name, message] of cases) {
      const res = await upload(values, file, name);
      expect(res.status, message).toBe(400);
      const html = (await res.text()).replaceAll("<!-- -->", "").replaceAll("&#x27;", "'");
      expect(html).toContain(message);
      expect(html).toContain(`value="${values.titleEn}"`);
    }
    // Over 20 MB: read past, not kept, and said so with the fields kept.
    const big = new Uint8Array(21 * 1024 * 1024);
    big.set(new TextEncoder().encode("\0\0\0\x18ftypisom"), 0);
    const tooBig = await upload(fields("video", "Kept title seven"), big, "big.mp4");
    expect(tooBig.status).toBe(400);
    expect((await tooBig.text()).replaceAll("<!-- -->", "")).toContain("The file is larger than 20 MB.");
    expect(await count()).toBe(before);
    const uploads = path.join(dataDir, "storage", "uploads");
    expect(fs.existsSync(uploads) && fs.readdirSync(uploads).some((f) => f.startsWith(".tmp-"))).toBe(false);
    // A package may come without a file (and bundles items later).
    const pack = await created(await upload(fields("package", "Walrus starter pack"), null));
    expect(pack.file_path).toBeNull();
    expect(await db.selectFrom("media_jobs").select("id").where("content_id", "=", pack.id).executeTakeFirst()).toBeUndefined();
  });

  it("shows a failed job with its error and queues it again on request, audited", async () => {
    // An MP4 header over bytes that are not a video is refused at upload (its boxes are read through).
    const fake = new Uint8Array(2048);
    fake.set(new TextEncoder().encode("\0\0\0\x18ftypisom\0\0\0\0isomiso2"), 0);
    const refused = await upload(fields("video", "Broken upload"), fake, "broken.mp4");
    expect(refused.status).toBe(400);
    expect((await refused.text()).replaceAll("&#x27;", "'")).toContain("This file's contents do not match its format");
    // A well-formed MP4 whose pictures are zeros: accepted at upload, refused by the decoder.
    const zeroed = mp4().slice();
    const view = new DataView(zeroed.buffer);
    for (let at = 0; at < zeroed.length; at += view.getUint32(at))
      if (new TextDecoder().decode(zeroed.subarray(at + 4, at + 8)) === "mdat") zeroed.fill(0, at + 8, at + view.getUint32(at));
    const row = await created(await upload(fields("video", "Broken upload"), zeroed, "broken.mp4"));
    expect(await runMediaJobs(db, createLocalStorage(dataDir))).toEqual({ done: 0, failed: 1 });
    const failed = await jobOf(row.id);
    expect(failed.state).toBe("failed");
    expect(failed.error).toBeTruthy();
    const html = (await page(`/admin/catalog/${row.id}`)).html;
    expect(html).toContain("The previews could not be made");
    const res = await post(`/admin/catalog/${row.id}`, { intent: "retry-media" });
    expect((await res.text()).replaceAll("<!-- -->", "")).toContain("The previews will be made again.");
    expect((await jobOf(row.id)).state).toBe("queued");
    expect(await auditOf("content.media_retry", row.id)).toBeTruthy();
    // A job a dead process left running is taken up again by the next run (here it fails again, as it should).
    await db.updateTable("media_jobs").set({ state: "running" }).where("content_id", "=", row.id).execute();
    expect(await runMediaJobs(db, createLocalStorage(dataDir))).toEqual({ done: 0, failed: 1 });
  });

  it("adds items to a package and removes them: the store's package page follows, refusals kept, audited", async () => {
    const pack = await db
      .selectFrom("contents")
      .select(["id", "code"])
      .where("contents_type", "=", "package")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const bundled = async () =>
      (await db.selectFrom("package_items").select("content_id").where("package_id", "=", pack.id).orderBy("sort").execute()).map(
        (r) => r.content_id,
      );
    const start = await bundled();
    const extra = await db
      .selectFrom("contents")
      .select(["id", "code", "title_en"])
      .where("contents_type", "=", "font")
      .where("status", "=", "active")
      .where("id", "not in", start.length ? start : [-1])
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const res = await post(`/admin/catalog/${pack.id}`, { intent: "package-add", code: extra.code.toLowerCase() });
    expect(res.status).toBe(200);
    expect((await res.text()).replaceAll("<!-- -->", "")).toContain("The item was added to the package.");
    expect(await bundled()).toEqual([...start, extra.id]);
    const storePage = await store(`/contents/package?code=${pack.code}`);
    expect(storePage).toContain(extra.title_en);
    const added = await auditOf("package.add", pack.id);
    expect(JSON.parse(added?.after_json ?? "[]")).toContain(extra.code);
    expect(JSON.parse(added?.before_json ?? "[]")).not.toContain(extra.code);
    // The console's page lists it with a remove button.
    expect((await page(`/admin/catalog/${pack.id}`)).html).toContain(`Remove ${extra.code} from the package`);
    const otherPack = await db
      .selectFrom("contents")
      .select("code")
      .where("contents_type", "=", "package")
      .where("id", "!=", pack.id)
      .executeTakeFirstOrThrow();
    for (const [code, message, status] of [
      [extra.code, "The package already bundles this item.", 409],
      ["ZZ9999999", "No item has this code.", 400],
      [otherPack.code, "A package cannot bundle another package.", 400],
      ["", "No item has this code.", 400],
    ] as const) {
      const r = await post(`/admin/catalog/${pack.id}`, { intent: "package-add", code });
      expect(r.status, code).toBe(status);
      const html = (await r.text()).replaceAll("<!-- -->", "");
      expect(html).toContain(message);
      if (code) expect(html).toContain(`value="${code}"`);
    }
    expect(await bundled()).toEqual([...start, extra.id]);
    // Adding to an item that is not a package is refused.
    expect(
      (await post(`/admin/catalog/${extra.id}`, { intent: "package-add", code: start.length ? "VI0000001" : extra.code })).status,
    ).toBe(409);
    const removed = await post(`/admin/catalog/${pack.id}`, { intent: "package-remove", contentId: String(extra.id) });
    expect((await removed.text()).replaceAll("<!-- -->", "")).toContain("The item was removed from the package.");
    expect(await bundled()).toEqual(start);
    expect(await store(`/contents/package?code=${pack.code}`)).not.toContain(extra.title_en);
    expect(await auditOf("package.remove", pack.id)).toBeTruthy();
    expect((await post(`/admin/catalog/${pack.id}`, { intent: "package-remove", contentId: "abc" })).status).toBe(400);
  });

  const importSheet = (name: string, bytes: Uint8Array | string) => {
    const body = new FormData();
    body.append("sheet", new File([typeof bytes === "string" ? new TextEncoder().encode(bytes) : (bytes as BlobPart)], name));
    return call("/admin/catalog/import", { method: "POST", headers: { ...en, cookie }, body, ip: "198.51.100.131" });
  };

  const importThenFind = async (title: string) => {
    const res = await importSheet("one.csv", `type,title_ko,title_en,price_type\nicon,${title} 한국어,${title},free`);
    expect(res.status).toBe(200);
    return db.selectFrom("contents").select(["id", "code"]).where("title_en", "=", title).execute();
  };

  it("imports a CSV sheet: valid rows created together and searchable, rejected rows reported by number and reason", async () => {
    const csv = [
      "type,title_ko,title_en,description_ko,description_en,tags_ko,tags_en,price_type,price_krw,price_usd,category,genre,mood,bpm,audio_sub",
      'video,가젤 평원 일출,Gazelle plain sunrise,설명,A description,"자연,일출","nature,sunrise",paid,"12,000",899,nature,,calm,,',
      "audio,재즈 카페 밤,Jazzy nightcap lounge,,,,,free,0,0,vlog,jazz,romantic,92,3002",
      "sculpture,조각,Sculpture,,,,,paid,1000,99,,,,,",
      "icon,가격 없음,Priceless icon,,,,,paid,0,0,,,,,",
      "icon,모르는 분류,Unknown category icon,,,,,free,0,0,weather-nope,,,,",
      "video,가젤 평원 일출,Gazelle plain sunrise,,,,,free,0,0,,,,,",
      "font,,Missing korean title,,,,,free,0,0,,,,,",
      "video,BPM 영상,Video with bpm,,,,,free,0,0,,,,120,",
      "",
      "package,얼룩말 묶음,Zebra bundle,,,,,benefit,0,0,youtube,,,,",
    ].join("\n");
    const before = await db
      .selectFrom("audit_log")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("action", "=", "content.create")
      .executeTakeFirstOrThrow();
    const res = await importSheet("items.csv", csv);
    expect(res.status).toBe(200);
    const html = (await res.text()).replaceAll("<!-- -->", "");
    expect(html).toContain("Rows read: 9. Added: 3. Rejected: 6.");
    const rejected = [...html.matchAll(/<td class="num">(\d+)<\/td><td>([^<]+)<\/td>/g)].map((m) => [Number(m[1]), m[2]]);
    expect(rejected).toEqual([
      [4, "Unknown type"],
      [5, "Price does not fit the price type"],
      [6, "Unknown category for this type"],
      [7, "Same titles as an earlier row of the sheet"],
      [8, "Both titles are needed (at most 200 characters)"],
      [9, "BPM only for audio, from 20 to 300"],
    ]);
    const made = await db
      .selectFrom("contents")
      .selectAll()
      .where("title_en", "in", ["Gazelle plain sunrise", "Jazzy nightcap lounge", "Zebra bundle"])
      .execute();
    expect(made).toHaveLength(3);
    const video = made.find((m) => m.title_en === "Gazelle plain sunrise");
    expect(video).toMatchObject({
      contents_type: "video",
      price_krw: 12000,
      price_usd: 899,
      tags_en: "nature,sunrise",
      status: "active",
      file_path: null,
    });
    const jazz = made.find((m) => m.title_en === "Jazzy nightcap lounge");
    expect(jazz).toMatchObject({ contents_type: "audio", bpm: 92, contents_type_sub: 3002, price_type: "free" });
    const genre = await db
      .selectFrom("taxonomy")
      .select("code")
      .where("id", "=", jazz?.genre_id ?? -1)
      .executeTakeFirst();
    expect(genre?.code).toBe("jazz");
    expect(html).toContain(`href="/admin/catalog/${video?.id}"`);
    expect(await store("/search/all?keywords=gazelle")).toContain(video?.code);
    expect(await store("/search/all?keywords=nightcap")).toContain(jazz?.code);
    const after = await db
      .selectFrom("audit_log")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("action", "=", "content.create")
      .executeTakeFirstOrThrow();
    expect(Number(after.n) - Number(before.n)).toBe(3);
    const line = await db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "content.import")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(JSON.parse(line.after_json ?? "{}").accepted).toHaveLength(3);
  });

  it("imports an XLSX sheet, and refuses a sheet without the header, a file that is not a sheet, and none", async () => {
    const { default: Excel } = await import("exceljs");
    const workbook = new Excel.Workbook();
    const ws = workbook.addWorksheet("items");
    ws.addRow(["Type", "Title_KO", "Title_EN", "price_type", "price_krw", "price_usd"]);
    ws.addRow(["icon", "낙타 아이콘", "Camel outline icon", "paid", 3000, 199]);
    ws.addRow(["icon", "낙타 아이콘 2", "Camel outline icon 2", "paid", -3, 199]);
    const xlsx = new Uint8Array(await workbook.xlsx.writeBuffer());
    const res = await importSheet("items.xlsx", xlsx);
    const html = (await res.text()).replaceAll("<!-- -->", "");
    expect(html).toContain("Rows read: 2. Added: 1. Rejected: 1.");
    expect(
      await db.selectFrom("contents").select("price_krw").where("title_en", "=", "Camel outline icon").executeTakeFirstOrThrow(),
    ).toEqual({ price_krw: 3000 });
    for (const [name, bytes, message] of [
      ["no-header.csv", "icon,아이콘,Icon,paid,1000,99", "The first row must name the columns"],
      ["picture.csv", eventImagePng(0), "The sheet could not be read."],
      ["picture.png", eventImagePng(0), "The sheet could not be read."],
      ["fake.xlsx", "type,title_ko,title_en", "The sheet could not be read."],
    ] as const) {
      const r = await importSheet(name, bytes);
      expect(r.status, name).toBe(400);
      expect((await r.text()).replaceAll("<!-- -->", "")).toContain(message);
    }
    const none = await call("/admin/catalog/import", {
      method: "POST",
      headers: { ...en, cookie },
      body: new FormData(),
      ip: "198.51.100.131",
    });
    expect(none.status).toBe(400);
    expect((await none.text()).replaceAll("<!-- -->", "")).toContain("Choose a CSV or XLSX file.");
    // The page lists the taxonomy codes a sheet may use.
    expect((await page("/admin/catalog/import")).html).toContain("<code>jazz</code>");
  });

  it("gives an item without a file (an imported one) its media file, or replaces one, and makes its previews again, audited", async () => {
    const [item] = await importThenFind("Ibex outline icon");
    const send = (bytes: Uint8Array | null, name: string) => {
      const body = new FormData();
      body.append("intent", "media-replace");
      if (bytes) body.append("file", new File([bytes as BlobPart], name));
      return call(`/admin/catalog/${item.id}`, { method: "POST", headers: { ...en, cookie }, body, ip: "198.51.100.131" });
    };
    expect((await page(`/admin/catalog/${item.id}`)).html).toContain("No media file yet.");
    const wrong = await send(fontBytes(), "icon.png");
    expect(wrong.status).toBe(400);
    expect((await wrong.text()).replaceAll("<!-- -->", "")).toContain("This file is not of a kind this type takes");
    expect((await send(null, "none.png")).status).toBe(400);
    const ok = await send(eventImagePng(2), "icon.png");
    expect((await ok.text()).replaceAll("<!-- -->", "")).toContain("The file was stored; the previews are being made again.");
    const row = await db.selectFrom("contents").selectAll().where("id", "=", item.id).executeTakeFirstOrThrow();
    expect(row.file_path).toBe(`uploads/${item.code}.png`);
    expect(await auditOf("content.media_replace", item.id)).toBeTruthy();
    expect(await runMediaJobs(db, createLocalStorage(dataDir))).toEqual({ done: 1, failed: 0 });
    expect((await db.selectFrom("contents").select("poster_path").where("id", "=", item.id).executeTakeFirstOrThrow()).poster_path).toBe(
      `/media/uploads/${item.code}/picture.png`,
    );
    // Replaced by an SVG: the PNG original is removed after the commit.
    await send(
      new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64"/></svg>'),
      "i.svg",
    );
    expect(fs.existsSync(path.join(dataDir, "storage", "uploads", `${item.code}.png`))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, "storage", "uploads", `${item.code}.svg`))).toBe(true);
    expect(await runMediaJobs(db, createLocalStorage(dataDir))).toEqual({ done: 1, failed: 0 });
    expect(await db.selectFrom("contents").select(["width", "poster_path"]).where("id", "=", item.id).executeTakeFirstOrThrow()).toEqual({
      width: 64,
      poster_path: `/media/uploads/${item.code}/picture.svg`,
    });
  });
});
