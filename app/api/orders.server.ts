import { z } from "zod";
import { PAY_METHODS } from "../integrations/payments/gateway";
import { MarketError } from "../market/errors";
import { identifyLicense } from "../market/licenses.server";
import { checkoutItemSchema } from "../market/orders/checkout.server";
import { listOrders, listPasses, type OrderOwner, orderDetail } from "../market/orders/history.server";
import { resendReceipt } from "../market/orders/mails.server";
import { placeOrder } from "../market/orders/orders.server";
import { PASS_STATES } from "../market/pass-status";
import { lookupBusinessKey } from "../market/requests/lookup.server";
import { publicOrigin } from "../utils/origin.server";
import { readShopper } from "../utils/shopper.server";
import { readJson } from "./caller.server";
import { ok } from "./envelope.server";
import { keyOfCall } from "./requests.server";
import type { ApiCall, ApiRoute } from "./router.server";
import { snakeKeys } from "./snake-case";

/**
 * Whose payments a call asks about: the signed-in member's (authorizationToken), or — for the editor, which has
 * no login — the licence named by the `license_id` header and verified by its registered `hw_info`, or a business
 * key with its `license_email` (a key-only user's direct purchases).
 */
async function orderOwner(call: ApiCall): Promise<OrderOwner> {
  const { viewer } = await readShopper(call.request, call.context);
  if (viewer) return { userId: viewer.id };
  const serial = call.request.headers.get("license_id");
  const hwInfo = call.request.headers.get("hw_info");
  const licenseEmail = call.request.headers.get("license_email");
  // A key-only user who bought directly looks their orders up later by the key and its licensing e-mail.
  if (serial && licenseEmail && !hwInfo) {
    const key = await lookupBusinessKey(call.context.db, { serial, email: licenseEmail, ip: call.context.clientIp });
    return { licenseId: key.licenseId };
  }
  if (serial && hwInfo) {
    const license = await identifyLicense(call.context.db, serial, hwInfo);
    if (!license) throw new MarketError("LICENSE_NOT_FOUND", 403, "The license_id and hw_info headers do not match a registered licence");
    return { licenseId: license.id };
  }
  throw new MarketError("UNAUTHORIZED", 401, "Send the authorizationToken header, or the license_id and hw_info headers");
}

const paging = z.object({
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  from: z.string().datetime({ offset: true }).optional(),
  to: z.string().datetime({ offset: true }).optional(),
});

const paymentSchema = z.object({
  items: z.array(checkoutItemSchema).min(1).max(100).optional(),
  license_id: z.number().int().positive().optional(),
  serial: z.string().trim().min(1).max(64).optional(),
  /** A representative paying purchase requests (the licence is the requests' key). */
  request_id_list: z.array(z.number().int().positive()).min(1).max(100).optional(),
  /** A key-only direct purchase: the business key and its licensing e-mail (or the editor's licence headers). */
  license_key: z.string().trim().min(1).max(64).optional(),
  license_email: z.string().trim().email().optional(),
  method: z.enum(PAY_METHODS),
  agree_terms: z.literal(true, { errorMap: () => ({ message: "apiError.AGREE_TERMS" }) }),
  agree_paid: z.literal(true, { errorMap: () => ({ message: "apiError.AGREE_PAID" }) }),
  /** One per checkout: the same key places the same order again instead of a second one. */
  idempotency_key: z.string().min(8).max(64),
  coupon: z.string().trim().min(1).max(40).optional(),
});

const mailSend = z.object({ type: z.literal("receipt"), order_id: z.number().int().positive() });

/** Payments and passes (spec section 7: POST payment service, users/orders, users/orders/{id}, users/passes). */
export const orderRoutes: ApiRoute[] = [
  {
    method: "GET",
    path: "users/orders",
    handler: async (call) => {
      const owner = await orderOwner(call);
      const q = paging.parse(Object.fromEntries(call.query));
      const result = await listOrders(call.context.db, owner, call.language, q);
      return ok({ list: snakeKeys(result.list), total_count: result.total_count, searchable_from: result.floor });
    },
  },
  {
    method: "GET",
    path: "users/orders/:id",
    handler: async (call) => {
      const owner = await orderOwner(call);
      const id = z.coerce
        .number()
        .int()
        .positive()
        .parse(call.params.id, { path: ["id"] });
      const detail = await orderDetail(call.context.db, owner, id, call.language);
      if (!detail) throw new MarketError("ORDER_NOT_FOUND", 404, "No such payment");
      return ok(snakeKeys(detail));
    },
  },
  {
    method: "GET",
    path: "users/passes",
    handler: async (call) => {
      const owner = await orderOwner(call);
      const status = z
        .enum(PASS_STATES)
        .optional()
        .parse(call.query.get("status") ?? undefined, { path: ["status"] });
      const list = await listPasses(call.context.db, owner, { status });
      return ok({ list: snakeKeys(list), total_count: list.length });
    },
  },
  {
    method: "POST",
    path: "payments",
    handler: async (call) => {
      const input = paymentSchema.parse(await readJson(call));
      const common = {
        method: input.method,
        locale: call.language,
        origin: publicOrigin(call.request, call.context),
      };
      const { viewer } = await readShopper(call.request, call.context);
      let placed: Awaited<ReturnType<typeof placeOrder>>;
      if (!viewer) {
        // No login: a direct purchase by a business key (spec section 6), bound to the key.
        const editor = call.request.headers.get("license_id") && call.request.headers.get("hw_info");
        if (!editor && !input.license_key)
          throw new MarketError(
            "UNAUTHORIZED",
            401,
            "Sign in first (authorizationToken), or buy directly with license_key and license_email",
          );
        const key = await keyOfCall(call, { license_id: input.license_key, license_email: input.license_email });
        if (!input.items) throw new MarketError("CHECKOUT_EMPTY", 400, "Nothing to pay for");
        placed = await placeOrder(call.context.db, call.context.payments, {
          ...common,
          buyer: { id: null, userType: 2, email: key.email },
          purchase: { category: "direct", key },
          items: input.items,
          license: {},
          idempotencyKey: `key:${key.licenseId}:api:${input.idempotency_key}`,
        });
      } else {
        placed = await placeOrder(call.context.db, call.context.payments, {
          ...common,
          buyer: viewer,
          purchase: input.request_id_list ? { category: "request", requestIds: input.request_id_list } : { category: "member" },
          items: input.items ?? [],
          license: { licenseId: input.license_id, serial: input.serial },
          idempotencyKey: `${viewer.id}:api:${input.idempotency_key}`,
          coupon: input.coupon,
        });
      }
      return ok({ state: "SUCCESS", order_no: placed.orderNo, checkout: placed.checkout });
    },
  },
  {
    method: "POST",
    path: "mail/send",
    handler: async (call) => {
      // What mail/send sends (docs/decisions.md): the receipt of one of the caller's paid orders, again.
      const owner = await orderOwner(call);
      const input = mailSend.parse(await readJson(call));
      const sent = await resendReceipt(call.context.db, owner, input.order_id, call.context.clientIp);
      return ok({ state: "SUCCESS", to: sent.to });
    },
  },
];
