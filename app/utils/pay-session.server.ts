import { randomBytes } from "node:crypto";
import { type AppLoadContext, createCookieSessionStorage, redirect, type Session } from "@remix-run/node";
import { z } from "zod";
import { type CheckoutItem, checkoutItemSchema } from "../market/orders/checkout.server";
import { sessionSecret } from "./cookies.server";

/**
 * The order in progress lives in the session (spec section 3: session keys orderItems and payData), here a
 * signed HttpOnly cookie: the items chosen, then the licence, and a nonce that makes the checkout's placing
 * idempotent. Payment pages without it answer 'This page's session has expired' and go home.
 */
const payDataSchema = z.object({
  nonce: z.string(),
  /** member: a member buying; pay_requests: a representative paying purchase requests; direct: a business key
   * buying without a login; request: a business key's user asking the representative to pay (no payment). */
  flow: z.enum(["member", "pay_requests", "direct", "request"]).default("member"),
  /** The purchase requests being paid (flow pay_requests). */
  requestIds: z.array(z.number().int().positive()).max(100).optional(),
  /** Items the representative dropped from paying the requests: the key already holds them (issue 24, point 3). */
  excluded: z.array(z.number().int().positive()).max(100).optional(),
  /** The business key found by the lookup (flows direct and, on the request form, request). */
  keyLicenseId: z.number().int().positive().optional(),
  licenseId: z.number().int().positive().optional(),
  serial: z.string().optional(),
  orderNo: z.string().optional(),
  coupon: z.string().optional(),
  /** The purchase request written in flow request, for /requestComp. */
  requestId: z.number().int().positive().optional(),
  quotePath: z.string().optional(),
  /** How many lines of the cart the request took out (issue 24, point 5), for /requestComp to say. */
  leftCart: z.number().int().min(0).max(100).optional(),
});
export type PayData = z.infer<typeof payDataSchema>;

type PayFlash = { orderItems: CheckoutItem[]; payData: PayData };

let cached: { key: string; storage: ReturnType<typeof createCookieSessionStorage<PayFlash>> } | undefined;
function storage(context: AppLoadContext) {
  const secret = sessionSecret(context.env);
  const secure = Boolean(context.env.PUBLIC_URL?.startsWith("https://"));
  const key = `${secret}:${secure}`;
  if (cached?.key !== key) {
    cached = {
      key,
      storage: createCookieSessionStorage<PayFlash>({
        cookie: { name: "pay", httpOnly: true, sameSite: "lax", path: "/", secure, secrets: [secret], maxAge: 60 * 60 },
      }),
    };
  }
  return cached.storage;
}

export interface PayState {
  session: Session<PayFlash>;
  items: CheckoutItem[];
  data: PayData;
}

export async function readPay(request: Request, context: AppLoadContext): Promise<PayState | null> {
  const session = await storage(context).getSession(request.headers.get("cookie"));
  const items = z.array(checkoutItemSchema).safeParse(session.get("orderItems"));
  const data = payDataSchema.safeParse(session.get("payData"));
  if (!items.success || !data.success) return null;
  // Paying requests carries the requests, not items; every other checkout carries items.
  if (data.data.flow === "pay_requests" ? !data.data.requestIds?.length && !items.data.length : items.data.length === 0) return null;
  return { session, items: items.data, data: data.data };
}

/** The order in the session, or the expired-session answer: home with the spec's message. */
export async function requirePay(request: Request, context: AppLoadContext): Promise<PayState> {
  const pay = await readPay(request, context);
  if (!pay) throw redirect("/?notice=session-expired");
  return pay;
}

export type PayFlow = PayData["flow"];

/**
 * Starts a checkout of these items (or, for a representative, of these purchase requests; for a key-only user, a
 * purchase request or a direct purchase): a new nonce, so it places a new order.
 */
export async function startPay(
  context: AppLoadContext,
  items: CheckoutItem[],
  start: { flow?: PayFlow; requestIds?: number[] } = {},
): Promise<string> {
  const session = await storage(context).getSession();
  session.set("orderItems", items);
  session.set("payData", {
    nonce: randomBytes(12).toString("base64url"),
    flow: start.flow ?? "member",
    requestIds: start.requestIds,
  });
  return storage(context).commitSession(session);
}

export async function savePay(context: AppLoadContext, pay: PayState, data: Partial<PayData>): Promise<string> {
  pay.session.set("payData", { ...pay.data, ...data });
  return storage(context).commitSession(pay.session);
}

/** Clears the order from the session (after sign-in, sign-out, or a finished payment). */
export async function clearPay(context: AppLoadContext): Promise<string> {
  return storage(context).destroySession(await storage(context).getSession());
}

/** Replaces the checkout's items (the buyer dropped some they already hold; issue 24, point 3); the nonce stays. */
export async function savePayItems(context: AppLoadContext, pay: PayState, items: CheckoutItem[]): Promise<string> {
  pay.session.set("orderItems", items);
  return storage(context).commitSession(pay.session);
}
