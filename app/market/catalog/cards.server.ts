import { type SelectQueryBuilder, sql } from "kysely";
import type { Database } from "../../db/schema";
import type { Locale } from "../../i18n/config";
import { type Currency, currencyFor } from "../money";
import { type PackageMembers, packagePrice } from "../orders/pricing";
import { peaksUrlOf } from "./waveform";

/** What a list or grid shows of one item, in the visitor's language and currency. */
export interface ContentCard {
  id: number;
  code: string;
  type: "video" | "icon" | "audio" | "font" | "package";
  sub: number | null;
  title: string;
  thumb: string | null;
  preview: string | null;
  /** An audio item's waveform peaks (JSON beside its waveform picture), for the player; null for other items. */
  peaks: string | null;
  priceType: "paid" | "free" | "benefit";
  /** What it sells for, minor units, VAT excluded: a package with discontinued members by what remains (packagePrice). */
  price: number;
  /** The item's own list price; differs from `price` only for a package with discontinued members. */
  listPrice: number;
  currency: Currency;
  durationMs: number | null;
  bpm: number | null;
  fontFamily: string | null;
  /** Not on sale: discontinued itself, or a package whose members are all discontinued. */
  discontinued: boolean;
  /** A package's members: how many, and how many are still on sale (null for other items). */
  members: { count: number; left: number } | null;
}

/**
 * A package's members summed in one correlated subquery each (only evaluated for packages): `what` over the
 * members, or over those still on sale. Both engines; PostgreSQL answers count and sum as text (bigint/numeric).
 */
const memberSum = <A extends string>(what: "count" | "price_krw" | "price_usd", onSale: boolean, alias: A) => {
  const value = what === "count" ? sql`1` : sql.ref(`pm_c.${what}`);
  const counted = onSale ? sql`case when pm_c.status = 'active' then ${value} else 0 end` : value;
  return sql<
    number | string | null
  >`case when contents.contents_type = 'package' then (select sum(${counted}) from package_items pm_i inner join contents pm_c on pm_c.id = pm_i.content_id where pm_i.package_id = contents.id) end`.as(
    alias,
  );
};

export const PACKAGE_MEMBER_COLUMNS = [
  memberSum("count", false, "pkg_count"),
  memberSum("count", true, "pkg_left"),
  memberSum("price_krw", false, "pkg_all_krw"),
  memberSum("price_krw", true, "pkg_left_krw"),
  memberSum("price_usd", false, "pkg_all_usd"),
  memberSum("price_usd", true, "pkg_left_usd"),
] as const;

export const CARD_COLUMNS = [
  "contents.id",
  "contents.code",
  "contents.contents_type",
  "contents.contents_type_sub",
  "contents.title_ko",
  "contents.title_en",
  "contents.poster_path",
  "contents.preview_path",
  "contents.price_type",
  "contents.price_krw",
  "contents.price_usd",
  "contents.duration_ms",
  "contents.bpm",
  "contents.font_family",
  "contents.status",
  "contents.popularity",
  "contents.released_at",
  ...PACKAGE_MEMBER_COLUMNS,
] as const;

export type CardRow = {
  id: number;
  code: string;
  contents_type: string;
  contents_type_sub: number | null;
  title_ko: string;
  title_en: string;
  poster_path: string | null;
  preview_path: string | null;
  price_type: string;
  price_krw: number;
  price_usd: number;
  duration_ms: number | null;
  bpm: number | null;
  font_family: string | null;
  status: string;
  popularity: number;
  released_at: string;
} & PackageMemberRow;

export type PackageMemberRow = {
  pkg_count: number | string | null;
  pkg_left: number | string | null;
  pkg_all_krw: number | string | null;
  pkg_left_krw: number | string | null;
  pkg_all_usd: number | string | null;
  pkg_left_usd: number | string | null;
};

const num = (v: number | string | null) => Number(v ?? 0);

/** A package's members as packagePrice reads them, in one currency (null for other items). */
export function packageMembersOf(row: PackageMemberRow, currency: Currency): PackageMembers | null {
  if (row.pkg_count === null) return null;
  return {
    count: num(row.pkg_count),
    left: num(row.pkg_left),
    all: num(currency === "KRW" ? row.pkg_all_krw : row.pkg_all_usd),
    remaining: num(currency === "KRW" ? row.pkg_left_krw : row.pkg_left_usd),
  };
}

/**
 * What an item sells for in a currency (VAT excluded), or null when it cannot be bought because nothing of it is
 * left: the one place a price is read from a row, for cards, the cart, the checkout and purchase requests alike.
 */
export function saleUnit(
  row: PackageMemberRow & { status: string; price_krw: number; price_usd: number },
  currency: Currency,
): number | null {
  if (row.status !== "active") return null;
  const list = currency === "KRW" ? row.price_krw : row.price_usd;
  const members = packageMembersOf(row, currency);
  return members ? packagePrice(list, members) : list;
}

export function selectCards<O>(q: SelectQueryBuilder<Database, "contents", O>) {
  return q.select(CARD_COLUMNS);
}

/** On sale in both currencies: active, and for a package, something of it left to pay for. */
export const onSale = (row: PackageMemberRow & { status: string; price_krw: number; price_usd: number }) =>
  saleUnit(row, "KRW") !== null && saleUnit(row, "USD") !== null;

export function toCard(row: CardRow, locale: Locale): ContentCard {
  const currency = currencyFor(locale);
  const listPrice = currency === "KRW" ? row.price_krw : row.price_usd;
  const members = packageMembersOf(row, currency);
  const unit = row.status === "active" ? saleUnit(row, currency) : listPrice;
  return {
    id: row.id,
    code: row.code,
    type: row.contents_type as ContentCard["type"],
    sub: row.contents_type_sub,
    title: locale === "ko" ? row.title_ko : row.title_en,
    thumb: row.poster_path,
    preview: row.preview_path,
    peaks: row.contents_type === "audio" ? peaksUrlOf(row.poster_path) : null,
    priceType: row.price_type as ContentCard["priceType"],
    price: unit ?? listPrice,
    listPrice,
    currency,
    durationMs: row.duration_ms,
    bpm: row.bpm,
    fontFamily: row.font_family,
    discontinued: row.status !== "active" || unit === null,
    members: members ? { count: members.count, left: members.left } : null,
  };
}
