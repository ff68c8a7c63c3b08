import { sql } from "kysely";
import type { Storage } from "../../integrations/storage/storage";
import { reindexContents } from "../../market/search/indexer.server";
import { hashPassword } from "../../market/users/password.server";
import type { DB } from "../db.server";
import type { ContentsType, NewContent, PriceType } from "../schema";
import { COMPANY, FAQ, NOTICE_TITLES, POLICIES } from "./documents";
import { EVENT_IMAGES } from "./event-images";
import {
  audioMedia,
  BANNER_COUNT,
  BGM_COUNT,
  FONTS,
  ICON_COUNT,
  POSTER_COUNT,
  publishMediaPool,
  SE_COUNT,
  sceneMedia,
  writeMediaPool,
} from "./media.server";
import { createRandom, type Random } from "./random";
import { seedBusinessRequests } from "./requests";
import { SCENES } from "./scenes";
import { CATEGORIES, GENRES, MOODS, SOUND_EFFECTS, SUBJECTS, THEMES } from "./vocabulary";

/** Demo accounts and licences, listed in the README. */
export const DEMO = {
  password: "market1234!",
  member: { email: "member@example.com", nickname: "데모회원" },
  business: { email: "business@example.com", nickname: "데모기업", organization: "데모 스튜디오" },
  /** A member who has bought nothing yet (benefits locked, nothing to download). */
  newcomer: { email: "newcomer@example.com", nickname: "새내기", serial: "VEDT-IND-0003-DEMO", hw_info: "HW-DEMO-IND-0003" },
  licenses: {
    individual: { serial: "VEDT-IND-0001-DEMO", hw_info: "HW-DEMO-IND-0001" },
    b2bg: { serial: "VEDT-B2B-0001-DEMO", hw_info: "HW-DEMO-B2B-0001" },
    nonmember: { serial: "VEDT-NON-0001-DEMO", hw_info: "HW-DEMO-NON-0001" },
  },
  /** The operator console's demo operators, one per role (production has none until `npm run operator:create`). */
  operators: [
    { email: "operator@example.com", name: "데모 관리자", role: "admin" },
    { email: "support@example.com", name: "데모 고객지원", role: "support" },
    { email: "catalog@example.com", name: "데모 콘텐츠", role: "catalog" },
    { email: "finance@example.com", name: "데모 재무", role: "finance" },
  ],
} as const;

/** The catalog's dates are fixed so that two seeds of the same size are identical. */
const CATALOG_EPOCH = Date.UTC(2026, 9, 1);
const DAY = 86_400_000;

const TYPE_SHARE: readonly (readonly [ContentsType, number])[] = [
  ["video", 0.3],
  ["icon", 0.25],
  ["audio", 0.35],
  ["font", 0.03],
  ["package", 0.07],
];

export interface SeedOptions {
  size: number;
  dataDir: string;
  /** The store's storage when it is not the local disk under dataDir (STORAGE_URL): the pool is copied into it. */
  storage?: Storage;
  /** Where encoded demo clips are kept for other data folders (MEDIA_CACHE_DIR; "off": nowhere). */
  mediaCacheDir?: string;
  log?: (line: string) => void;
}

/** True once the database holds the demo catalog. */
export async function isSeeded(db: DB): Promise<boolean> {
  const row = await db.selectFrom("settings").select("value").where("key", "=", "seeded_at").executeTakeFirst();
  return Boolean(row);
}

