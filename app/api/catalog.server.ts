import { contentDetail, relatedContents } from "../market/catalog/detail.server";
import { fontSubset } from "../market/catalog/fonts.server";
import { listBanners, listBestSellers, listKeywords, SPACES } from "../market/catalog/landing.server";
import { findGroup, listContents, listPackages, listThemes } from "../market/catalog/lists.server";
import { MarketError } from "../market/errors";
import { PASS_GROUPS } from "../market/pass-groups";
import { passPriceGroups } from "../market/passes.server";
import { FONT_PREVIEW_MAX } from "../market/rules";
import { ITEM_CODE } from "../utils/input.server";
import { type ApiCall, route } from "./define";
import { contentCard, contentDetail as contentDetailSchema, currency, list } from "./wire";
import { z } from "./zod";

const paging = (defaultLimit = 20) => ({
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(defaultLimit),
});
const contentType = z.enum(["video", "icon", "audio", "font", "package"]);
const page = z.enum(["home", ...SPACES]);
const pageParam = (call: ApiCall) => page.parse(call.params.id, { path: ["id"] });
const cards = list(contentCard);

const banner = z.object({
  id: z.number().int(),
  kind: z.string(),
  title: z.string(),
  subtitle: z.string(),
  image: z.string(),
  link: z.string(),
});

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

const passPrice = z.object({
  id: z.number().int(),
  contents_flag: z.number().int(),
  contents_type_sub: z.number().int().nullable(),
  contents_count: z.number().int(),
  price: z.number(),
  currency,
  valid_days: z.number().int(),
});

const tag = "Catalogue";

