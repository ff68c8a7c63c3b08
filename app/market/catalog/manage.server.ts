import { sql } from "kysely";
import type { DB } from "../../db/db.server";
import type { ContentStatus, ContentsType, PriceType } from "../../db/schema";
import { MarketError } from "../errors";
import { type Actor, recordAudit } from "../operators/audit.server";
import { reindexContents } from "../search/indexer.server";
import { nextSort } from "../sort-order.server";
import { PACKAGE_MEMBER_COLUMNS, saleUnit } from "./cards.server";

/**
 * The operator console's catalog (issue 17, "Catalog"): the list with its filters, one item's editable fields, the
 * edit, discontinue and restore. Every change writes its audit line and re-indexes the item for search in the
 * transaction that makes it (the in-memory facets follow by themselves: triggers on contents bump search_state).
 */

export const CATALOG_PAGE_SIZE = 30;
export { CONTENT_STATUSES, PRICE_TYPES } from "./kinds";
/** Audio kinds (contents_type_sub): sound effect, background music, AI background music. */
export const AUDIO_SUBS = [3001, 3002, 3003] as const;
export const BPM_RANGE = { min: 20, max: 300 } as const;
export const MAX_TAGS = 20;

export interface CatalogFilter {
  type?: ContentsType;
  status?: ContentStatus;
  keyword?: string;
  page: number;
}

export interface CatalogRow {
  id: number;
  code: string;
  type: ContentsType;
  titleKo: string;
  titleEn: string;
  status: ContentStatus;
  priceType: PriceType;
  priceKrw: number;
  priceUsd: number;
  releasedAt: string;
}

const likePattern = (text: string) => `%${text.toLowerCase().replace(/[%_\\]/g, "")}%`;

