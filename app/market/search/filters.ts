import { z } from "zod";
import { BPM_BANDS, PAGE_SIZE } from "../rules";

/** Search types: /search/{type}. */
export const SEARCH_TYPES = ["all", "video", "icon", "audio", "font", "package"] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

/** price: 1 Paid, 2 All (the spec's default), 3 Free & Benefit. */
export const PRICE_FILTERS = { paid: 1, all: 2, freeBenefit: 3 } as const;
export const SORTS = ["accuracy", "popular", "recent"] as const;
export const AUDIO_TYPES = ["all", "bgm", "se"] as const;

const optionalInt = (max: number) =>
  z.preprocess((v) => (v === "" || v === null ? undefined : v), z.coerce.number().int().min(0).max(max).optional());

/**
 * The spec's search filter (section 3): type, keywords, sort, price, categorys, offset, limit, duration
 * start/end (seconds), audioType, bpm start/end, and ai (AI background music only). Shared by the page and
 * the API; a bad value is an error that names the parameter.
 */
export const searchFilterSchema = z
  .object({
    type: z.enum(SEARCH_TYPES).default("all"),
    keywords: z
      .string()
      .max(100, "at most 100 characters")
      .default("")
      .transform((s) => s.trim()),
    sort: z.enum(SORTS).default("accuracy"),
    price: z.coerce
      .number()
      .pipe(z.union([z.literal(1), z.literal(2), z.literal(3)]))
      .default(2),
    categorys: z
      .string()
      .default("")
      .transform((s, ctx) => {
        const ids = s.split(",").filter(Boolean).map(Number);
        if (ids.some((n) => !Number.isInteger(n) || n <= 0) || ids.length > 50) {
          ctx.addIssue({ code: z.ZodIssueCode.custom, message: "must be a comma-separated list of ids" });
          return z.NEVER;
        }
        return [...new Set(ids)];
      }),
    offset: z.coerce.number().int().min(0).max(100_000).default(0),
    limit: z.coerce.number().int().min(1).max(100).default(PAGE_SIZE.search),
    duration_start: optionalInt(3600),
    duration_end: optionalInt(3600),
    audioType: z.enum(AUDIO_TYPES).default("all"),
    bpm_start: optionalInt(400),
    bpm_end: optionalInt(400),
    ai: z
      .enum(["0", "1", "true", "false"])
      .optional()
      .transform((v) => v === "1" || v === "true"),
  })
  .superRefine((f, ctx) => {
    if (f.duration_start !== undefined && f.duration_end !== undefined && f.duration_start > f.duration_end)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["duration_end"], message: "must not be less than duration_start" });
    if (f.bpm_start !== undefined && f.bpm_end !== undefined && f.bpm_start > f.bpm_end)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["bpm_end"], message: "must not be less than bpm_start" });
  });

export type SearchFilter = z.output<typeof searchFilterSchema>;

/** The BPM band a bpm_start/bpm_end pair names, if any (the page offers the bands as choices). */
export function bandOf(f: Pick<SearchFilter, "bpm_start" | "bpm_end">): string | null {
  return BPM_BANDS.find((b) => b.min === f.bpm_start && (b.max ?? undefined) === f.bpm_end)?.code ?? null;
}
