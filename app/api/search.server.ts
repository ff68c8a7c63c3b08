import { z } from "zod";
import { searchFilterSchema } from "../market/search/filter-schema.server";
import { SEARCH_TYPES } from "../market/search/filters";
import { searchContents, searchFilterOptions } from "../market/search/search.server";
import { ok } from "./envelope.server";
import type { ApiRoute } from "./router.server";

export const searchRoutes: ApiRoute[] = [
  {
    method: "GET",
    path: "search/filters",
    handler: async (call) => {
      const type = z
        .enum(SEARCH_TYPES)
        .default("all")
        .parse(call.query.get("type") ?? undefined, { path: ["type"] });
      return ok(await searchFilterOptions(call.context.db, type, call.language));
    },
  },
  {
    method: "GET",
    path: "search/:type",
    handler: async (call) => {
      const filter = searchFilterSchema.parse({ ...Object.fromEntries(call.query), type: call.params.type });
      const result = await searchContents(call.context.db, filter, call.language);
      return ok({ ...result, filter });
    },
  },
];
