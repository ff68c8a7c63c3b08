import { z } from "zod";
import { fixedT } from "../i18n/i18n.server";
import { MarketError } from "../market/errors";
import { getNotice, type Notice, noticeWindow } from "../market/notices.server";
import { PAGE_SIZE } from "../market/rules";
import { ok } from "./envelope.server";
import type { ApiRoute } from "./router.server";

const listQuery = z.object({
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(PAGE_SIZE.notices),
});
const noticeId = z
  .string()
  .regex(/^[1-9]\d{0,9}$/, "must be a notice id")
  .transform(Number);

const toApi = (n: Notice) => ({ id: n.id, title: n.title, body: n.body, pinned: n.pinned, published_at: n.publishedAt });

/** Notices (spec section 7: notice/list, notice/{id}), in the caller's `language`, as the pages show them. */
export const noticeRoutes: ApiRoute[] = [
  {
    method: "GET",
    path: "notice/list",
    handler: async (call) => {
      const q = listQuery.parse(Object.fromEntries(call.query));
      const result = await noticeWindow(call.context.db, call.language, q);
      return ok({ list: result.list.map(toApi), total_count: result.total });
    },
  },
  {
    method: "GET",
    path: "notice/:id",
    handler: async (call) => {
      const id = noticeId.parse(call.params.id, { path: ["id"] });
      const notice = await getNotice(call.context.db, id, call.language);
      if (!notice) throw new MarketError("NOTICE_NOT_FOUND", 404, fixedT(call.language)("notice.notFound"));
      return ok(toApi(notice));
    },
  },
];
