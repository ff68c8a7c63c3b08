import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { SUBJECTS } from "../../app/db/seed/vocabulary";
import { peaksOf, wavSamples } from "../../app/market/catalog/waveform";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";

type Call = Awaited<ReturnType<typeof createTestApp>>;
const en = { headers: { "accept-language": "en" } };
const ko = { headers: { "accept-language": "ko" } };
const SPACES = ["video", "icon", "audio", "package", "benefit", "font"] as const;

/** The demo catalog looks like a real store (issue 14): real media behind every card, rows that fill, headlines once. */
describe(`demo media and store looks on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Call;
  let dataDir: string;
  beforeAll(async () => {
    const t = await createTestDb();
    ({ db, drop, dataDir } = t);
    call = await createTestApp(db, { dataDir });
  });
  afterAll(() => drop());
  const html = async (p: string, init = en) => (await (await call(p, init)).text()).replaceAll("<!-- -->", "");
  const mediaFile = (url: string) => path.join(dataDir, url.replace(/^\/media\//, "media/"));

  it("gives every video item its subject's drawn poster (PNG) and a playable H.264 MP4 clip of that scene", async () => {
    const rows = await db
      .selectFrom("contents")
      .select(["title_en", "poster_path", "preview_path", "file_path"])
      .where("contents_type", "=", "video")
      .execute();
    expect(rows.length).toBeGreaterThan(10);
    const probed = new Map<string, Record<string, string>>();
    for (const row of rows) {
      const subject = SUBJECTS.video.findIndex(([, title]) => row.title_en.startsWith(`${title} `));
      expect(subject, row.title_en).toBeGreaterThanOrEqual(0);
      expect(row.poster_path).toMatch(/^\/media\/scenes\/[a-z-]+\.png$/);
      expect(row.preview_path).toBe(row.poster_path?.replace("/scenes/", "/clips/").replace(/\.png$/, ".mp4"));
      expect(
        fs
          .readFileSync(mediaFile(row.poster_path ?? ""))
          .subarray(1, 4)
          .toString("ascii"),
      ).toBe("PNG");
      expect(fs.existsSync(path.join(dataDir, "storage", row.file_path ?? ""))).toBe(true);
      const clip = row.preview_path ?? "";
      if (!probed.has(clip)) {
        const out = execFileSync(
          "ffprobe",
          [
            "-v",
            "error",
            "-show_entries",
            "format=format_name,duration:stream=codec_name,width,height,pix_fmt",
            "-of",
            "default=nw=1",
            mediaFile(clip),
          ],
          {
            encoding: "utf8",
          },
        );
        probed.set(
          clip,
          Object.fromEntries(
            out
              .trim()
              .split("\n")
              .map((l) => l.split("=") as [string, string]),
          ),
        );
      }
      const info = probed.get(clip) ?? {};
      expect(info.format_name).toContain("mp4");
      expect(info).toMatchObject({ codec_name: "h264", width: "640", height: "360", pix_fmt: "yuv420p" });
      expect(Number(info.duration)).toBeCloseTo(4, 1);
    }
    // Different subjects, different scenes: a few clips reused across the catalog, not one for all.
    expect(new Set(rows.map((r) => r.preview_path)).size).toBe(Math.min(SUBJECTS.video.length, rows.length));
  });

  it("gives every audio item precomputed peaks of its own preview and the waveform drawn from them as its poster", async () => {
    const rows = await db
      .selectFrom("contents")
      .select(["code", "poster_path", "preview_path"])
      .where("contents_type", "=", "audio")
      .execute();
    for (const row of rows) {
      expect(row.poster_path).toMatch(/^\/media\/audio\/(bgm|se)-\d\.waveform\.svg$/);
      const peaksFile = mediaFile(row.poster_path?.replace(/waveform\.svg$/, "peaks.json") ?? "");
      const data = JSON.parse(fs.readFileSync(peaksFile, "utf8")) as { peaks: number[]; sampleRate: number; length: number };
      const samples = wavSamples(fs.readFileSync(mediaFile(row.preview_path ?? ""))) ?? new Int16Array(0);
      expect(data.peaks).toEqual(peaksOf(samples));
      expect(data.length / data.sampleRate).toBeGreaterThan(0.9);
      expect(Math.max(...data.peaks)).toBeGreaterThan(0.05);
      const svg = fs.readFileSync(mediaFile(row.poster_path ?? ""), "utf8");
      expect(svg.match(/<rect x=/g)?.length).toBe(64);
    }
    const body = await html("/audio");
    const card = body.split('<li class="card card-audio">')[1] ?? "";
    expect(card).toMatch(/<img src="\/media\/audio\/(bgm|se)-\d\.waveform\.svg"/);
    expect(body).not.toContain("thumb-glyph");
  });

  it("shows each font card's sample in the font itself (a subset of the font's name)", async () => {
    const body = await html("/font");
    const cards = body.split('<li class="card card-font">').slice(1);
    expect(cards.length).toBeGreaterThan(0);
    for (const card of cards) {
      const face =
        /@font-face\{font-family:"(card-FO\d+)";src:url\("(\/api\/v1\/font\/subset\?contents_code=FO\d+&amp;text=[^"]+|\/api\/v1\/font\/subset\?contents_code=FO\d+&text=[^"]+)"\)/.exec(
          card,
        );
      expect(face, card.slice(0, 300)).not.toBeNull();
      expect(card).toContain(`font-family:&quot;${face?.[1]}&quot;`);
      const subset = await call((face?.[2] ?? "").replaceAll("&amp;", "&"));
      expect(subset.status).toBe(200);
      expect(
        Buffer.from(await subset.arrayBuffer())
          .subarray(0, 4)
          .toString("ascii"),
      ).toBe("wOF2");
    }
  });

  it("lays out best-seller rows as full rows of four (home) and eight (landings), never a lone column", async () => {
    for (const init of [en, ko]) {
      const home = await html("/", init);
      const rows = [...home.matchAll(/<ul class="card-grid card-row"[^>]*>([\s\S]*?)<\/ul>/g)];
      expect(rows.length).toBe(4);
      for (const [, items] of rows) expect(items.match(/<li class="card /g)?.length).toBe(4);
      for (const space of SPACES) {
        const landing = await html(`/${space}`, init);
        const lists = [...landing.matchAll(/<ul class="card-grid card-row"[^>]*>([\s\S]*?)<\/ul>/g)];
        expect(lists.length, space).toBe(2);
        for (const [, items] of lists) {
          // Whole rows of four (a space with fewer than four items shows them all).
          const n = items.match(/<li class="card /g)?.length ?? 0;
          expect(n >= 4 ? n % 4 : 0, `${space}: ${n} cards`).toBe(0);
          expect(n, space).toBeGreaterThan(0);
        }
      }
    }
  });

  it("shows no headline twice on home and the landings, in both languages", async () => {
    for (const init of [en, ko]) {
      for (const page of ["/", ...SPACES.map((s) => `/${s}`)]) {
        const body = await html(page, init);
        const headlines = [...body.matchAll(/<span class="banner-text"><strong>([^<]+)<\/strong>/g)].map((m) => m[1]);
        const h1 = /<h1[^>]*>([^<]+)<\/h1>/.exec(body)?.[1];
        expect(headlines.length, page).toBeGreaterThan(0);
        expect(new Set(headlines).size, `${page}: ${headlines.join(" | ")}`).toBe(headlines.length);
        expect(headlines, page).not.toContain(h1);
      }
    }
  });
});
