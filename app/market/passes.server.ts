import type { DB } from "../db/db.server";
import type { Locale } from "../i18n/config";
import { publishedCache } from "./content-version.server";
import { currencyFor } from "./money";
import { PASS_GROUPS, type PassGroup, passGroupOf } from "./pass-groups";

export { PASS_GROUPS, type PassGroup, passGroupOf };

export interface PassPrice {
  id: number;
  contents_flag: number;
  contents_type_sub: number | null;
  contents_count: number;
  price: number;
  currency: "KRW" | "USD";
  valid_days: number;
}

/** Pass prices grouped as the spec says, each group sorted ascending by contents_count. */
export async function passPriceGroups(db: DB, locale: Locale): Promise<Record<PassGroup, PassPrice[]>> {
  const rows = await db.selectFrom("pass_prices").selectAll().execute();
  const currency = currencyFor(locale);
  const groups = Object.fromEntries(PASS_GROUPS.map((g) => [g, [] as PassPrice[]])) as Record<PassGroup, PassPrice[]>;
  for (const r of rows) {
    groups[passGroupOf(r.contents_flag, r.contents_type_sub)].push({
      id: r.id,
      contents_flag: r.contents_flag,
      contents_type_sub: r.contents_type_sub,
      contents_count: r.contents_count,
      price: currency === "KRW" ? r.price_krw : r.price_usd,
      currency,
      valid_days: r.valid_days,
    });
  }
  for (const g of PASS_GROUPS) groups[g].sort((a, b) => a.contents_count - b.contents_count || a.id - b.id);
  return groups;
}

export interface SingleUsePrice {
  type: "video" | "icon" | "audio" | "font" | "package";
  min: number;
  max: number;
  currency: "KRW" | "USD";
}

/** Single-use price ranges per content type (VAT excluded), from the paid catalog; read again when the catalog changes. */
const singleUseRows = publishedCache((db) =>
  db
    .selectFrom("contents")
    .select((eb) => [
      "contents_type",
      eb.fn.min<number>("price_krw").as("min_krw"),
      eb.fn.max<number>("price_krw").as("max_krw"),
      eb.fn.min<number>("price_usd").as("min_usd"),
      eb.fn.max<number>("price_usd").as("max_usd"),
    ])
    .where("status", "=", "active")
    .where("price_type", "=", "paid")
    .groupBy("contents_type")
    .execute(),
);

export async function singleUsePrices(db: DB, locale: Locale): Promise<SingleUsePrice[]> {
  const rows = await singleUseRows(db);
  const currency = currencyFor(locale);
  const order = ["video", "icon", "audio", "font", "package"];
  return rows
    .map((r) => ({
      type: r.contents_type as SingleUsePrice["type"],
      min: Number(currency === "KRW" ? r.min_krw : r.min_usd),
      max: Number(currency === "KRW" ? r.max_krw : r.max_usd),
      currency,
    }))
    .sort((a, b) => order.indexOf(a.type) - order.indexOf(b.type));
}