/** Fills an empty, migrated database with the deterministic demo catalog. Does nothing if already seeded. */
export async function seedDatabase(db: DB, options: SeedOptions): Promise<{ contents: number; skipped: boolean }> {
  // The media pool is checked on every start: a data folder that lost it (or an older version) gets it back.
  const log = options.log ?? (() => {});
  const media = await writeMediaPool(options.dataDir, log, options.mediaCacheDir);
  if (options.storage && options.storage.kind !== "local") {
    const sent = await publishMediaPool(options.dataDir, options.storage);
    if (sent) log(`media pool of ${sent} files copied to the object store`);
  }
  if (await isSeeded(db)) return { contents: 0, skipped: true };
  const rnd = createRandom(20261122);
  const now = new Date().toISOString();
  let contents = 0;
  await db.transaction().execute(async (trx) => {
    const tax = await seedTaxonomy(trx);
    contents = await seedContents(trx, rnd, tax, options.size, log, media.clips);
    await seedThemes(trx, rnd, tax);
    const t0 = Date.now();
    await reindexContents(trx);
    log(`search index written in ${Date.now() - t0} ms`);
    await seedMarketing(trx);
    await seedPassPrices(trx);
    await seedDocuments(trx, now);
    await seedAccounts(trx, now);
    await trx
      .insertInto("settings")
      .values([
        { key: "seeded_at", value: now },
        { key: "seed_size", value: String(options.size) },
        { key: "company_name_ko", value: COMPANY.name_ko },
        { key: "company_name_en", value: COMPANY.name_en },
        { key: "maintenance_window", value: "2021-06-19T15:00:00Z/2021-06-19T21:00:00Z" },
      ])
      .execute();
  });
  // Fresh statistics let the planners pick the search indexes (both engines understand ANALYZE).
  await sql`ANALYZE`.execute(db);
  log(`seeded ${contents} items`);
  return { contents, skipped: false };
}

type TaxonomyIds = {
  category: Record<ContentsType, number[]>;
  genre: number[];
  mood: number[];
  theme: Record<ContentsType, number[]>;
};

async function seedTaxonomy(db: DB): Promise<TaxonomyIds> {
  const ids: TaxonomyIds = {
    category: { video: [], icon: [], audio: [], font: [], package: [] },
    genre: [],
    mood: [],
    theme: { video: [], icon: [], audio: [], font: [], package: [] },
  };
  const add = async (
    kind: "category" | "genre" | "mood" | "theme",
    space: ContentsType,
    terms: readonly (readonly [string, string, string])[],
  ) => {
    const out: number[] = [];
    for (const [i, [code, ko, en]] of terms.entries()) {
      const row = await db
        .insertInto("taxonomy")
        .values({ kind, space, code, name_ko: ko, name_en: en, parent_id: null, sort: i })
        .returning("id")
        .executeTakeFirstOrThrow();
      out.push(row.id);
    }
    return out;
  };
  for (const space of Object.keys(CATEGORIES) as ContentsType[]) {
    ids.category[space] = await add("category", space, CATEGORIES[space]);
    ids.theme[space] = await add("theme", space, THEMES[space]);
  }
  ids.genre = await add("genre", "audio", GENRES);
  ids.mood = await add("mood", "audio", MOODS);
  return ids;
}

function price(rnd: Random, type: ContentsType): { price_type: PriceType; price_krw: number; price_usd: number } {
  const roll = rnd.next();
  const price_type: PriceType = roll < 0.72 ? "paid" : roll < 0.9 ? "free" : "benefit";
  if (price_type !== "paid") return { price_type, price_krw: 0, price_usd: 0 };
  const base = { video: [9, 40], icon: [1, 5], audio: [3, 20], font: [15, 45], package: [30, 90] }[type];
  const thousands = rnd.int(base[0], base[1]);
  const price_krw = thousands * 1000;
  const price_usd = Math.max(99, Math.round(price_krw / 1400) * 100 - 1);
  return { price_type, price_krw, price_usd };
}

