import { z } from "zod";
import { contentDetail, relatedContents } from "../market/catalog/detail.server";
import { fontSubset } from "../market/catalog/fonts.server";
import { listBanners, listBestSellers, listKeywords, SPACES } from "../market/catalog/landing.server";
import { findGroup, listContents, listPackages, listThemes } from "../market/catalog/lists.server";
import { MarketError } from "../market/errors";
import { passPriceGroups } from "../market/passes.server";
import { FONT_PREVIEW_MAX } from "../market/rules";
import { ITEM_CODE } from "../utils/input.server";
import { ok } from "./envelope.server";
import type { ApiCall, ApiRoute } from "./router.server";

const paging = (defaultLimit = 20) => ({
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(defaultLimit),
});
const contentType = z.enum(["video", "icon", "audio", "font", "package"]);
const page = z.enum(["home", ...SPACES]);
const parseQuery = <T extends z.ZodRawShape>(call: ApiCall, shape: T) => z.object(shape).parse(Object.fromEntries(call.query));
const pageParam = (call: ApiCall) => page.parse(call.params.id, { path: ["id"] });

/** A content id: the numeric id or the item code (e.g. VI0000012). */
async function contentByKey(call: ApiCall, key: string) {
  const parsed = z
    .string()
    .refine((v) => /^[1-9]\d{0,9}$/.test(v) || ITEM_CODE.test(v), "must be a content id or code")
    .parse(key, { path: ["id"] });
  const item = await contentDetail(call.context.db, /^\d+$/.test(parsed) ? { id: Number(parsed) } : { code: parsed }, call.language);
  if (!item) throw new MarketError("NOT_FOUND", 404, `No content with id ${key}`);
  return item;
}

