/**
 * Banners and key visuals of each storefront page, as the console keeps them (issue 17, publishing): list, create,
 * edit, order and show or hide. The storefront and the API read the shown ones through catalog/landing.server.ts.
 * Every change is written with its audit line in one transaction.
 */
import type { Selectable } from "kysely";
import type { DB } from "../../db/db.server";
import type { BannersTable } from "../../db/schema";
import { MarketError } from "../errors";
import { type Actor, recordAudit } from "../operators/audit.server";
import { moveInScope, nextSort } from "../sort-order.server";
import { type BannerKind, bannerLinkOk, MEDIA_PATH, type PublishingPage } from "./pages";

export interface BannerDraft {
  page: PublishingPage;
  kind: BannerKind;
  titleKo: string;
  titleEn: string;
  subtitleKo: string;
  subtitleEn: string;
  imagePath: string;
  link: string;
  visible: boolean;
}

export type BannerRow = Selectable<BannersTable>;

/** The banners of a page (or all), both kinds, shown and hidden, in the storefront's order. */
export async function adminBanners(db: DB, filter: { page?: PublishingPage; kind?: BannerKind }): Promise<BannerRow[]> {
  let q = db.selectFrom("banners").selectAll();
  if (filter.page) q = q.where("page", "=", filter.page);
  if (filter.kind) q = q.where("kind", "=", filter.kind);
  return q.orderBy("page").orderBy("kind", "desc").orderBy("sort").orderBy("id").execute();
}

export async function findBanner(db: DB, id: number): Promise<BannerRow | null> {
  return (await db.selectFrom("banners").selectAll().where("id", "=", id).executeTakeFirst()) ?? null;
}

/** What is wrong with a draft (a message key), or null: the link must stay in the store or be https, the image under /media. */
export function bannerProblem(d: BannerDraft): string | null {
  if (!d.titleKo.trim() || !d.titleEn.trim()) return "title";
  if (!bannerLinkOk(d.link)) return "link";
  if (!MEDIA_PATH.test(d.imagePath)) return "image";
  return null;
}

const snapshot = (r: Omit<BannerRow, "id">) => ({ ...r });

/** Creates (id null) or changes a banner; a new one goes last in its page and kind. Answers its id. */
export async function saveBanner(db: DB, actor: Actor, id: number | null, d: BannerDraft, now = new Date()): Promise<number> {
  const problem = bannerProblem(d);
  if (problem) throw new MarketError("BANNER_INVALID", 400, problem);
  const values = {
    page: d.page,
    kind: d.kind,
    title_ko: d.titleKo.trim(),
    title_en: d.titleEn.trim(),
    subtitle_ko: d.subtitleKo.trim(),
    subtitle_en: d.subtitleEn.trim(),
    image_path: d.imagePath,
    link: d.link,
    visible: d.visible ? 1 : 0,
  };
  return db.transaction().execute(async (trx) => {
    if (id === null) {
      const sort = await nextSort(trx, "banners", { page: d.page, kind: d.kind });
      const row = await trx
        .insertInto("banners")
        .values({ ...values, sort })
        .returning("id")
        .executeTakeFirstOrThrow();
      await recordAudit(trx, actor, { action: "banner.create", targetType: "banner", targetId: row.id, after: { ...values, sort } }, now);
      return row.id;
    }
    const before = await trx.selectFrom("banners").selectAll().where("id", "=", id).executeTakeFirst();
    if (!before) throw new MarketError("NOT_FOUND", 404, "no such banner");
    // A banner moved to another page or kind goes last there.
    const sort =
      before.page === d.page && before.kind === d.kind ? before.sort : await nextSort(trx, "banners", { page: d.page, kind: d.kind });
    await trx
      .updateTable("banners")
      .set({ ...values, sort })
      .where("id", "=", id)
      .execute();
    const { id: _id, ...was } = before;
    await recordAudit(
      trx,
      actor,
      { action: "banner.update", targetType: "banner", targetId: id, before: snapshot(was), after: { ...values, sort } },
      now,
    );
    return id;
  });
}

/** Shows or hides a banner on its page. */
export async function setBannerVisible(db: DB, actor: Actor, id: number, visible: boolean, now = new Date()): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom("banners").select(["visible"]).where("id", "=", id).executeTakeFirst();
    if (!before) throw new MarketError("NOT_FOUND", 404, "no such banner");
    await trx
      .updateTable("banners")
      .set({ visible: visible ? 1 : 0 })
      .where("id", "=", id)
      .execute();
    await recordAudit(
      trx,
      actor,
      {
        action: visible ? "banner.show" : "banner.hide",
        targetType: "banner",
        targetId: id,
        before: { visible: before.visible === 1 },
        after: { visible },
      },
      now,
    );
  });
}

/** Moves a banner one place up or down among its page's banners of the same kind. */
export async function moveBanner(db: DB, actor: Actor, id: number, direction: "up" | "down", now = new Date()): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("banners").select(["page", "kind"]).where("id", "=", id).executeTakeFirst();
    if (!row) throw new MarketError("NOT_FOUND", 404, "no such banner");
    const { before, after } = await moveInScope(trx, "banners", { page: row.page, kind: row.kind }, id, direction);
    await recordAudit(
      trx,
      actor,
      {
        action: "banner.move",
        targetType: "banner",
        targetId: id,
        before: { page: row.page, kind: row.kind, order: before },
        after: { page: row.page, kind: row.kind, order: after },
      },
      now,
    );
  });
}