async function insertChunked<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>, size = 400) {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

async function seedContents(db: DB, rnd: Random, tax: TaxonomyIds, size: number, log: (l: string) => void, clips: boolean) {
  const rows: NewContent[] = [];
  const counts: Record<ContentsType, number> = { video: 0, icon: 0, audio: 0, font: 0, package: 0 };
  for (let i = 0; i < size; i++) {
    let r = (i * 0.6180339887) % 1; // low-discrepancy spread over types: deterministic and even
    let type: ContentsType = "video";
    for (const [t, share] of TYPE_SHARE) {
      if (r < share) {
        type = t;
        break;
      }
      r -= share;
    }
    if (type === "font" && counts.font >= FONTS.length * 6) type = "icon";
    const n = ++counts[type];
    rows.push(makeContent(rnd, tax, type, n, i, clips));
  }
  const t0 = Date.now();
  await insertChunked(rows, (chunk) => db.insertInto("contents").values(chunk).execute());
  log(`inserted ${rows.length} contents in ${Date.now() - t0} ms`);

  // Packages bundle video, icon and audio (BGM) items.
  const pick = async (type: ContentsType, sub: number | null, limit: number) =>
    db
      .selectFrom("contents")
      .select("id")
      .where("contents_type", "=", type)
      .where("price_type", "=", "paid")
      .$if(sub !== null, (q) => q.where("contents_type_sub", "=", sub))
      .orderBy("id")
      .limit(limit)
      .execute();
  const videos = await pick("video", null, 60);
  const icons = await pick("icon", null, 60);
  const bgms = await pick("audio", 3002, 60);
  const packages = await db.selectFrom("contents").select("id").where("contents_type", "=", "package").orderBy("id").execute();
  const links: { package_id: number; content_id: number; sort: number }[] = [];
  packages.forEach((p, i) => {
    const members = [videos, videos, icons, icons, icons, bgms, bgms];
    const seen = new Set<number>();
    members.forEach((list, k) => {
      if (list.length === 0) return;
      const id = list[(i * 7 + k * 3) % list.length].id;
      if (!seen.has(id)) {
        seen.add(id);
        links.push({ package_id: p.id, content_id: id, sort: k });
      }
    });
  });
  await insertChunked(links, (chunk) => db.insertInto("package_items").values(chunk).execute(), 800);
  return rows.length;
}

function makeContent(rnd: Random, tax: TaxonomyIds, type: ContentsType, n: number, i: number, clips: boolean): NewContent {
  const released = new Date(CATALOG_EPOCH - rnd.int(0, 720) * DAY - rnd.int(0, 86_399) * 1000).toISOString();
  const categoryIds = tax.category[type];
  const base = {
    code: `${type.slice(0, 2).toUpperCase()}${String(i + 1).padStart(7, "0")}`,
    contents_type: type,
    contents_type_sub: null as number | null,
    category_id: categoryIds[(n - 1) % categoryIds.length],
    genre_id: null as number | null,
    mood_id: null as number | null,
    duration_ms: null as number | null,
    bpm: null as number | null,
    width: null as number | null,
    height: null as number | null,
    preview_path: null as string | null,
    poster_path: null as string | null,
    font_family: null as string | null,
    status: rnd.chance(0.01) ? "discontinued" : "active",
    popularity: Math.floor(10_000 * rnd.next() ** 3),
    sales_count: rnd.int(0, 5000),
    released_at: released,
    created_at: released,
    ...price(rnd, type),
  } as const;
  const mood = rnd.pick(MOODS);
  switch (type) {
    case "video": {
      const subject = (n - 1) % SUBJECTS.video.length;
      const [ko, en, tko, ten] = SUBJECTS.video[subject];
      const uhd = rnd.chance(0.3);
      rnd.int(0, POSTER_COUNT - 1); // was the poster's number: drawn still, so the rest of the catalog stays the same

      return {
        ...base,
        title_ko: `${ko} ${n}`,
        title_en: `${en} ${n}`,
        description_ko: `${mood[1]} 분위기의 ${ko} 영상 클립입니다. ${uhd ? "4K" : "Full HD"} 해상도로 편집에 바로 쓸 수 있습니다.`,
        description_en: `A ${mood[2].toLowerCase()} ${en.toLowerCase()} video clip in ${uhd ? "4K" : "Full HD"}, ready for your edit.`,
        tags_ko: `${tko},${mood[1]}`,
        tags_en: `${ten},${mood[2].toLowerCase()}`,
        mood_id: tax.mood[MOODS.indexOf(mood)],
        duration_ms: rnd.int(5, 60) * 1000,
        width: uhd ? 3840 : 1920,
        height: uhd ? 2160 : 1080,
        // The subject's own scene (ocean sunset, city at night...): its poster and, with ffmpeg, its clip.
        ...sceneMedia(SCENES[subject % SCENES.length], clips),
        file_size: rnd.int(20, 400) * 1_000_000,
      };
    }
    case "icon": {
      const k = (n - 1) % SUBJECTS.icon.length;
      const [ko, en, tko, ten] = SUBJECTS.icon[k];
      const icon = (k + 12 * ((n - 1) % 2)) % ICON_COUNT;
      const style = n % 2 === 0 ? ["선", "line"] : ["면", "filled"];
      return {
        ...base,
        title_ko: `${ko} 아이콘 ${style[0]} ${n}`,
        title_en: `${en} icon, ${style[1]} ${n}`,
        description_ko: `${style[0]} 스타일의 ${ko} 아이콘입니다.`,
        description_en: `A ${style[1]} ${en.toLowerCase()} icon.`,
        tags_ko: `${tko},아이콘`,
        tags_en: `${ten},icon`,
        width: 256,
        height: 256,
        preview_path: `/media/icons/icon-${icon}.svg`,
        poster_path: `/media/icons/icon-${icon}.svg`,
        file_path: `icons/icon-${icon}.svg`,
        file_size: rnd.int(2, 40) * 1000,
      };
    }
    case "audio": {
      const roll = rnd.next();
      const sub = roll < 0.6 ? 3002 : roll < 0.9 ? 3001 : 3003;
      if (sub === 3001) {
        const k = (n - 1) % SOUND_EFFECTS.length;
        const [ko, en, tko, ten] = SOUND_EFFECTS[k];
        return {
          ...base,
          contents_type_sub: sub,
          title_ko: `${ko} ${n}`,
          title_en: `${en} ${n}`,
          description_ko: `영상 전환과 강조에 어울리는 ${ko} 효과음입니다.`,
          description_en: `A ${en.toLowerCase()} sound effect for transitions and emphasis.`,
          tags_ko: `${tko},효과음`,
          tags_en: `${ten},sound effect`,
          duration_ms: rnd.int(5, 40) * 100,
          ...audioMedia(`se-${k % SE_COUNT}`),
          file_size: rnd.int(50, 900) * 1000,
        };
      }
      const [ko, en, tko, ten] = SUBJECTS.audio[(n - 1) % SUBJECTS.audio.length];
      const genre = rnd.pick(GENRES);
      const bpm = rnd.int(50, 180);
      const track = Math.min(BGM_COUNT - 1, Math.floor(((bpm - 50) / 131) * BGM_COUNT));
      const ai = sub === 3003;
      return {
        ...base,
        contents_type_sub: sub,
        title_ko: `${mood[1]} ${ko}${ai ? " (AI)" : ""} ${n}`,
        title_en: `${mood[2]} ${en}${ai ? " (AI)" : ""} ${n}`,
        description_ko: `${genre[1]} 장르의 ${mood[1]} ${ai ? "AI 배경음악" : "배경음악"}입니다. 템포 ${bpm} BPM.`,
        description_en: `${mood[2]} ${genre[2].toLowerCase()} ${ai ? "AI background music" : "background music"} at ${bpm} BPM.`,
        tags_ko: `${tko},${genre[1]},${mood[1]}${ai ? ",AI" : ""}`,
        tags_en: `${ten},${genre[2].toLowerCase()},${mood[2].toLowerCase()}${ai ? ",ai" : ""}`,
        genre_id: tax.genre[GENRES.indexOf(genre)],
        mood_id: tax.mood[MOODS.indexOf(mood)],
        duration_ms: rnd.int(30, 240) * 1000,
        bpm,
        ...audioMedia(`bgm-${track}`),
        file_size: rnd.int(2, 9) * 1_000_000,
      };
    }
    case "font": {
      const k = (n - 1) % FONTS.length;
      const font = FONTS[k];
      const cat = CATEGORIES.font.findIndex(([code]) => code === font.cate);
      const edition = Math.floor((n - 1) / FONTS.length) + 1;
      return {
        ...base,
        category_id: tax.category.font[cat],
        title_ko: edition === 1 ? font.ko : `${font.ko} ${edition}`,
        title_en: edition === 1 ? font.family : `${font.family} ${edition}`,
        description_ko: `${font.hangul ? "한글과 영문을 지원하는" : "영문 전용"} ${font.ko} 글꼴입니다. SIL 오픈 폰트 라이선스.`,
        description_en: `${font.family}, a ${font.hangul ? "Korean and Latin" : "Latin"} typeface under the SIL Open Font License.`,
        tags_ko: `글꼴,폰트,${font.ko}`,
        tags_en: `font,typeface,${font.family.toLowerCase()}`,
        font_family: font.family,
        file_path: `fonts/font-${k}.ttf`,
        file_size: 400_000 + k * 90_000,
      };
    }
    case "package": {
      const [ko, en, tko, ten] = SUBJECTS.package[(n - 1) % SUBJECTS.package.length];
      const poster = rnd.int(0, POSTER_COUNT - 1);
      return {
        ...base,
        title_ko: `${ko} ${n}`,
        title_en: `${en} ${n}`,
        description_ko: `영상, 아이콘, 배경음악을 한 번에 담은 ${ko}입니다.`,
        description_en: `Video, icons and background music together: the ${en.toLowerCase()}.`,
        tags_ko: `${tko},패키지`,
        tags_en: `${ten},package`,
        poster_path: `/media/posters/poster-${poster}.svg`,
        preview_path: `/media/posters/poster-${poster}.svg`,
        file_path: null,
        file_size: null,
      };
    }
  }
}

async function seedThemes(db: DB, rnd: Random, tax: TaxonomyIds) {
  const rows: { theme_id: number; content_id: number; sort: number }[] = [];
  for (const space of Object.keys(tax.theme) as ContentsType[]) {
    for (const themeId of tax.theme[space]) {
      const items = await db
        .selectFrom("contents")
        .select("id")
        .where("contents_type", "=", space)
        .where("status", "=", "active")
        .orderBy("popularity", "desc")
        .offset(rnd.int(0, 20))
        .limit(24)
        .execute();
      for (const [sort, it] of items.entries()) rows.push({ theme_id: themeId, content_id: it.id, sort });
    }
  }
  await insertChunked(rows, (chunk) => db.insertInto("theme_items").values(chunk).execute(), 800);
}

async function seedMarketing(db: DB) {
  const pages = ["home", "video", "icon", "audio", "package", "benefit", "font"] as const;
  const titles: Record<(typeof pages)[number], [string, string, string, string]> = {
    home: [
      "영상 편집을 완성하는 에셋",
      "Assets that finish your edit",
      "영상, 아이콘, 오디오, 글꼴을 한곳에서",
      "Video, icons, audio and fonts in one place",
    ],
    video: ["지금 뜨는 영상 클립", "Trending video clips", "4K 클립으로 장면을 채우세요", "Fill your scenes with 4K clips"],
    icon: ["깔끔한 아이콘", "Clean icons", "선과 면 스타일 아이콘", "Line and filled icons"],
    audio: [
      "분위기를 만드는 음악",
      "Music that sets the mood",
      "배경음악, AI 배경음악, 효과음",
      "Background music, AI background music, sound effects",
    ],
    package: ["한 번에 끝내는 패키지", "Packages that do it all", "영상, 아이콘, 배경음악 묶음", "Video, icon and music bundles"],
    benefit: ["무료와 혜택 콘텐츠", "Free and benefit content", "정품 사용자를 위한 콘텐츠", "Content for licensed users"],
    font: ["자막을 살리는 글꼴", "Fonts for captions", "한글과 영문 글꼴", "Korean and Latin typefaces"],
  };
  // The second banner of a page says something else: two banners side by side never repeat one headline.
  const second: Record<(typeof pages)[number], [string, string, string, string]> = {
    home: [
      "이용권으로 더 많이 내려받기",
      "Download more with a pass",
      "기간 동안 정해진 수만큼 자유롭게",
      "A set number of downloads for the period",
    ],
    video: ["하늘, 바다, 도시의 밤", "Skies, seas and city nights", "편집에 바로 쓰는 풍경 클립", "Scenery clips ready to cut in"],
    icon: [
      "선과 면, 두 가지 스타일",
      "Two styles: line and filled",
      "자막과 썸네일에 어울리는 256px",
      "256 px for captions and thumbnails",
    ],
    audio: ["장면에 힘을 주는 효과음", "Sound effects that land the moment", "전환, 알림, 휘익 소리", "Transitions, chimes and whooshes"],
    package: ["영상·아이콘·음악을 한 번에", "Video, icons and music at once", "묶음으로 더 알뜰하게", "Save with bundles"],
    benefit: ["정품 사용자 혜택", "Perks for licensed users", "구매 회원에게 무료인 콘텐츠", "Free for members who have bought"],
    font: ["손글씨부터 제목체까지", "From handwriting to headlines", "영상 자막에 어울리는 글꼴", "Typefaces that suit captions"],
  };
  const banners = pages.flatMap((page, p) =>
    [0, 1].map((k) => ({
      page,
      kind: k === 0 ? "keyvisual" : "banner",
      title_ko: (k === 0 ? titles : second)[page][0],
      title_en: (k === 0 ? titles : second)[page][1],
      subtitle_ko: (k === 0 ? titles : second)[page][2],
      subtitle_en: (k === 0 ? titles : second)[page][3],
      image_path: `/media/banners/banner-${(p * 2 + k) % BANNER_COUNT}.svg`,
      link: page === "home" ? "/price" : `/${page}`,
      sort: k,
    })),
  );
  await db.insertInto("banners").values(banners).execute();
  const popular: Record<(typeof pages)[number], [string, string][]> = {
    home: [
      ["피아노", "piano"],
      ["브이로그", "vlog"],
      ["효과음", "sound effect"],
      ["노을", "sunset"],
      ["아이콘", "icon"],
    ],
    video: [
      ["노을", "sunset"],
      ["도시", "city"],
      ["벚꽃", "cherry blossom"],
      ["타임랩스", "timelapse"],
    ],
    icon: [
      ["화살표", "arrow"],
      ["날씨", "weather"],
      ["하트", "heart"],
      ["알림", "notification"],
    ],
    audio: [
      ["피아노", "piano"],
      ["잔잔한", "calm"],
      ["재즈", "jazz"],
      ["효과음", "sound effect"],
    ],
    package: [
      ["유튜브", "youtube"],
      ["웨딩", "wedding"],
      ["여행", "travel"],
    ],
    benefit: [
      ["무료", "free"],
      ["배경음악", "background music"],
    ],
    font: [
      ["손글씨", "handwriting"],
      ["제목", "title"],
      ["고딕", "sans"],
    ],
  };
  const keywords = pages.flatMap((page) =>
    popular[page].map(([ko, en], sort) => ({ page, kind: "popular", keyword_ko: ko, keyword_en: en, sort })),
  );
  await db.insertInto("keywords").values(keywords).execute();
}

async function seedPassPrices(db: DB) {
  // contents_flag: 1 image (icon), 2 video, 4 audio, 8 font; audio split by contents_type_sub.
  const groups: [flag: number, sub: number | null, perItemKrw: number][] = [
    [2, null, 7000],
    [1, null, 900],
    [4, 3002, 3500],
    [4, 3001, 1200],
    [4, 3003, 2500],
    [8, null, 9000],
  ];
  const rows = groups.flatMap(([contents_flag, contents_type_sub, per]) =>
    [10, 5].map((count) => {
      const price_krw = Math.round((per * count * (count === 10 ? 0.8 : 0.9)) / 100) * 100;
      return {
        contents_flag,
        contents_type_sub,
        contents_count: count,
        price_krw,
        price_usd: Math.round(price_krw / 1400) * 100 - 1,
        valid_days: 90,
      };
    }),
  );
  await db.insertInto("pass_prices").values(rows).execute();
}

async function seedDocuments(db: DB, now: string) {
  const effective = "2026-01-01T00:00:00.000Z";
  await db
    .insertInto("policies")
    .values(
      (Object.keys(POLICIES) as (keyof typeof POLICIES)[]).flatMap((type) =>
        (["ko", "en"] as const).map((language) => ({
          type,
          language,
          version: "1.0",
          effective_at: effective,
          body: POLICIES[type][language],
        })),
      ),
    )
    .execute();
  await db
    .insertInto("faqs")
    .values(
      FAQ.map(([category, question_ko, question_en, answer_ko, answer_en], sort) => ({
        category,
        question_ko,
        question_en,
        answer_ko,
        answer_en,
        sort,
      })),
    )
    .execute();
  await db
    .insertInto("notices")
    .values(
      Array.from({ length: 20 }, (_, i) => {
        const [ko, en] = NOTICE_TITLES[i % NOTICE_TITLES.length];
        return {
          title_ko: `${ko} (${i + 1})`,
          title_en: `${en} (${i + 1})`,
          body_ko: `${ko}에 관한 자세한 내용입니다. 이용에 참고해 주세요.`,
          body_en: `Details about: ${en.toLowerCase()}. Thank you for using the market.`,
          pinned: i === 0 ? 1 : 0,
          published_at: new Date(CATALOG_EPOCH - i * 9 * DAY).toISOString(),
        };
      }),
    )
    .execute();
  await db.insertInto("events").values(demoEvents(now)).execute();
}

/**
 * The demo events, dated from the seed's own day (Asia/Seoul, 00:00 to 23:59:59): two running (one with the
 * promotion's coupon WELCOME20), one ended and one test event (test_only) that only test mode shows on request.
 */
function demoEvents(now: string) {
  const KST = 9 * 3_600_000;
  const seedDay = Math.floor((Date.parse(now) + KST) / DAY) * DAY - KST; // 00:00 KST of the seed's day, in UTC
  const from = (days: number) => new Date(seedDay + days * DAY).toISOString();
  const until = (days: number) => new Date(seedDay + (days + 1) * DAY - 1000).toISOString();
  const image = (file: string) => `/media/events/${file}`;
  return [
    {
      title_ko: "신규 회원 20% 할인",
      title_en: "20% off for new members",
      body_ko:
        "마켓에 처음 오신 분께 첫 구매에 쓸 수 있는 20% 할인 쿠폰을 드립니다.\n단품 콘텐츠는 물론 영상, 아이콘, 오디오, 글꼴 이용권에도 쓸 수 있습니다.",
      body_en:
        "New to the market? Take 20% off your first purchase.\nThe coupon works on single items and on video, icon, audio and font passes alike.",
      image_path: image(EVENT_IMAGES[0].file),
      coupon_code: "WELCOME20",
      discount_percent: 20,
      test_only: 0,
      starts_at: from(-14),
      ends_at: until(90),
    },
    {
      title_ko: "4K 영상 컬렉션 공개",
      title_en: "New 4K video collection",
      body_ko:
        "도시, 자연, 여행 영상 클립을 4K로 새로 선보입니다.\n[영상 카테고리의 최신순 목록](/list/video/all?sort=recent)에서 새 클립을 미리 보고 장바구니에 담아 보세요.",
      body_en:
        "New 4K clips of cities, nature and travel are here.\nPreview them in [the video category, sorted by most recent](/list/video/all?sort=recent), and add your favourites to the cart.",
      image_path: image(EVENT_IMAGES[1].file),
      coupon_code: null,
      discount_percent: null,
      test_only: 0,
      starts_at: from(-3),
      ends_at: until(30),
    },
    {
      title_ko: "여름 오디오 페스티벌",
      title_en: "Summer audio festival",
      body_ko: "여름 배경음악과 효과음을 할인된 가격으로 만나 보세요.\n페스티벌 기간 동안 오디오 이용권을 특별가로 드립니다.",
      body_en:
        "Summer background music and sound effects at festival prices.\nAudio passes are on special offer for the length of the festival.",
      image_path: image(EVENT_IMAGES[2].file),
      coupon_code: null,
      discount_percent: null,
      test_only: 0,
      starts_at: from(-120),
      ends_at: until(-60),
    },
    {
      title_ko: "[테스트] 가을 프로모션 미리보기",
      title_en: "[Test] Autumn promotion preview",
      body_ko: "가을 시즌 프로모션을 공개하기 전에 화면과 안내 문구를 확인하는 이벤트입니다.\n확인이 끝나면 실제 이벤트로 다시 등록됩니다.",
      body_en:
        "The autumn promotion, set up to check its page and wording before it goes live.\nOnce checked, it is published as a real event.",
      image_path: image(EVENT_IMAGES[3].file),
      coupon_code: null,
      discount_percent: null,
      test_only: 1,
      starts_at: from(-1),
      ends_at: until(30),
    },
  ];
}

async function seedAccounts(db: DB, now: string) {
  const hash = await hashPassword(DEMO.password);
  await db
    .insertInto("operators")
    .values(DEMO.operators.map((o) => ({ ...o, password_hash: hash, active: 1, created_at: now, last_sign_in_at: null })))
    .execute();
  const member = await db
    .insertInto("users")
    .values({
      email: DEMO.member.email,
      password_hash: hash,
      nickname: DEMO.member.nickname,
      user_type: 1,
      organization: null,
      market_email_agree: 1,
      youtube_channel_id: null,
      youtube_channel_updated_at: null,
      language: "ko",
      created_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const business = await db
    .insertInto("users")
    .values({
      email: DEMO.business.email,
      password_hash: hash,
      nickname: DEMO.business.nickname,
      user_type: 2,
      organization: DEMO.business.organization,
      market_email_agree: 0,
      youtube_channel_id: null,
      youtube_channel_updated_at: null,
      language: "ko",
      created_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const newcomer = await db
    .insertInto("users")
    .values({
      email: DEMO.newcomer.email,
      password_hash: hash,
      nickname: DEMO.newcomer.nickname,
      user_type: 1,
      organization: null,
      market_email_agree: 0,
      youtube_channel_id: null,
      youtube_channel_updated_at: null,
      language: "ko",
      created_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const year = new Date(Date.parse(now) + 365 * DAY).toISOString();
  const L = DEMO.licenses;
  const keys = await db
    .insertInto("licenses")
    .values([
      {
        serial: L.individual.serial,
        alias: "작업실 PC",
        email: DEMO.member.email,
        owner_kind: "individual",
        user_id: member.id,
        hw_info: L.individual.hw_info,
        pc_name: "STUDIO-PC",
        status: "registered",
        license_type: "one_year",
        valid_until: year,
        product_version: "2.0.5.1.0",
        sort_order: 0,
        registered_at: now,
        created_at: now,
      },
      {
        serial: "VEDT-IND-0002-DEMO",
        alias: null,
        email: DEMO.member.email,
        owner_kind: "individual",
        user_id: member.id,
        hw_info: null,
        pc_name: null,
        status: "waiting_registration",
        license_type: "permanent",
        valid_until: null,
        product_version: "2.0.5.1.0",
        sort_order: 1,
        registered_at: null,
        created_at: now,
      },
      {
        serial: DEMO.newcomer.serial,
        alias: null,
        email: DEMO.newcomer.email,
        owner_kind: "individual",
        user_id: newcomer.id,
        hw_info: DEMO.newcomer.hw_info,
        pc_name: "HOME-PC-2",
        status: "registered",
        license_type: "permanent",
        valid_until: null,
        product_version: "2.0.5.1.0",
        sort_order: 0,
        registered_at: now,
        created_at: now,
      },
      {
        serial: L.b2bg.serial,
        alias: "편집팀 1",
        email: "editor1@studio.example",
        owner_kind: "b2bg",
        user_id: business.id,
        hw_info: L.b2bg.hw_info,
        pc_name: "TEAM-PC-01",
        status: "registered",
        license_type: "one_year",
        valid_until: year,
        product_version: "2.0.4.7.0",
        sort_order: 0,
        registered_at: now,
        created_at: now,
      },
      {
        serial: L.nonmember.serial,
        alias: null,
        email: "guest@example.com",
        owner_kind: "nonmember",
        user_id: null,
        hw_info: L.nonmember.hw_info,
        pc_name: "HOME-PC",
        status: "registered",
        license_type: "permanent",
        valid_until: null,
        product_version: "2.0.4.7.0",
        sort_order: 0,
        registered_at: now,
        created_at: now,
      },
    ])
    .returning(["id", "serial"])
    .execute();
  const firstKey = keys.find((k) => k.serial === L.b2bg.serial);
  if (firstKey) await seedBusinessRequests(db, now, business.id, firstKey.id);
}

/** Row counts per table: used by tests and the seed script's report. */
export async function countRows(db: DB, table: "contents" | "taxonomy" | "pass_prices" | "licenses" | "users") {
  const row = await db.selectFrom(table).select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}
