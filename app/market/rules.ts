/** The spec's business constants (section 9), written once. */
export const CART_MAX_ITEMS = 100;
export const CART_KEEP_DAYS = 30;
export const CART_MESSAGE_MS = 2_000;
export const VAT_RATE_PERCENT = 10;
export const USE_PERIOD_DAYS = 90;
export const REFUND_WINDOW_DAYS = 7;
export const VBANK_REFUND_DEDUCTION_PERCENT = 10;
export const QUOTE_VALID_DAYS = 30;
export const YOUTUBE_LOCK_DAYS = 90;
export const INQUIRY_DESCRIPTION_MAX = 1_000;
export const INQUIRY_ATTACHMENT_MAX_BYTES = 2 * 1024 * 1024;
export const PURCHASE_REQUEST_MESSAGE_MAX = 100;
/** A request holds at most a full cart. */
export const MAX_REQUEST_ITEMS = 100;
export const FONT_PREVIEW_MAX = 100;
export const ORDER_HISTORY_YEARS = 3;
export const DOWNLOAD_DIALOG_CLOSE_MS = 60_000;
/** A page part (route module) that has not loaded after this long is a ChunkLoadError (spec section 8). */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
export const MIN_EDITOR_VERSION = "2.0.4.7.0";
export const PASS_SIZES = [5, 10] as const;
export const TO_TOP_SCROLL_PX = 50;

export const PAGE_SIZE = {
  search: 42,
  requests: 20,
  faq: 20,
  inquiries: 10,
  notices: 15,
  events: 15,
} as const;

/** BPM bands: very slow 0-60, slow 60-90, fast 90-120, very fast 120 and above. */
export const BPM_BANDS = [
  { code: "very_slow", min: 0, max: 60 },
  { code: "slow", min: 60, max: 90 },
  { code: "fast", min: 90, max: 120 },
  { code: "very_fast", min: 120, max: null },
] as const;

export type BpmBand = (typeof BPM_BANDS)[number]["code"];

export function bpmBand(bpm: number): BpmBand {
  const band = BPM_BANDS.find((b) => bpm >= b.min && (b.max === null || bpm < b.max));
  return (band ?? BPM_BANDS[BPM_BANDS.length - 1]).code;
}