export const catalogRoutes = [
  route({
    method: "GET",
    path: "banners/:id",
    tag,
    summary: "Banners of a page (home or a space)",
    answer: z.object({ list: z.array(banner) }),
    handler: async (call) => ({
      list: (await listBanners(call.context.db, pageParam(call), call.language)).filter((b) => b.kind === "banner"),
    }),
  }),
  route({
    method: "GET",
    path: "keyvisuals/:id",
    tag,
    summary: "Key visuals of a page (home or a space)",
    answer: z.object({ list: z.array(banner) }),
    handler: async (call) => ({
      list: (await listBanners(call.context.db, pageParam(call), call.language)).filter((b) => b.kind === "keyvisual"),
    }),
  }),
  route({
    method: "GET",
    path: "keywords/:id",
    tag,
    summary: "Popular keywords of a page",
    answer: z.object({ list: z.array(z.string()) }),
    handler: async (call) => ({ list: await listKeywords(call.context.db, pageParam(call), call.language) }),
  }),
  route({
    method: "GET",
    path: "contents",
    tag,
    summary: "Contents of a space (best or new), optionally of a group",
    query: z.object({
      space: z.enum(SPACES),
      page: z.enum(["best", "new"]).default("best"),
      group_id: z.coerce.number().int().positive().optional(),
      ...paging(),
    }),
    answer: cards,
    handler: async (call, input) => {
      const q = input.query();
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
      return { list: result.list, total_count: result.total };
    },
  }),
  route({
    method: "GET",
    path: "free/contents",
    tag,
    summary: "Free and benefit contents: the free page's (from=free_page) or a product list's (from=product)",
    query: z.object({
      from: z.enum(["free_page", "product"]),
      contents_type: contentType.optional().openapi({ description: "Required with from=product." }),
      free_type: z.enum(["free", "benefit", "all"]).default("all"),
      ...paging(),
    }),
    answer: cards,
    handler: async (call, input) => {
      const q = input.query();
      if (q.from === "free_page") {
        if (!q.contents_type) {
          const list = await listBestSellers(call.context.db, "benefit", call.language, 12);
          return { list, total_count: list.length };
        }
        const result = await listContents(
          call.context.db,
          { type: q.contents_type, price: "free_benefit", offset: 0, limit: 12 },
          call.language,
        );
        return { list: result.list, total_count: result.total };
      }
      const type = contentType.parse(q.contents_type, { path: ["contents_type"] });
      const result = await listContents(
        call.context.db,
        { type, price: q.free_type === "all" ? "free_benefit" : q.free_type, offset: q.offset, limit: q.limit },
        call.language,
      );
      return { list: result.list, total_count: result.total };
    },
  }),
  route({
    method: "GET",
    path: "contents/:id/related",
    tag,
    summary: "Contents related to one (same genre, else category)",
    query: z.object(paging(8)),
    answer: cards,
    handler: async (call, input) => {
      const q = input.query();
      const item = await contentByKey(call, call.params.id);
      const result = await relatedContents(call.context.db, item.id, call.language, q);
      return { list: result?.list ?? [], total_count: result?.total ?? 0 };
    },
  }),
  route({
    method: "GET",
    path: "contents/:id",
    tag,
    summary: "One content by id or item code",
    query: z.object({ contents_type: contentType.optional() }),
    answer: contentDetailSchema,
    handler: async (call, input) => {
      const q = input.query();
      const item = await contentByKey(call, call.params.id);
      if (q.contents_type && q.contents_type !== item.type)
        throw new MarketError("NOT_FOUND", 404, `Content ${call.params.id} is not of type ${q.contents_type}`);
      return item;
    },
  }),
  route({
    method: "GET",
    path: "themes",
    tag,
    summary: "Themes of a space, each with its first items",
    query: z.object({ space: contentType, page: z.string().optional(), ...paging(10) }),
    answer: list(z.object({ id: z.number().int(), code: z.string(), name: z.string(), items: z.array(contentCard) })),
    handler: async (call, input) => {
      const q = input.query();
      const result = await listThemes(call.context.db, q.space, call.language, q);
      return { list: result.list, total_count: result.total };
    },
  }),
  route({
    method: "GET",
    path: "packages",
    tag,
    summary: "Packages, optionally of a package category (cate1)",
    query: z.object({ cate1: z.coerce.number().int().positive().optional(), ...paging() }),
    answer: list(contentCard.extend({ item_count: z.number().int() })),
    handler: async (call, input) => {
      const q = input.query();
      const group = q.cate1 ? await findGroup(call.context.db, q.cate1, call.language) : null;
      if (q.cate1 && (group?.space !== "package" || group.kind !== "category"))
        throw new MarketError("NOT_FOUND", 404, `No package category ${q.cate1}`);
      const result = await listPackages(call.context.db, call.language, { offset: q.offset, limit: q.limit, categoryId: q.cate1 });
      return { list: result.list, total_count: result.total };
    },
  }),
  route({
    method: "GET",
    path: "font/list",
    tag,
    summary: "Fonts, optionally of a font category (cate1)",
    query: z.object({ cate1: z.coerce.number().int().positive().optional(), ...paging() }),
    answer: cards,
    handler: async (call, input) => {
      const q = input.query();
      const group = q.cate1 ? await findGroup(call.context.db, q.cate1, call.language) : null;
      if (q.cate1 && group?.space !== "font") throw new MarketError("NOT_FOUND", 404, `No font category ${q.cate1}`);
      const result = await listContents(
        call.context.db,
        { type: "font", group: group ? { id: group.id, kind: group.kind } : undefined, offset: q.offset, limit: q.limit },
        call.language,
      );
      return { list: result.list, total_count: result.total };
    },
  }),
  route({
    method: "GET",
    path: "font/subset",
    tag,
    summary: "A font cut to the characters of a preview text (WOFF2)",
    query: z.object({
      contents_code: z.string().regex(/^FO\d{7}$/, "must be a font's code"),
      text: z
        .string()
        .max(FONT_PREVIEW_MAX * 2)
        .default(""),
    }),
    answer: { binary: "font/woff2" },
    handler: async (call, input) => {
      const q = input.query();
      const font = await fontSubset(call.context.db, call.context.storage, q.contents_code, q.text);
      return new Response(new Uint8Array(font), {
        headers: {
          "Content-Type": "font/woff2",
          "Cache-Control": "public, max-age=86400, immutable",
          "Content-Length": String(font.length),
        },
      });
    },
  }),
  route({
    method: "GET",
    path: "font/:id",
    tag,
    summary: "One font by id or item code",
    // contents_type 4 is the font type code (the spec's default); no other value names a font.
    query: z.object({ contents_type: z.coerce.number().pipe(z.literal(4)).default(4) }),
    answer: contentDetailSchema.extend({ contents_type: z.literal(4) }),
    handler: async (call, input) => {
      const q = input.query();
      const item = await contentByKey(call, call.params.id);
      if (item.type !== "font") throw new MarketError("NOT_FOUND", 404, `Content ${call.params.id} is not a font`);
      return { ...item, contents_type: q.contents_type };
    },
  }),
  route({
    method: "GET",
    path: "passes",
    tag,
    summary: "Pass prices by group, each ascending by contents_count",
    answer: z.object({ list: z.object(Object.fromEntries(PASS_GROUPS.map((g) => [g, z.array(passPrice)]))) }),
    handler: async ({ context, language }) => ({ list: await passPriceGroups(context.db, language) }),
  }),
];
