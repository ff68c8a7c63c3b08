import { z } from "zod";
import { countCart } from "../market/cart.server";
import { MarketError } from "../market/errors";
import { identifyLicense } from "../market/licenses.server";
import { type BusinessKey, businessKeyOfLicense, lookupBusinessKey } from "../market/requests/lookup.server";
import {
  contentIdsOfCodes,
  countOpenRequests,
  createPurchaseRequest,
  deleteRequests,
  listRequests,
  requestDetail,
} from "../market/requests/requests.server";
import { PURCHASE_REQUEST_MESSAGE_MAX, REQUEST_STATES } from "../market/requests/rules";
import { PAGE_SIZE } from "../market/rules";
import { itemCode } from "../utils/input.server";
import { publicOrigin } from "../utils/origin.server";
import { readShopper } from "../utils/shopper.server";
import { readJson, requireMember } from "./caller.server";
import { ok } from "./envelope.server";
import type { ApiCall, ApiRoute } from "./router.server";

/** The representative a request call speaks for: a signed-in business account (others have no requests). */
async function requireRepresentative(call: ApiCall) {
  const viewer = await requireMember(call);
  if (viewer.userType !== 2) throw new MarketError("NOT_BUSINESS", 403, "Purchase requests are for business representative accounts");
  return viewer;
}

/**
 * The business key a key-only caller speaks for: the editor's verified `license_id` + `hw_info` headers, or the key
 * and its licensing e-mail (spec section 5's lookup, with its messages).
 */
export async function keyOfCall(call: ApiCall, body: { license_id?: string; license_email?: string }): Promise<BusinessKey> {
  const serial = call.request.headers.get("license_id")?.trim();
  const hwInfo = call.request.headers.get("hw_info")?.trim();
  if (serial && hwInfo) {
    const license = await identifyLicense(call.context.db, serial, hwInfo);
    if (!license) throw new MarketError("LICENSE_NOT_FOUND", 403, "The license_id and hw_info headers do not match a registered licence");
    return businessKeyOfLicense(call.context.db, license);
  }
  if (!body.license_id || !body.license_email)
    throw new MarketError("LICENSE_REQUIRED", 400, "Send license_id and license_email, or the editor's license_id and hw_info headers");
  return lookupBusinessKey(call.context.db, { serial: body.license_id, email: body.license_email, ip: call.context.clientIp });
}

const listQuery = z.object({
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(PAGE_SIZE.requests),
  state: z.enum(REQUEST_STATES as [string, ...string[]]).optional(),
  from: z.string().datetime({ offset: true }).optional(),
  to: z.string().datetime({ offset: true }).optional(),
});

const newRequest = z.object({
  message: z.string().trim().min(1).max(PURCHASE_REQUEST_MESSAGE_MAX),
  request_email: z.string().trim().email(),
  license_id: z.string().trim().min(1).max(64).optional(),
  license_email: z.string().trim().email().optional(),
  item_list: z.array(itemCode).min(1).max(100),
});

const idList = z.object({ request_id_list: z.array(z.number().int().positive()).min(1).max(100) });

/** Purchase requests (spec section 7: requests/count, requests, requests/{id}, DELETE and POST requests). */
export const requestRoutes: ApiRoute[] = [
  {
    method: "GET",
    path: "requests/count",
    handler: async (call) => {
      const viewer = await requireMember(call);
      // Purchase requests are sent to business representatives; an individual member has none.
      return ok({ count: viewer.userType === 2 ? await countOpenRequests(call.context.db, viewer.id) : 0 });
    },
  },
  {
    method: "GET",
    path: "requests",
    handler: async (call) => {
      const viewer = await requireRepresentative(call);
      const q = listQuery.parse(Object.fromEntries(call.query));
      const result = await listRequests(call.context.db, viewer.id, { ...q, state: q.state as never }, call.language);
      return ok(result);
    },
  },
  {
    method: "GET",
    path: "requests/:id",
    handler: async (call) => {
      const viewer = await requireRepresentative(call);
      const id = z.coerce
        .number()
        .int()
        .positive()
        .parse(call.params.id, { path: ["id"] });
      const detail = await requestDetail(call.context.db, viewer.id, id, call.language);
      if (!detail) throw new MarketError("REQUEST_NOT_FOUND", 404, "This purchase request was not found.");
      return ok(detail);
    },
  },
  {
    method: "DELETE",
    path: "requests",
    handler: async (call) => {
      const viewer = await requireRepresentative(call);
      const input = idList.parse(await readJson(call));
      return ok({ count: await deleteRequests(call.context.db, viewer.id, input.request_id_list) });
    },
  },
  {
    method: "POST",
    path: "requests",
    handler: async (call) => {
      const input = newRequest.parse(await readJson(call));
      const key = await keyOfCall(call, input);
      // The caller's cart (authorizationToken or ngt): the requested items leave it (issue 24, point 5).
      const { viewer, ngt } = await readShopper(call.request, call.context);
      const cart = { userId: viewer?.id ?? null, ngt };
      const created = await createPurchaseRequest(call.context.db, {
        cart,
        key,
        requestEmail: input.request_email,
        message: input.message,
        contentIds: await contentIdsOfCodes(call.context.db, input.item_list),
        locale: call.language,
        origin: publicOrigin(call.request, call.context),
        ip: call.context.clientIp,
      });
      return ok({
        state: "SUCCESS",
        request_id: created.id,
        request_no: created.requestNo,
        total: created.total,
        currency: created.currency,
        expires_at: created.expiresAt,
        quote_url: `${publicOrigin(call.request, call.context)}${created.quotePath}`,
        cart_count: await countCart(call.context.db, cart),
      });
    },
  },
];
