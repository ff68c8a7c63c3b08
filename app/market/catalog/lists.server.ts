import { sql } from "kysely";
import type { DB } from "../../db/db.server";
import type { ContentsType, TaxonomyKind } from "../../db/schema";
import type { Locale } from "../../i18n/config";
import { countListed, currentFacets, type ListCount } from "../search/facets.server";
import { type ContentCard, selectCards, toCard } from "./cards.server";

export type ListOrder = "popular" | "recent";

export interface ListQuery {
  type?: ContentsType;
  /** A taxonomy id: category, genre, mood (by column) or theme (by membership). */
  group?: { id: number; kind: TaxonomyKind };
  price?: "all" | "paid" | "free_benefit" | "free" | "benefit";
  order?: ListOrder;
  offset: number;
  limit: number;
}

export interface Group {
  id: number;
  kind: TaxonomyKind;
  space: ContentsType;
  code: string;
  name: string;
}

/** A taxonomy entry by id, in the visitor's language. */
export async function findGroup(db: DB, id: number, locale: Locale): Promise<Group | null> {
  const row = await db.selectFrom("taxonomy").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? { id: row.id, kind: row.kind, space: row.space, code: row.code, name: locale === "ko" ? row.name_ko : row.name_en } : null;
}

/**
 * What a list address (/list/{space}/{id}) lists: a content type's items, narrowed by one of its groups (genres and
 * moods describe audio and video); or for "benefit" (the Free & Benefit landing) free and benefit items of every
 * type, narrowed by any group. Null when the group does not belong to the space.
 */
export function listScope(
  space: ContentsType | "benefit",
  group: Group | null,
): { type?: ContentsType; price?: NonNullable<ListQuery["price"]> } | null {
  if (space === "benefit") return { type: group?.kind === "category" ? group.space : undefined, price: "free_benefit" };
  if (!group) return { type: space };
  const fits = group.kind === "genre" || group.kind === "mood" ? ["audio", "video"].includes(space) : group.space === space;
  return fits ? { type: space } : null;
}

const PRICES_OF = {
  all: undefined,
  paid: ["paid"],
  free_benefit: ["free", "benefit"],
  free: ["free"],
  benefit: ["benefit"],
} as const satisfies Record<NonNullable<ListQuery["price"]>, ListCount["prices"]>;

/** The list's filters as the facets count them (any group but a theme). */
function listCount(q: ListQuery, price: NonNullable<ListQuery["price"]>): ListCount {
  const kind = q.group?.kind;
  const column = kind === "category" || kind === "genre" || kind === "mood" ? kind : undefined;
  return { type: q.type, group: q.group && column ? { column, id: q.group.id } : undefined, prices: PRICES_OF[price] };
}

/** A page of active items with the total: the lists, the catalog API and the package list share it. */
export async function listContents(db: DB, q: ListQuery, locale: Locale): Promise<{ list: ContentCard[]; total: number }> {
  let base = db.selectFrom("contents").where("contents.status", "=", "active");
  if (q.type) base = base.where("contents.contents_type", "=", q.type);
  if (q.group) {
    const group = q.group;
    if (group.kind === "theme") {
      base = base.where("contents.id", "in", db.selectFrom("theme_items").select("content_id").where("theme_id", "=", group.id));
    } else {
      const column = group.kind === "category" ? "contents.category_id" : group.kind === "genre" ? "contents.genre_id" : "contents.mood_id";
      base = base.where(column, "=", group.id);
    }
  }
  const price = q.price ?? "all";
  if (price === "paid") base = base.where("contents.price_type", "=", "paid");
  else if (price === "free_benefit") base = base.where("contents.price_type", "in", ["free", "benefit"]);
  else if (price === "free" || price === "benefit") base = base.where("contents.price_type", "=", price);
  const orderColumn = q.order === "recent" ? "contents.released_at" : "contents.popularity";
  // The total from the in-memory facets (search/facets.server.ts), except for a theme (membership is not there).
  const counted =
    q.group?.kind === "theme"
      ? base
          .select(sql<number>`count(*)`.as("n"))
          .executeTakeFirstOrThrow()
          .then((r) => Number(r.n))
      : currentFacets(db).then((fx) => countListed(fx, listCount(q, price)));
  const [rows, total] = await Promise.all([
    selectCards(base).orderBy(orderColumn, "desc").orderBy("contents.id").offset(q.offset).limit(q.limit).execute(),
    counted,
  ]);
  return { list: rows.map((r) => toCard(r, locale)), total };
}

/** Themes of a space, each with its first items. */
export async function listThemes(db: DB, space: ContentsType, locale: Locale, page: { offset: number; limit: number }, itemsPerTheme = 8) {
  const themes = await db
    .selectFrom("taxonomy")
    .select(["id", "code", "name_ko", "name_en"])
    .where("kind", "=", "theme")
    .where("space", "=", space)
    .orderBy("sort")
    .offset(page.offset)
    .limit(page.limit)
    .execute();
  const total = await db
    .selectFrom("taxonomy")
    .select(sql<number>`count(*)`.as("n"))
    .where("kind", "=", "theme")
    .where("space", "=", space)
    .executeTakeFirstOrThrow();
  const list = await Promise.all(
    themes.map(async (th) => ({
      id: th.id,
      code: th.code,
      name: locale === "ko" ? th.name_ko : th.name_en,
      items: (await listContents(db, { group: { id: th.id, kind: "theme" }, offset: 0, limit: itemsPerTheme }, locale)).list,
    })),
  );
  return { list, total: Number(total.n) };
}

/** Packages with how many items each bundles. */
export async function listPackages(db: DB, locale: Locale, page: { offset: number; limit: number; categoryId?: number }) {
  const result = await listContents(
    db,
    {
      type: "package",
      group: page.categoryId ? { id: page.categoryId, kind: "category" } : undefined,
      offset: page.offset,
      limit: page.limit,
    },
    locale,
  );
  const ids = result.list.map((p) => p.id);
  const counts = ids.length
    ? await db
        .selectFrom("package_items")
        .select(["package_id", sql<number>`count(*)`.as("n")])
        .where("package_id", "in", ids)
        .groupBy("package_id")
        .execute()
    : [];
  const byId = new Map(counts.map((c) => [c.package_id, Number(c.n)]));
  return { list: result.list.map((p) => ({ ...p, itemCount: byId.get(p.id) ?? 0 })), total: result.total };
}
