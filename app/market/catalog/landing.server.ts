import type { DB } from "../../db/db.server";
import type { ContentsType } from "../../db/schema";
import type { Locale } from "../../i18n/config";
import { type ContentCard, selectCards, toCard } from "./cards.server";

export const SPACES = ["video", "icon", "audio", "package", "benefit", "font"] as const;
export type Space = (typeof SPACES)[number];
export const isSpace = (v: unknown): v is Space => typeof v === "string" && (SPACES as readonly string[]).includes(v);

export interface Banner {
  id: number;
  kind: string;
  title: string;
  subtitle: string;
  image: string;
  link: string;
}

export interface Term {
  id: number;
  code: string;
  name: string;
  space: string;
}

const pickLang = (locale: Locale, ko: string, en: string) => (locale === "ko" ? ko : en);

/** The shown banners and key visuals of a page, in the console's order (hidden ones stay in the table). */
export async function listBanners(db: DB, page: string, locale: Locale): Promise<Banner[]> {
  const rows = await db
    .selectFrom("banners")
    .selectAll()
    .where("page", "=", page)
    .where("visible", "=", 1)
    .orderBy("sort")
    .orderBy("id")
    .execute();
  return rows.map((r) => toBanner(r, locale));
}

/** A banner row as the storefront shows it (also the console's preview of a draft). */
export function toBanner(
  r: {
    id: number;
    kind: string;
    title_ko: string;
    title_en: string;
    subtitle_ko: string;
    subtitle_en: string;
    image_path: string;
    link: string;
  },
  locale: Locale,
): Banner {
  return {
    id: r.id,
    kind: r.kind,
    title: pickLang(locale, r.title_ko, r.title_en),
    subtitle: pickLang(locale, r.subtitle_ko, r.subtitle_en),
    image: r.image_path,
    link: r.link,
  };
}

export async function listKeywords(db: DB, page: string, locale: Locale, kind = "popular"): Promise<string[]> {
  const rows = await db
    .selectFrom("keywords")
    .select(["keyword_ko", "keyword_en"])
    .where("page", "=", page)
    .where("kind", "=", kind)
    .where("visible", "=", 1)
    .orderBy("sort")
    .orderBy("id")
    .execute();
  return rows.map((r) => pickLang(locale, r.keyword_ko, r.keyword_en));
}

export async function listTerms(
  db: DB,
  kind: "category" | "genre" | "mood" | "theme",
  space: ContentsType,
  locale: Locale,
): Promise<Term[]> {
  const rows = await db
    .selectFrom("taxonomy")
    .select(["id", "code", "name_ko", "name_en", "space"])
    .where("kind", "=", kind)
    .where("space", "=", space)
    .orderBy("sort")
    .execute();
  return rows.map((r) => ({ id: r.id, code: r.code, name: pickLang(locale, r.name_ko, r.name_en), space: r.space }));
}

type Order = "popularity" | "released_at";

/**
 * The first items of a space in one order, active items only. Free & benefit spans two price types:
 * each is read in index order and the two short runs are merged, so no query sorts the whole catalog.
 */
async function topOfSpace(db: DB, space: Space, order: Order, locale: Locale, limit: number): Promise<ContentCard[]> {
  const run = (where: (q: ReturnType<typeof base>) => ReturnType<typeof base>) =>
    where(base()).orderBy(order, "desc").orderBy("id").limit(limit).execute();
  const base = () => selectCards(db.selectFrom("contents")).where("status", "=", "active");
  const rows =
    space === "benefit"
      ? (await Promise.all((["free", "benefit"] as const).map((p) => run((q) => q.where("price_type", "=", p)))))
          .flat()
          .sort((a, b) => (a[order] < b[order] ? 1 : a[order] > b[order] ? -1 : a.id - b.id))
          .slice(0, limit)
      : await run((q) => q.where("contents_type", "=", space as ContentsType));
  return rows.map((r) => toCard(r, locale));
}

/** Best sellers of a space, by popularity. */
export const listBestSellers = (db: DB, space: Space, locale: Locale, limit = 8) => topOfSpace(db, space, "popularity", locale, limit);

/** Newest items of a space. */
export const listNewest = (db: DB, space: Space, locale: Locale, limit = 8) => topOfSpace(db, space, "released_at", locale, limit);

/** The columns of a landing's card row (4, 2 on phones): a row shows whole rows of cards, never a lone one. */
export const ROW_COLUMNS = 4;

/** The cards that fill whole rows: a space with fewer than a row shows what it has. */
export function fullRows<T>(cards: T[], columns = ROW_COLUMNS): T[] {
  return cards.length < columns ? cards : cards.slice(0, cards.length - (cards.length % columns));
}

export interface HomePage {
  mode: "full" | "service-stop";
  keyVisuals: Banner[];
  bestSellers: { space: Space; items: ContentCard[] }[];
  categories: Term[];
  genres: Term[];
  moods: Term[];
  keywords: string[];
}

/** Everything the home page shows. In service-stop mode only the notice image is shown. */
export async function homePage(db: DB, locale: Locale, mode: "full" | "service-stop"): Promise<HomePage> {
  if (mode === "service-stop") {
    return { mode, keyVisuals: [], bestSellers: [], categories: [], genres: [], moods: [], keywords: [] };
  }
  const spaces: Space[] = ["video", "icon", "audio", "font"];
  const [keyVisuals, bestSellers, categories, genres, moods, keywords] = await Promise.all([
    listBanners(db, "home", locale),
    Promise.all(spaces.map(async (space) => ({ space, items: fullRows(await listBestSellers(db, space, locale, ROW_COLUMNS)) }))),
    listTerms(db, "category", "video", locale),
    listTerms(db, "genre", "audio", locale),
    listTerms(db, "mood", "audio", locale),
    listKeywords(db, "home", locale),
  ]);
  return { mode, keyVisuals, bestSellers, categories, genres, moods, keywords };
}

export interface CategoryLanding {
  space: Space;
  banners: Banner[];
  bestSellers: ContentCard[];
  newest: ContentCard[];
  categories: Term[];
  genres: Term[];
  moods: Term[];
  keywords: string[];
}

/** A category landing (sub-main): banners, best sellers, newest, categories and, for audio, genres and moods. */
export async function categoryLanding(db: DB, space: Space, locale: Locale): Promise<CategoryLanding> {
  const taxonomySpace: ContentsType = space === "benefit" ? "audio" : space;
  const [banners, bestSellers, newest, categories, genres, moods, keywords] = await Promise.all([
    listBanners(db, space, locale),
    listBestSellers(db, space, locale, 2 * ROW_COLUMNS).then((cards) => fullRows(cards)),
    listNewest(db, space, locale, 2 * ROW_COLUMNS).then((cards) => fullRows(cards)),
    space === "benefit" ? Promise.resolve([]) : listTerms(db, "category", taxonomySpace, locale),
    space === "audio" ? listTerms(db, "genre", "audio", locale) : Promise.resolve([]),
    space === "audio" ? listTerms(db, "mood", "audio", locale) : Promise.resolve([]),
    listKeywords(db, space, locale),
  ]);
  return { space, banners, bestSellers, newest, categories, genres, moods, keywords };
}
