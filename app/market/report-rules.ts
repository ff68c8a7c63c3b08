/**
 * The reports' fixed lists and limits (a plain module: the console's pages read them in the browser too; the
 * queries are in reports.server.ts).
 */
import type { Currency } from "./money";

export const REPORT_CURRENCIES: readonly Currency[] = ["KRW", "USD"];
/** The order types are shown in (catalog types, then passes); a type not listed here follows in name order. */
export const REPORT_TYPES = ["video", "icon", "audio", "font", "package", "pass"] as const;
export const DOWNLOAD_KINDS = ["purchase", "pass", "free", "benefit"] as const;
/** The longest range a report reads (a year and a day). */
export const REPORT_MAX_DAYS = 366;
/** The default range: the last 30 days, today included. */
export const REPORT_DEFAULT_DAYS = 30;
/** How many items the top lists show. */
export const TOP_LIMIT = 10;
