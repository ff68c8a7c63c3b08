import { fixedT } from "../i18n/i18n.server";
import { MarketError } from "../market/errors";
import { getEvent, listEvents, type MarketEvent, showsTestEvents } from "../market/events.server";
import { PAGE_SIZE } from "../market/rules";
import { publicOrigin } from "../utils/origin.server";
import { isTestMode } from "../utils/test-mode.server";
import { type ApiCall, route } from "./define";
import { list } from "./wire";
import { z } from "./zod";

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
  status: e.state,
  test_yn: e.test ? "Y" : "N",
});

const event = z
  .object({
    id: z.number().int(),
    title: z.string(),
    body: z.string(),
    image_url: z.string().nullable(),
    coupon_code: z.string().nullable(),
    discount_percent: z.number().nullable(),
    starts_at: z.string(),
    ends_at: z.string(),
    status: z.enum(["running", "ended"]).openapi({ description: "The event's own status (data.state stays the SUCCESS/ERROR marker)." }),
    test_yn: z.enum(["Y", "N"]),
  })
  .openapi("Event");
const tag = "Notices and events";

const includeTest = (call: ApiCall, asked: "Y" | "N") => showsTestEvents(asked, isTestMode(call.context));

/** Events (spec section 7: pboard/event, pboard/event/{id} with testYn), in the caller's `language`. */
export const eventRoutes = [
  route({
    method: "GET",
    path: "pboard/event",
    tag,
    summary: "Events (testYn=Y adds test events where allowed)",
    query: listQuery,
    answer: list(event),
    handler: async (call, input) => {
      const q = input.query();
      const result = await listEvents(call.context.db, call.language, {
        offset: q.offset,
        limit: q.limit,
        includeTest: includeTest(call, q.testYn),
      });
      return { list: result.list.map((e) => toApi(call, e)), total_count: result.total };
    },
  }),
  route({
    method: "GET",
    path: "pboard/event/:id",
    tag,
    summary: "One event",
    query: z.object({ testYn }),
    answer: event,
    handler: async (call, input) => {
      const id = eventId.parse(call.params.id, { path: ["id"] });
      const asked = input.query().testYn;
      const found = await getEvent(call.context.db, id, call.language, { includeTest: includeTest(call, asked) });
      if (!found) throw new MarketError("EVENT_NOT_FOUND", 404, fixedT(call.language)("event.notFound"));
      return toApi(call, found);
    },
  }),
];
