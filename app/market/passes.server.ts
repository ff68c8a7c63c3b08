import type { DB } from "../db/db.server";
import type { Locale } from "../i18n/config";
import { currencyFor } from "./money";

export const PASS_GROUPS = ["video", "audio_se", "audio_bgm", "audio_ai", "image", "font"] as const;
export type PassGroup = (typeof PASS_GROUPS)[number];

/**
 * Spec section 3: contents_flag 1 image, 2 video, 4 audio, anything else font; audio split by
 * contents_type_sub 3001 sound effect, 3002 background music, 3003 AI background music.
 */
export function passGroupOf(contentsFlag: number, contentsTypeSub: number | null): PassGroup {
  if (contentsFlag === 1) return "image";
  if (contentsFlag === 2) return "video";
  if (contentsFlag === 4) {
    if (contentsTypeSub === 3001) return "audio_se";
    if (contentsTypeSub === 3003) return "audio_ai";
    return "audio_bgm";
  }
  return "font";
}

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
