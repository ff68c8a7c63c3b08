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
import { type ApiCall, route } from "./define";
import { keyOfCall } from "./requests.server";
import { verbatim } from "./snake-case";
import { orderDetail as orderDetailSchema, orderRow, passRow, success } from "./wire";
import { z } from "./zod";

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

const productKey = z.string().trim().min(1).max(64);
const paymentSchema = z.object({
  items: z.array(checkoutItemSchema).min(1).max(100).optional(),
  license_id: productKey
    .openapi({
      description:
        "The product key: the licence a member's purchase goes on, or the business key of a key-only direct purchase (with license_email). A number is the old internal licence id, accepted for one release.",
    })
    .or(z.number().int().positive().openapi({ deprecated: true }))
    .optional(),
  /** Old names of the product key, accepted for one release (docs/decisions.md, 2026-11-28). */
  license_key: productKey.optional().openapi({ deprecated: true, description: "Old name of license_id (a key-only purchase)." }),
  serial: productKey.optional().openapi({ deprecated: true, description: "Old name of license_id (a member's purchase)." }),
  /** A representative paying purchase requests (the licence is the requests' key). */
  request_id_list: z.array(z.number().int().positive()).min(1).max(100).optional(),
  license_email: z.string().trim().email().optional().openapi({ description: "The business key's licensing e-mail." }),
  method: z.enum(PAY_METHODS),
  agree_terms: z.literal(true, { errorMap: () => ({ message: "apiError.AGREE_TERMS" }) }),
  agree_paid: z.literal(true, { errorMap: () => ({ message: "apiError.AGREE_PAID" }) }),
  /** One per checkout: the same key places the same order again instead of a second one. */
  idempotency_key: z.string().min(8).max(64),
  coupon: z.string().trim().min(1).max(40).optional(),
});

const mailSend = z.object({ type: z.literal("receipt"), order_id: z.number().int().positive() });
const tag = "Payments";
const payer = ["authorizationToken", "license_id", "hw_info", "license_email"] as const;

/** Payments and passes (spec section 7: POST payment service, users/orders, users/orders/{id}, users/passes). */
export const orderRoutes = [
  route({
    method: "GET",
    path: "users/orders",
    tag,
    summary: "Payments of the member, or of the licence (license_id with hw_info, or with license_email)",
    headers: [...payer],
    query: paging,
    answer: z.object({ list: z.array(orderRow), total_count: z.number().int(), searchable_from: z.string() }),
    handler: async (call, input) => {
      const owner = await orderOwner(call);
      const result = await listOrders(call.context.db, owner, call.language, input.query());
      return { list: result.list, total_count: result.total_count, searchable_from: result.floor };
    },
  }),
  route({
    method: "GET",
    path: "users/orders/:id",
    tag,
    summary: "One payment with its lines",
    headers: [...payer],
    answer: orderDetailSchema,
    handler: async (call) => {
      const owner = await orderOwner(call);
      const id = z.coerce
        .number()
        .int()
        .positive()
        .parse(call.params.id, { path: ["id"] });
      const detail = await orderDetail(call.context.db, owner, id, call.language);
      if (!detail) throw new MarketError("ORDER_NOT_FOUND", 404, "No such payment");
      return detail;
    },
  }),
  route({
    method: "GET",
    path: "users/passes",
    tag,
    summary: "Passes of the member or the licence",
    headers: [...payer],
    query: z.object({ status: z.enum(PASS_STATES).optional() }),
    answer: z.object({ list: z.array(passRow), total_count: z.number().int() }),
    handler: async (call, input) => {
      const owner = await orderOwner(call);
      const list = await listPasses(call.context.db, owner, { status: input.query().status });
      return { list, total_count: list.length };
    },
  }),
  route({
    method: "POST",
    path: "payments",
    tag,
    summary: "Places an order and begins its payment (a member, a representative paying requests, or a business key)",
    headers: ["authorizationToken", "license_id", "hw_info"],
    body: paymentSchema,
    answer: z.object({
      state: success,
      order_no: z.string(),
      checkout: z.object({
        kind: z.enum(["redirect", "browser-sdk"]),
        gateway_payment_id: z.string(),
        url: z.string().optional().openapi({ description: "Where to send the payer (kind redirect)." }),
        sdk: z
          .record(z.unknown())
          .optional()
          .openapi({ description: "The gateway's browser-SDK parameters, in its own names (kind browser-sdk)." }),
      }),
    }),
    handler: async (call, input) => {
      const body = await input.body();
      // The product key under its spec name, or its old names (one release); a number is the old internal id.
      const key = typeof body.license_id === "string" ? body.license_id : (body.license_key ?? body.serial);
      const internalId = typeof body.license_id === "number" ? body.license_id : undefined;
      const common = {
        method: body.method,
        locale: call.language,
        origin: publicOrigin(call.request, call.context),
      };
      const { viewer } = await readShopper(call.request, call.context);
      let placed: Awaited<ReturnType<typeof placeOrder>>;
      if (!viewer) {
        // No login: a direct purchase by a business key (spec section 6), bound to the key.
        const editor = call.request.headers.get("license_id") && call.request.headers.get("hw_info");
        // Without the editor's headers a key is only the caller's with its licensing e-mail.
        if (!editor && !(key && body.license_email))
          throw new MarketError(
            "UNAUTHORIZED",
            401,
            "Sign in first (authorizationToken), or buy directly with license_id and license_email",
          );
        const business = await keyOfCall(call, { license_id: key, license_email: body.license_email });
        if (!body.items) throw new MarketError("CHECKOUT_EMPTY", 400, "Nothing to pay for");
        placed = await placeOrder(call.context.db, call.context.payments, {
          ...common,
          buyer: { id: null, userType: 2, email: business.email },
          purchase: { category: "direct", key: business },
          items: body.items,
          license: {},
          idempotencyKey: `key:${business.licenseId}:api:${body.idempotency_key}`,
        });
      } else {
        placed = await placeOrder(call.context.db, call.context.payments, {
          ...common,
          buyer: viewer,
          purchase: body.request_id_list ? { category: "request", requestIds: body.request_id_list } : { category: "member" },
          items: body.items ?? [],
          license: { licenseId: internalId, serial: key },
          idempotencyKey: `${viewer.id}:api:${body.idempotency_key}`,
          coupon: body.coupon,
        });
      }
      const { checkout } = placed;
      return {
        state: "SUCCESS",
        orderNo: placed.orderNo,
        checkout: checkout.kind === "browser-sdk" ? { ...checkout, sdk: verbatim(checkout.sdk) } : checkout,
      };
    },
  }),
  route({
    method: "POST",
    path: "mail/send",
    tag,
    summary: "Sends the receipt of one of the caller's paid orders again",
    headers: [...payer],
    body: mailSend,
    answer: z.object({ state: success, to: z.string() }),
    handler: async (call, input) => {
      // What mail/send sends (docs/decisions.md): the receipt of one of the caller's paid orders, again.
      const owner = await orderOwner(call);
      const body = await input.body();
      const sent = await resendReceipt(call.context.db, owner, body.order_id, call.context.clientIp);
      return { state: "SUCCESS", to: sent.to };
    },
  }),
];
