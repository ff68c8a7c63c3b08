import type { SelectQueryBuilder } from "kysely";
import type { Database } from "../../db/schema";
import type { Locale } from "../../i18n/config";
import { type Currency, currencyFor } from "../money";
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
  price: number; // minor units, VAT excluded
  currency: Currency;
  durationMs: number | null;
  bpm: number | null;
  fontFamily: string | null;
  discontinued: boolean;
}

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
};

export function selectCards<O>(q: SelectQueryBuilder<Database, "contents", O>) {
  return q.select(CARD_COLUMNS);
}

export function toCard(row: CardRow, locale: Locale): ContentCard {
  const currency = currencyFor(locale);
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
    price: currency === "KRW" ? row.price_krw : row.price_usd,
    currency,
    durationMs: row.duration_ms,
    bpm: row.bpm,
    fontFamily: row.font_family,
    discontinued: row.status !== "active",
  };
}
