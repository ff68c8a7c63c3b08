import { z } from "zod";
import { pageNumber } from "../../utils/input.server";
import { PAGE_SIZE } from "../rules";
import { AUDIO_TYPES, SEARCH_TYPES, SORTS } from "./filters";

/*
 * The search filter's schema and the search page's address, in a .server module: a route module that imports
 * zod itself ships it to the browser (see app/market/catalog/queries.server.ts).
 */

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

/** Parses filter values; values that do not fit are dropped (and `dropped` says so) instead of failing. */
function parseLeniently(params: Record<string, string>): { filter: SearchFilter; dropped: boolean } {
  const input = { ...params };
  for (let i = 0; i < 5; i++) {
    const parsed = searchFilterSchema.safeParse(input);
    if (parsed.success) return { filter: parsed.data, dropped: i > 0 };
    for (const issue of parsed.error.issues) delete input[String(issue.path[0])];
  }
  return { filter: searchFilterSchema.parse({ type: params.type }), dropped: true };
}

/**
 * The search page's address as a filter: `page` (42 a page) becomes offset and limit; the filter form sends
 * ranges as one choice (duration=10-30, bpm=60-90), and the address may also carry the spec's separate start/end
 * parameters; categories may repeat.
 */
export function searchPageFilter(url: URL, type: string): { filter: SearchFilter; page: number; dropped: boolean } {
  const raw = Object.fromEntries(url.searchParams);
  const page = pageNumber(raw.page, 1000);
  delete raw.page;
  for (const key of ["duration", "bpm"] as const) {
    if (raw[key] !== undefined) {
      const [start = "", end = ""] = raw[key].split("-");
      raw[`${key}_start`] = start;
      raw[`${key}_end`] = end;
      delete raw[key];
    }
  }
  if (url.searchParams.has("categorys")) raw.categorys = url.searchParams.getAll("categorys").join(",");
  const size = PAGE_SIZE.search;
  const { filter, dropped } = parseLeniently({ ...raw, type, offset: String((page - 1) * size), limit: String(size) });
  return { filter, page, dropped };
}
