import { fixedT } from "../i18n/i18n.server";
import { MarketError } from "../market/errors";
import { getNotice, type Notice, noticeWindow } from "../market/notices.server";
import { PAGE_SIZE } from "../market/rules";
import { route } from "./define";
import { list } from "./wire";
import { z } from "./zod";

const listQuery = z.object({
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(PAGE_SIZE.notices),
});
const noticeId = z
  .string()
  .regex(/^[1-9]\d{0,9}$/, "must be a notice id")
  .transform(Number);

const toApi = (n: Notice) => ({ id: n.id, title: n.title, body: n.body, pinned: n.pinned, published_at: n.publishedAt });
const notice = z
  .object({ id: z.number().int(), title: z.string(), body: z.string(), pinned: z.boolean(), published_at: z.string() })
  .openapi("Notice");
const tag = "Notices and events";

/** Notices (spec section 7: notice/list, notice/{id}), in the caller's `language`, as the pages show them. */
export const noticeRoutes = [
  route({
    method: "GET",
    path: "notice/list",
    tag,
    summary: "Notices, pinned first",
    query: listQuery,
    answer: list(notice),
    handler: async (call, input) => {
      const result = await noticeWindow(call.context.db, call.language, input.query());
      return { list: result.list.map(toApi), total_count: result.total };
    },
  }),
  route({
    method: "GET",
    path: "notice/:id",
    tag,
    summary: "One notice",
    answer: notice,
    handler: async (call) => {
      const id = noticeId.parse(call.params.id, { path: ["id"] });
      const notice = await getNotice(call.context.db, id, call.language);
      if (!notice) throw new MarketError("NOTICE_NOT_FOUND", 404, fixedT(call.language)("notice.notFound"));
      return toApi(notice);
    },
  }),
];
