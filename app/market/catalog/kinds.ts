import type { ContentStatus, ContentsType, PriceType } from "../../db/schema";

/** The catalog's fixed vocabularies, for server and browser alike (pages list them in selects). */
export const CONTENT_TYPES = ["video", "icon", "audio", "font", "package"] as const satisfies readonly ContentsType[];
export const CONTENT_STATUSES = ["active", "discontinued"] as const satisfies readonly ContentStatus[];
export const PRICE_TYPES = ["paid", "free", "benefit"] as const satisfies readonly PriceType[];
