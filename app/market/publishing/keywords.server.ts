/**
 * The popular keywords of each storefront page (shown under the search box and as the search's recommended words),
 * as the console keeps them: list, create, edit, order, show or hide. The storefront reads the shown ones through
 * catalog/landing.server.ts (listKeywords). Every change is written with its audit line in one transaction.
 */
import type { Selectable } from "kysely";
import type { DB } from "../../db/db.server";
import type { KeywordsTable } from "../../db/schema";
import { MarketError } from "../errors";
import { type Actor, recordAudit } from "../operators/audit.server";
import { moveInScope, nextSort } from "../sort-order.server";
import type { PublishingPage } from "./pages";

/** The kind the storefront reads (listKeywords' default); the console keeps this one. */
export const KEYWORD_KIND = "popular";
export const KEYWORD_MAX_LENGTH = 40;

export interface KeywordDraft {
  page: PublishingPage;
  keywordKo: string;
  keywordEn: string;
  visible: boolean;
}

export type KeywordRow = Selectable<KeywordsTable>;

export async function adminKeywords(db: DB, page: PublishingPage): Promise<KeywordRow[]> {
  return db
    .selectFrom("keywords")
    .selectAll()
    .where("page", "=", page)
    .where("kind", "=", KEYWORD_KIND)
    .orderBy("sort")
    .orderBy("id")
    .execute();
}

/** Both spellings are needed, without line breaks, at most 40 characters each. */
export function keywordProblem(d: KeywordDraft): string | null {
  for (const v of [d.keywordKo, d.keywordEn]) {
    const s = v.trim();
    if (!s) return "keyword";
    if (s.length > KEYWORD_MAX_LENGTH || /[\r\n\t]/.test(s)) return "keyword";
  }
  return null;
}

/**
 * What the page's keyword chips would show with a draft applied (a new keyword last, or a row changed in place),
 * in both languages, shown ones only, in their order: the console's preview, nothing saved.
 */
export function previewKeywords(rows: readonly KeywordRow[], id: number | null, d: KeywordDraft): { ko: string[]; en: string[] } {
  const drafted = { keyword_ko: d.keywordKo.trim(), keyword_en: d.keywordEn.trim(), visible: d.visible ? 1 : 0 };
  const list = rows.map((r) => (id !== null && r.id === id ? { ...r, ...drafted } : r));
  const all = id === null || !rows.some((r) => r.id === id) ? [...list, drafted] : list;
  const shown = all.filter((r) => r.visible === 1);
  return { ko: shown.map((r) => r.keyword_ko), en: shown.map((r) => r.keyword_en) };
}

/** Creates (id null, last of its page) or changes a keyword; answers its id. */
export async function saveKeyword(db: DB, actor: Actor, id: number | null, d: KeywordDraft, now = new Date()): Promise<number> {
  if (keywordProblem(d)) throw new MarketError("KEYWORD_INVALID", 400, "keyword");
  const values = {
    page: d.page,
    kind: KEYWORD_KIND,
    keyword_ko: d.keywordKo.trim(),
    keyword_en: d.keywordEn.trim(),
    visible: d.visible ? 1 : 0,
  };
  return db.transaction().execute(async (trx) => {
    const lastSort = () => nextSort(trx, "keywords", { page: d.page, kind: KEYWORD_KIND });
    if (id === null) {
      const sort = await lastSort();
      const row = await trx
        .insertInto("keywords")
        .values({ ...values, sort })
        .returning("id")
        .executeTakeFirstOrThrow();
      await recordAudit(trx, actor, { action: "keyword.create", targetType: "keyword", targetId: row.id, after: { ...values, sort } }, now);
      return row.id;
    }
    const before = await trx.selectFrom("keywords").selectAll().where("id", "=", id).executeTakeFirst();
    if (!before) throw new MarketError("NOT_FOUND", 404, "no such keyword");
    const sort = before.page === d.page && before.kind === KEYWORD_KIND ? before.sort : await lastSort();
    await trx
      .updateTable("keywords")
      .set({ ...values, sort })
      .where("id", "=", id)
      .execute();
    const { id: _id, ...was } = before;
    await recordAudit(
      trx,
      actor,
      { action: "keyword.update", targetType: "keyword", targetId: id, before: was, after: { ...values, sort } },
      now,
    );
    return id;
  });
}

export async function setKeywordVisible(db: DB, actor: Actor, id: number, visible: boolean, now = new Date()): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom("keywords").select(["visible"]).where("id", "=", id).executeTakeFirst();
    if (!before) throw new MarketError("NOT_FOUND", 404, "no such keyword");
    await trx
      .updateTable("keywords")
      .set({ visible: visible ? 1 : 0 })
      .where("id", "=", id)
      .execute();
    await recordAudit(
      trx,
      actor,
      {
        action: visible ? "keyword.show" : "keyword.hide",
        targetType: "keyword",
        targetId: id,
        before: { visible: before.visible === 1 },
        after: { visible },
      },
      now,
    );
  });
}

export async function moveKeyword(db: DB, actor: Actor, id: number, direction: "up" | "down", now = new Date()): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("keywords").select(["page", "kind"]).where("id", "=", id).executeTakeFirst();
    if (!row) throw new MarketError("NOT_FOUND", 404, "no such keyword");
    const { before: was, after: order } = await moveInScope(trx, "keywords", { page: row.page, kind: row.kind }, id, direction);
    await recordAudit(
      trx,
      actor,
      {
        action: "keyword.move",
        targetType: "keyword",
        targetId: id,
        before: { page: row.page, order: was },
        after: { page: row.page, order },
      },
      now,
    );
  });
}