/** A page of the catalog, newest first: by type, status, and a keyword (a code exactly, or part of a title). */
export async function listCatalog(db: DB, f: CatalogFilter): Promise<{ rows: CatalogRow[]; total: number; page: number; pages: number }> {
  let q = db.selectFrom("contents");
  if (f.type) q = q.where("contents_type", "=", f.type);
  if (f.status) q = q.where("status", "=", f.status);
  const keyword = f.keyword?.trim();
  if (keyword) {
    const pattern = likePattern(keyword);
    q = q.where((eb) =>
      eb.or([eb("code", "=", keyword.toUpperCase()), eb(sql`lower(title_ko)`, "like", pattern), eb(sql`lower(title_en)`, "like", pattern)]),
    );
  }
  const [rows, count] = await Promise.all([
    q
      .select(["id", "code", "contents_type", "title_ko", "title_en", "status", "price_type", "price_krw", "price_usd", "released_at"])
      .orderBy("id", "desc")
      .offset((f.page - 1) * CATALOG_PAGE_SIZE)
      .limit(CATALOG_PAGE_SIZE)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  const total = Number(count.n);
  return {
    rows: rows.map((r) => ({
      id: r.id,
      code: r.code,
      type: r.contents_type,
      titleKo: r.title_ko,
      titleEn: r.title_en,
      status: r.status,
      priceType: r.price_type,
      priceKrw: r.price_krw,
      priceUsd: r.price_usd,
      releasedAt: r.released_at,
    })),
    total,
    page: f.page,
    pages: Math.max(1, Math.ceil(total / CATALOG_PAGE_SIZE)),
  };
}

/** What an operator may change of an item (already shaped by the console's form schema). */
export interface ContentInput {
  titleKo: string;
  titleEn: string;
  descriptionKo: string;
  descriptionEn: string;
  tagsKo: string;
  tagsEn: string;
  priceType: PriceType;
  priceKrw: number;
  priceUsd: number;
  categoryId: number | null;
  genreId: number | null;
  moodId: number | null;
  bpm: number | null;
  audioSub: number | null;
}

/** Why an item's fields were refused; each has a message (admin.catalog.problems.<problem>). */
export type ContentProblem = "title" | "description" | "price" | "category" | "genre" | "mood" | "bpm" | "audioSub" | "tags";

/** Tags as the store keeps them: comma-separated, trimmed, without repeats or empties. */
export function normalizeTags(text: string): string {
  const seen = new Set<string>();
  for (const tag of text.split(",").map((t) => t.trim().replace(/\s+/g, " "))) if (tag && !seen.has(tag.toLowerCase())) seen.add(tag);
  return [...seen].join(",");
}

/**
 * The store's rules for an item's fields, by its type: both titles; a paid item has both prices above zero, a
 * free or benefit one none; the category is one of its type's, the genre an audio genre (audio only), the mood a
 * mood; BPM and the audio kind are audio's only.
 */
export async function checkContentInput(db: DB, type: ContentsType, input: ContentInput): Promise<ContentProblem | null> {
  if (!input.titleKo.trim() || !input.titleEn.trim()) return "title";
  if (input.priceType === "paid" ? input.priceKrw <= 0 || input.priceUsd <= 0 : input.priceKrw !== 0 || input.priceUsd !== 0)
    return "price";
  const term = (id: number) => db.selectFrom("taxonomy").select(["kind", "space"]).where("id", "=", id).executeTakeFirst();
  if (input.categoryId !== null) {
    const t = await term(input.categoryId);
    if (t?.kind !== "category" || t.space !== type) return "category";
  }
  if (input.genreId !== null) {
    const t = await term(input.genreId);
    if (type !== "audio" || t?.kind !== "genre") return "genre";
  }
  if (input.moodId !== null && (await term(input.moodId))?.kind !== "mood") return "mood";
  if (input.bpm !== null && (type !== "audio" || input.bpm < BPM_RANGE.min || input.bpm > BPM_RANGE.max)) return "bpm";
  if (input.audioSub !== null && (type !== "audio" || !(AUDIO_SUBS as readonly number[]).includes(input.audioSub))) return "audioSub";
  if (normalizeTags(input.tagsKo).split(",").length > MAX_TAGS || normalizeTags(input.tagsEn).split(",").length > MAX_TAGS) return "tags";
  return null;
}

/** The contents columns an input writes. */
export function contentColumns(input: ContentInput) {
  return {
    title_ko: input.titleKo.trim(),
    title_en: input.titleEn.trim(),
    description_ko: input.descriptionKo.trim(),
    description_en: input.descriptionEn.trim(),
    tags_ko: normalizeTags(input.tagsKo),
    tags_en: normalizeTags(input.tagsEn),
    price_type: input.priceType,
    price_krw: input.priceKrw,
    price_usd: input.priceUsd,
    category_id: input.categoryId,
    genre_id: input.genreId,
    mood_id: input.moodId,
    bpm: input.bpm,
    contents_type_sub: input.audioSub,
  };
}

const SNAPSHOT = [
  "code",
  "contents_type",
  "contents_type_sub",
  "title_ko",
  "title_en",
  "description_ko",
  "description_en",
  "tags_ko",
  "tags_en",
  "price_type",
  "price_krw",
  "price_usd",
  "category_id",
  "genre_id",
  "mood_id",
  "bpm",
  "status",
  "preview_path",
  "poster_path",
  "file_path",
] as const;

/** An item's fields as the audit log records them (before and after a change). */
export async function contentSnapshot(db: DB, id: number) {
  return (await db.selectFrom("contents").select(SNAPSHOT).where("id", "=", id).executeTakeFirst()) ?? null;
}

export interface TaxonomyOption {
  id: number;
  nameKo: string;
  nameEn: string;
}

/** The terms an item of a type may take: its type's categories, the audio genres, the moods. */
export async function taxonomyOptions(db: DB, type: ContentsType) {
  const rows = await db
    .selectFrom("taxonomy")
    .select(["id", "kind", "space", "name_ko", "name_en"])
    .where((eb) => eb.or([eb.and([eb("kind", "=", "category"), eb("space", "=", type)]), eb("kind", "in", ["genre", "mood"])]))
    .orderBy("kind")
    .orderBy("sort")
    .orderBy("id")
    .execute();
  const of = (kind: string) => rows.filter((r) => r.kind === kind).map((r) => ({ id: r.id, nameKo: r.name_ko, nameEn: r.name_en }));
  return { categories: of("category"), genres: type === "audio" ? of("genre") : [], moods: of("mood") };
}

/** One item for the console: every stored field. */
export async function catalogItem(db: DB, id: number) {
  return (await db.selectFrom("contents").selectAll().where("id", "=", id).executeTakeFirst()) ?? null;
}

export type UpdateResult = { ok: true } | { ok: false; problem: ContentProblem };

/** Changes an item's fields; refused fields come back as a problem (nothing written). Audit: content.update. */
export async function updateContent(db: DB, actor: Actor, id: number, input: ContentInput, now = new Date()): Promise<UpdateResult> {
  return db.transaction().execute(async (trx) => {
    const item = await trx.selectFrom("contents").select(["id", "contents_type"]).where("id", "=", id).executeTakeFirst();
    if (!item) throw new MarketError("NOT_FOUND", 404, `No item ${id}`);
    const problem = await checkContentInput(trx, item.contents_type, input);
    if (problem) return { ok: false, problem };
    const before = await contentSnapshot(trx, id);
    await trx.updateTable("contents").set(contentColumns(input)).where("id", "=", id).execute();
    await reindexContents(trx, [id]);
    await recordAudit(
      trx,
      actor,
      { action: "content.update", targetType: "content", targetId: id, before, after: await contentSnapshot(trx, id) },
      now,
    );
    return { ok: true };
  });
}

/**
 * Discontinues an item (the storefront's page then says so and it leaves lists and search; a purchase made before
 * keeps downloading it for its 90 days, later ones of a package leave it out) or puts it back on sale. Audit: content.discontinue / content.restore.
 * Answers false when the item already had that status (nothing written).
 */
export async function setContentStatus(
  db: DB,
  actor: Actor,
  id: number,
  status: ContentStatus,
  reason: string | null,
  now = new Date(),
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const item = await trx.selectFrom("contents").select(["id", "status"]).where("id", "=", id).executeTakeFirst();
    if (!item) throw new MarketError("NOT_FOUND", 404, `No item ${id}`);
    if (item.status === status) return false;
    // The time of a discontinuation decides which purchases keep their download right (holdings in downloads.server.ts).
    await trx
      .updateTable("contents")
      .set({ status, discontinued_at: status === "discontinued" ? now.toISOString() : null })
      .where("id", "=", id)
      .execute();
    await recordAudit(
      trx,
      actor,
      {
        action: status === "discontinued" ? "content.discontinue" : "content.restore",
        targetType: "content",
        targetId: id,
        before: { status: item.status },
        after: { status },
        reason,
      },
      now,
    );
    return true;
  });
}

