import { searchFilterSchema } from "../market/search/filter-schema.server";
import { AUDIO_TYPES, SEARCH_TYPES, SORTS } from "../market/search/filters";
import { searchContents, searchFilterOptions } from "../market/search/search.server";
import { route } from "./define";
import { contentCard, named } from "./wire";
import { z } from "./zod";

const searchType = z.enum(SEARCH_TYPES);
const tag = "Search";

export const searchRoutes = [
  route({
    method: "GET",
    path: "search/filters",
    tag,
    summary: "What the filters of a search type offer",
    query: z.object({ type: searchType.default("all") }),
    answer: z.object({
      type: searchType,
      sorts: z.array(z.string()),
      prices: z.array(z.object({ value: z.number().int(), code: z.string() })),
      categories: z.array(named),
      genres: z.array(named),
      durations: z.array(z.object({ code: z.string(), start: z.number().optional(), end: z.number().optional() })),
      audio_types: z.array(z.string()),
      bpm_bands: z.array(z.object({ code: z.string(), start: z.number(), end: z.number().optional() })),
      ai: z.boolean(),
    }),
    handler: async (call, input) => searchFilterOptions(call.context.db, input.query().type, call.language),
  }),
  route({
    method: "GET",
    path: "search/:type",
    tag,
    summary: "Search with the spec's filter (section 3; default limit 42)",
    query: searchFilterSchema.innerType().omit({ type: true }),
    answer: z.object({
      list: z.array(contentCard),
      total_count: z.number().int(),
      counts: z.object(Object.fromEntries(SEARCH_TYPES.map((t) => [t, z.number().int()]))),
      corrected: z.string().nullable(),
      related: z.array(z.string()),
      recommended: z.array(z.string()),
      filter: z
        .object({
          type: searchType,
          keywords: z.string(),
          sort: z.enum(SORTS),
          price: z.number().int(),
          categorys: z.array(z.number().int()),
          offset: z.number().int(),
          limit: z.number().int(),
          duration_start: z.number().int().optional(),
          duration_end: z.number().int().optional(),
          audio_type: z.enum(AUDIO_TYPES).openapi({ description: "The audioType query parameter." }),
          bpm_start: z.number().int().optional(),
          bpm_end: z.number().int().optional(),
          ai: z.boolean(),
        })
        .openapi({ description: "The filter as searched (its defaults filled in)." }),
    }),
    handler: async (call) => {
      // The whole filter (the path's type with the query) is checked by the one schema the search page uses too.
      const filter = searchFilterSchema.parse({ ...Object.fromEntries(call.query), type: call.params.type });
      const result = await searchContents(call.context.db, filter, call.language);
      return { ...result, filter };
    },
  }),
];
