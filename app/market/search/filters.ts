import { BPM_BANDS } from "../rules";
import type { SearchFilter } from "./filter-schema.server";

/** Search types: /search/{type}. */
export const SEARCH_TYPES = ["all", "video", "icon", "audio", "font", "package"] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

/** price: 1 Paid, 2 All (the spec's default), 3 Free & Benefit. */
export const PRICE_FILTERS = { paid: 1, all: 2, freeBenefit: 3 } as const;
export const SORTS = ["accuracy", "popular", "recent"] as const;
export const AUDIO_TYPES = ["all", "bgm", "se"] as const;

export type { SearchFilter } from "./filter-schema.server";

/** The BPM band a bpm_start/bpm_end pair names, if any (the page offers the bands as choices). */
export function bandOf(f: Pick<SearchFilter, "bpm_start" | "bpm_end">): string | null {
  return BPM_BANDS.find((b) => b.min === f.bpm_start && (b.max ?? undefined) === f.bpm_end)?.code ?? null;
}
