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
import { REQUEST_STATES } from "../market/requests/rules";
import { PAGE_SIZE } from "../market/rules";
import { itemCode, keyLookupSchema, requestFormSchema } from "../utils/input.server";
import { publicOrigin } from "../utils/origin.server";
import { readShopper } from "../utils/shopper.server";
import { requireMember } from "./caller.server";
import { type ApiCall, route } from "./define";
import { at, currency, requestDetail as requestDetailSchema, requestStatus, requestSummary, success } from "./wire";
import { z } from "./zod";

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

const statusQuery = z.enum(REQUEST_STATES as [string, ...string[]]).optional();
const listQuery = z.object({
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(PAGE_SIZE.requests),
  status: statusQuery,
  state: statusQuery.openapi({ deprecated: true, description: "Old name of status, accepted for one release." }),
  from: z.string().datetime({ offset: true }).optional(),
  to: z.string().datetime({ offset: true }).optional(),
});

/** A missing field is a blank one, so the form's "required" message answers it rather than a type error. */
const blank = <T extends z.ZodTypeAny>(schema: T) => z.preprocess((v) => v ?? "", schema);

/**
 * A purchase request (spec section 7: message, request_email, license_id, item_list), checked with the purchase-request
 * form's own rules and messages (spec section 5): the API refuses with the words the page shows.
 */
const newRequest = z.object({
  message: blank(requestFormSchema.shape.message).openapi({ description: "Up to 100 characters: company and requester name." }),
  request_email: blank(requestFormSchema.shape.request_email),
  license_id: keyLookupSchema.shape.serial
    .optional()
    .openapi({ description: "The business product key (or send the editor's license_id and hw_info headers)." }),
  license_email: keyLookupSchema.shape.email.optional().openapi({ description: "The key's licensing e-mail." }),
  item_list: z.array(itemCode).min(1).max(100),
});

const idList = z.object({ request_id_list: z.array(z.number().int().positive()).min(1).max(100) });

/** A request in the wire's names: its own id is request_id, its status is status (data.state stays SUCCESS/ERROR). */
const wire = <T extends { id: number; state: string }>({ id, state, ...rest }: T) => ({ request_id: id, status: state, ...rest });

const tag = "Purchase requests";

/** Purchase requests (spec section 7: requests/count, requests, requests/{id}, DELETE and POST requests). */
export const requestRoutes = [
  route({
    method: "GET",
    path: "requests/count",
    tag,
    summary: "How many purchase requests wait for the representative",
    headers: ["authorizationToken"],
    answer: z.object({ count: z.number().int() }),
    handler: async (call) => {
      const viewer = await requireMember(call);
      // Purchase requests are sent to business representatives; an individual member has none.
      return { count: viewer.userType === 2 ? await countOpenRequests(call.context.db, viewer.id) : 0 };
    },
  }),
  route({
    method: "GET",
    path: "requests",
    tag,
    summary: "The representative's purchase requests",
    headers: ["authorizationToken"],
    query: listQuery,
    answer: z.object({ list: z.array(requestSummary), total_count: z.number().int() }),
    handler: async (call, input) => {
      const viewer = await requireRepresentative(call);
      const { state, status, ...q } = input.query();
      const result = await listRequests(call.context.db, viewer.id, { ...q, state: (status ?? state) as never }, call.language);
      return { list: result.list.map(wire), total_count: result.total_count };
    },
  }),
  route({
    method: "GET",
    path: "requests/:id",
    tag,
    summary: "One purchase request with its items and what paying it now charges",
    headers: ["authorizationToken"],
    answer: requestDetailSchema,
    handler: async (call) => {
      const viewer = await requireRepresentative(call);
      const id = z.coerce
        .number()
        .int()
        .positive()
        .parse(call.params.id, { path: ["id"] });
      const detail = await requestDetail(call.context.db, viewer.id, id, call.language);
      if (!detail) throw new MarketError("REQUEST_NOT_FOUND", 404, "This purchase request was not found.");
      return wire(detail);
    },
  }),
  route({
    method: "DELETE",
    path: "requests",
    tag,
    summary: "Deletes purchase requests by request_id",
    headers: ["authorizationToken"],
    body: idList,
    answer: z.object({ count: z.number().int() }),
    handler: async (call, input) => {
      const viewer = await requireRepresentative(call);
      const body = await input.body();
      return { count: await deleteRequests(call.context.db, viewer.id, body.request_id_list) };
    },
  }),
  route({
    method: "POST",
    path: "requests",
    tag,
    summary: "A key-only user asks the business representative to pay for these items",
    headers: ["license_id", "hw_info", "authorizationToken", "ngt"],
    body: newRequest,
    answer: z.object({
      state: success,
      request_id: z.number().int(),
      request_no: z.string(),
      status: requestStatus,
      total: z.number(),
      currency,
      expires_at: at,
      quote_url: z.string(),
      cart_count: z.number().int(),
    }),
    handler: async (call, input) => {
      const body = await input.body();
      const key = await keyOfCall(call, body);
      // The caller's cart (authorizationToken or ngt): the requested items leave it (issue 24, point 5).
      const { viewer, ngt } = await readShopper(call.request, call.context);
      const cart = { userId: viewer?.id ?? null, ngt };
      const created = await createPurchaseRequest(call.context.db, {
        cart,
        key,
        requestEmail: body.request_email,
        message: body.message,
        contentIds: await contentIdsOfCodes(call.context.db, body.item_list),
        locale: call.language,
        origin: publicOrigin(call.request, call.context),
        ip: call.context.clientIp,
      });
      return {
        state: "SUCCESS",
        request_id: created.id,
        request_no: created.requestNo,
        status: "waiting",
        total: created.total,
        currency: created.currency,
        expires_at: created.expiresAt,
        quote_url: `${publicOrigin(call.request, call.context)}${created.quotePath}`,
        cart_count: await countCart(call.context.db, cart),
      };
    },
  }),
];
