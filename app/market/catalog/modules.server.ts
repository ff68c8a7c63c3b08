/**
 * /modules: the market's modules as the editor has them (spec sections 1 and 2: the assets are used only inside the
 * editor, one module per content type), each with what the catalog holds now — items on sale, free and benefit
 * items — and the editor the downloads need.
 */
import { sql } from "kysely";
import type { DB } from "../../db/db.server";
import type { ContentsType } from "../../db/schema";
import { MIN_EDITOR_VERSION } from "../rules";

export const MODULES: readonly ContentsType[] = ["video", "icon", "audio", "font", "package"];

export interface MarketModule {
  type: ContentsType;
  total: number;
  paid: number;
  free: number;
  benefit: number;
}

export async function marketModules(db: DB): Promise<{ modules: MarketModule[]; minEditorVersion: string }> {
  const rows = await db
    .selectFrom("contents")
    .select(["contents_type", "price_type", sql<number>`count(*)`.as("n")])
    .where("status", "=", "active")
    .groupBy(["contents_type", "price_type"])
    .execute();
  const modules = MODULES.map((type) => {
    const of = (price: string) => Number(rows.find((r) => r.contents_type === type && r.price_type === price)?.n ?? 0);
    const paid = of("paid");
    const free = of("free");
    const benefit = of("benefit");
    return { type, total: paid + free + benefit, paid, free, benefit };
  });
  return { modules, minEditorVersion: MIN_EDITOR_VERSION };
}