export const catalogRoutes: ApiRoute[] = [
  {
    method: "GET",
    path: "banners/:id",
    handler: async (call) =>
      ok({ list: (await listBanners(call.context.db, pageParam(call), call.language)).filter((b) => b.kind === "banner") }),
  },
  {
    method: "GET",
    path: "keyvisuals/:id",
    handler: async (call) =>
      ok({ list: (await listBanners(call.context.db, pageParam(call), call.language)).filter((b) => b.kind === "keyvisual") }),
  },
  {
    method: "GET",
    path: "keywords/:id",
    handler: async (call) => ok({ list: await listKeywords(call.context.db, pageParam(call), call.language) }),
  },
  {
    method: "GET",
    path: "contents",
    handler: async (call) => {
      const q = parseQuery(call, {
        space: z.enum(SPACES),
        page: z.enum(["best", "new"]).default("best"),
        group_id: z.coerce.number().int().positive().optional(),
        ...paging(),
      });
      const group = q.group_id ? await findGroup(call.context.db, q.group_id, call.language) : null;
      // Genres and moods are audio terms but also describe video; any other group must belong to the space.
      const fits = group && (group.kind === "genre" || group.kind === "mood" || q.space === "benefit" || group.space === q.space);
      if (q.group_id && !fits) throw new MarketError("NOT_FOUND", 404, `No group ${q.group_id} in space ${q.space}`);
      const result = await listContents(
        call.context.db,
        {
          type: q.space === "benefit" ? undefined : q.space,
          price: q.space === "benefit" ? "free_benefit" : "all",
          group: group ? { id: group.id, kind: group.kind } : undefined,
          order: q.page === "new" ? "recent" : "popular",
          offset: q.offset,
          limit: q.limit,
        },
        call.language,
      );
      return ok({ list: result.list, total_count: result.total });
    },
  },
  {
    method: "GET",
    path: "free/contents",
    handler: async (call) => {
      const from = z.enum(["free_page", "product"]).parse(call.query.get("from"), { path: ["from"] });
      if (from === "free_page") {
        const q = parseQuery(call, { from: z.literal("free_page"), contents_type: contentType.optional() });
        if (!q.contents_type) {
          const list = await listBestSellers(call.context.db, "benefit", call.language, 12);
          return ok({ list, total_count: list.length });
        }
        const result = await listContents(
          call.context.db,
          { type: q.contents_type, price: "free_benefit", offset: 0, limit: 12 },
          call.language,
        );
        return ok({ list: result.list, total_count: result.total });
      }
      const q = parseQuery(call, {
        from: z.literal("product"),
        contents_type: contentType,
        free_type: z.enum(["free", "benefit", "all"]).default("all"),
        ...paging(),
      });
      const result = await listContents(
        call.context.db,
        { type: q.contents_type, price: q.free_type === "all" ? "free_benefit" : q.free_type, offset: q.offset, limit: q.limit },
        call.language,
      );
      return ok({ list: result.list, total_count: result.total });
    },
  },
  {
    method: "GET",
    path: "contents/:id/related",
    handler: async (call) => {
      const q = parseQuery(call, paging(8));
      const item = await contentByKey(call, call.params.id);
      const result = await relatedContents(call.context.db, item.id, call.language, q);
      return ok({ list: result?.list ?? [], total_count: result?.total ?? 0 });
    },
  },
  {
    method: "GET",
    path: "contents/:id",
    handler: async (call) => {
      const q = parseQuery(call, { contents_type: contentType.optional() });
      const item = await contentByKey(call, call.params.id);
      if (q.contents_type && q.contents_type !== item.type)
        throw new MarketError("NOT_FOUND", 404, `Content ${call.params.id} is not of type ${q.contents_type}`);
      return ok(item);
    },
  },
  {
    method: "GET",
    path: "themes",
    handler: async (call) => {
      const q = parseQuery(call, { space: contentType, page: z.string().optional(), ...paging(10) });
      const result = await listThemes(call.context.db, q.space, call.language, q);
      return ok({ list: result.list, total_count: result.total });
    },
  },
  {
    method: "GET",
    path: "packages",
    handler: async (call) => {
      const q = parseQuery(call, { cate1: z.coerce.number().int().positive().optional(), ...paging() });
      const group = q.cate1 ? await findGroup(call.context.db, q.cate1, call.language) : null;
      if (q.cate1 && (group?.space !== "package" || group.kind !== "category"))
        throw new MarketError("NOT_FOUND", 404, `No package category ${q.cate1}`);
      const result = await listPackages(call.context.db, call.language, { offset: q.offset, limit: q.limit, categoryId: q.cate1 });
      return ok({ list: result.list, total_count: result.total });
    },
  },
  {
    method: "GET",
    path: "font/list",
    handler: async (call) => {
      const q = parseQuery(call, { cate1: z.coerce.number().int().positive().optional(), ...paging() });
      const group = q.cate1 ? await findGroup(call.context.db, q.cate1, call.language) : null;
      if (q.cate1 && group?.space !== "font") throw new MarketError("NOT_FOUND", 404, `No font category ${q.cate1}`);
      const result = await listContents(
        call.context.db,
        { type: "font", group: group ? { id: group.id, kind: group.kind } : undefined, offset: q.offset, limit: q.limit },
        call.language,
      );
      return ok({ list: result.list, total_count: result.total });
    },
  },
  {
    method: "GET",
    path: "font/subset",
    handler: async (call) => {
      const q = parseQuery(call, {
        contents_code: z.string().regex(/^FO\d{7}$/, "must be a font's code"),
        text: z
          .string()
          .max(FONT_PREVIEW_MAX * 2)
          .default(""),
      });
      const font = await fontSubset(call.context.db, call.context.storage, q.contents_code, q.text);
      return new Response(new Uint8Array(font), {
        headers: {
          "Content-Type": "font/woff2",
          "Cache-Control": "public, max-age=86400, immutable",
          "Content-Length": String(font.length),
        },
      });
    },
  },
  {
    method: "GET",
    path: "font/:id",
    handler: async (call) => {
      // contents_type 4 is the font type code (the spec's default); no other value names a font.
      const q = parseQuery(call, { contents_type: z.coerce.number().pipe(z.literal(4)).default(4) });
      const item = await contentByKey(call, call.params.id);
      if (item.type !== "font") throw new MarketError("NOT_FOUND", 404, `Content ${call.params.id} is not a font`);
      return ok({ ...item, contents_type: q.contents_type });
    },
  },
  {
    method: "GET",
    path: "passes",
    handler: async ({ context, language }) => ok({ list: await passPriceGroups(context.db, language) }),
  },
];
