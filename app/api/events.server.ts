import { z } from "zod";
import { fixedT } from "../i18n/i18n.server";
import { MarketError } from "../market/errors";
import { getEvent, listEvents, type MarketEvent, showsTestEvents } from "../market/events.server";
import { PAGE_SIZE } from "../market/rules";
import { publicOrigin } from "../utils/origin.server";
import { isTestMode } from "../utils/test-mode.server";
import { ok } from "./envelope.server";
import type { ApiCall, ApiRoute } from "./router.server";

const testYn = z.enum(["Y", "N"]).default("N");
const listQuery = z.object({
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(PAGE_SIZE.events),
  testYn,
});
const eventId = z
  .string()
  .regex(/^[1-9]\d{0,9}$/, "must be an event id")
  .transform(Number);

const toApi = (call: ApiCall, e: MarketEvent) => ({
  id: e.id,
  title: e.title,
  body: e.body,
  image_url: e.image ? `${publicOrigin(call.request, call.context)}${e.image}` : null,
  coupon_code: e.coupon?.code ?? null,
  discount_percent: e.coupon?.percent ?? null,
  starts_at: e.startsAt,
  ends_at: e.endsAt,
  state: e.state,
  test_yn: e.test ? "Y" : "N",
});

const includeTest = (call: ApiCall, asked: "Y" | "N") => showsTestEvents(asked, isTestMode(call.context));

/** Events (spec section 7: pboard/event, pboard/event/{id} with testYn), in the caller's `language`. */
export const eventRoutes: ApiRoute[] = [
  {
    method: "GET",
    path: "pboard/event",
    handler: async (call) => {
      const q = listQuery.parse(Object.fromEntries(call.query));
      const result = await listEvents(call.context.db, call.language, {
        offset: q.offset,
        limit: q.limit,
        includeTest: includeTest(call, q.testYn),
      });
      return ok({ list: result.list.map((e) => toApi(call, e)), total_count: result.total });
    },
  },
  {
    method: "GET",
    path: "pboard/event/:id",
    handler: async (call) => {
      const id = eventId.parse(call.params.id, { path: ["id"] });
      const asked = testYn.parse(call.query.get("testYn") ?? undefined, { path: ["testYn"] });
      const event = await getEvent(call.context.db, id, call.language, { includeTest: includeTest(call, asked) });
      if (!event) throw new MarketError("EVENT_NOT_FOUND", 404, fixedT(call.language)("event.notFound"));
      return ok(toApi(call, event));
    },
  },
];