export interface BundledItem {
  id: number;
  code: string;
  type: ContentsType;
  titleKo: string;
  titleEn: string;
  status: ContentStatus;
}

/** What a package bundles, in its order. */
export async function packageContents(db: DB, packageId: number): Promise<BundledItem[]> {
  const rows = await db
    .selectFrom("package_items")
    .innerJoin("contents", "contents.id", "package_items.content_id")
    .select(["contents.id", "contents.code", "contents.contents_type", "contents.title_ko", "contents.title_en", "contents.status"])
    .where("package_items.package_id", "=", packageId)
    .orderBy("package_items.sort")
    .orderBy("contents.id")
    .execute();
  return rows.map((r) => ({ id: r.id, code: r.code, type: r.contents_type, titleKo: r.title_ko, titleEn: r.title_en, status: r.status }));
}

/**
 * What a package sells for in each currency (VAT excluded) by the storefront's rule (saleUnit, packagePrice), and
 * how many of its members remain; null prices when it cannot be bought.
 */
export async function packageSale(db: DB, packageId: number) {
  const row = await db
    .selectFrom("contents")
    .select(["contents.status", "contents.price_krw", "contents.price_usd"])
    .select(PACKAGE_MEMBER_COLUMNS)
    .where("contents.id", "=", packageId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    krw: saleUnit(row, "KRW"),
    usd: saleUnit(row, "USD"),
    count: Number(row.pkg_count ?? 0),
    left: Number(row.pkg_left ?? 0),
  };
}

/** Why an item was not added to a package; each has a message (admin.catalog.package.problems.<problem>). */
export type BundleProblem = "unknown" | "package" | "already";

async function requirePackage(db: DB, id: number) {
  const item = await db.selectFrom("contents").select(["id", "contents_type"]).where("id", "=", id).executeTakeFirst();
  if (!item) throw new MarketError("NOT_FOUND", 404, `No item ${id}`);
  if (item.contents_type !== "package") throw new MarketError("NOT_A_PACKAGE", 409, `Item ${id} is not a package`);
}

/**
 * Adds an item (by its code) at the end of a package: not a package itself, not already in it. Audit: package.add,
 * with the bundle's codes before and after.
 */
export async function addToPackage(
  db: DB,
  actor: Actor,
  packageId: number,
  code: string,
  now = new Date(),
): Promise<{ ok: true; id: number } | { ok: false; problem: BundleProblem }> {
  return db.transaction().execute(async (trx) => {
    await requirePackage(trx, packageId);
    const item = await trx
      .selectFrom("contents")
      .select(["id", "contents_type"])
      .where("code", "=", code.trim().toUpperCase())
      .executeTakeFirst();
    if (!item) return { ok: false, problem: "unknown" };
    if (item.contents_type === "package") return { ok: false, problem: "package" };
    const before = await packageContents(trx, packageId);
    if (before.some((b) => b.id === item.id)) return { ok: false, problem: "already" };
    const sort = await nextSort(trx, "package_items", { package_id: packageId });
    await trx.insertInto("package_items").values({ package_id: packageId, content_id: item.id, sort }).execute();
    await recordAudit(
      trx,
      actor,
      {
        action: "package.add",
        targetType: "content",
        targetId: packageId,
        before: before.map((b) => b.code),
        after: (await packageContents(trx, packageId)).map((b) => b.code),
      },
      now,
    );
    return { ok: true, id: item.id };
  });
}

/** Takes an item out of a package. Audit: package.remove. Answers false when it was not in it (nothing written). */
export async function removeFromPackage(db: DB, actor: Actor, packageId: number, contentId: number, now = new Date()): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await requirePackage(trx, packageId);
    const before = await packageContents(trx, packageId);
    if (!before.some((b) => b.id === contentId)) return false;
    await trx.deleteFrom("package_items").where("package_id", "=", packageId).where("content_id", "=", contentId).execute();
    await recordAudit(
      trx,
      actor,
      {
        action: "package.remove",
        targetType: "content",
        targetId: packageId,
        before: before.map((b) => b.code),
        after: (await packageContents(trx, packageId)).map((b) => b.code),
      },
      now,
    );
    return true;
  });
}
