/**
 * The checkout pages' flows (spec section 3, purchase category), so every payment page asks one function what is
 * bought, by whom, in which currencies, and places the order the same way:
 * - member: a signed-in member buys cart items or a pass for one of their licences (coupon allowed);
 * - pay_requests: a business representative pays purchase requests (the licence is the requests' key);
 * - direct: a key-only user buys cart items with a business key found by its licensing e-mail (no login).
 */
import type { DB } from "../../db/db.server";
import type { Locale } from "../../i18n/config";
import type { PayCurrency, PayMethod } from "../../integrations/payments/gateway";
import type { Gateways } from "../../integrations/payments/index.server";
import { MarketError } from "../errors";
import { type BusinessKey, businessKeyById } from "../requests/lookup.server";
import { quoteRequests } from "../requests/payment.server";
import { type CheckoutItem, type CheckoutQuote, quoteCheckout } from "./checkout.server";
import { type Coupon, usableCoupon } from "./coupons.server";
import { placeOrder } from "./orders.server";

export type CheckoutFlow = "member" | "pay_requests" | "direct";

export interface FlowState {
  flow: CheckoutFlow;
  items: CheckoutItem[];
  requestIds?: number[];
  /** Items left out of paying the requests (the key holds them already). */
  excluded?: number[];
  keyLicenseId?: number;
  licenseId?: number;
  /** A licence entered by key at /pay02 (the key, not the id, admits a licence that is not the member's). */
  serial?: string;
  coupon?: string;
  nonce: string;
}

export interface FlowPayer {
  id: number;
  userType: number;
  email: string;
}

/** The flow's refusal when its payer is missing: a member for member and pay_requests, a found key for direct. */
function need<T>(value: T | null | undefined, code: string): T {
  if (value === null || value === undefined) throw new MarketError(code, code === "UNAUTHORIZED" ? 401 : 400, code);
  return value;
}

/** The business key a direct purchase goes to, checked again (it may have been released since the lookup). */
export async function flowKey(db: DB, state: FlowState): Promise<BusinessKey | null> {
  return state.flow === "direct" && state.keyLicenseId ? businessKeyById(db, state.keyLicenseId) : null;
}

/** The currencies a flow can be paid in: a request is paid in the currency it was quoted in. */
export async function flowCurrencies(db: DB, state: FlowState, payer: FlowPayer | null): Promise<PayCurrency[] | null> {
  if (state.flow !== "pay_requests") return null;
  const owner = need(payer, "UNAUTHORIZED");
  const rows = await db
    .selectFrom("purchase_requests")
    .select("currency")
    .distinct()
    .where("owner_user_id", "=", owner.id)
    .where("id", "in", state.requestIds?.length ? state.requestIds : [0])
    .execute();
  return rows.map((r) => r.currency as PayCurrency);
}

/** What the checkout buys and costs in a currency, with the coupon that applies (member flow only). */
export async function flowQuote(
  db: DB,
  state: FlowState,
  payer: FlowPayer | null,
  currency: PayCurrency,
  locale: Locale,
): Promise<{ quote: CheckoutQuote; coupon: Coupon | null }> {
  // A direct purchase is priced before its key is looked up (step 1); placing it needs the key.
  if (state.flow === "direct") return { quote: await quoteCheckout(db, { userType: 2 }, state.items, currency, locale), coupon: null };
  const member = need(payer, "UNAUTHORIZED");
  if (state.flow === "pay_requests")
    return { quote: await quoteRequests(db, member.id, state.requestIds ?? [], currency, locale, undefined, state.excluded), coupon: null };
  // A coupon applied earlier that no longer holds (the promotion ended, used elsewhere) simply drops off.
  const coupon = state.coupon ? await usableCoupon(db, member.id, state.coupon).catch(() => null) : null;
  return { quote: await quoteCheckout(db, member, state.items, currency, locale, coupon?.percent ?? 0), coupon };
}

/** Places the flow's order (idempotent per checkout nonce) and answers where the payer goes. */
export async function placeFlowOrder(
  db: DB,
  gateways: Gateways,
  state: FlowState,
  payer: FlowPayer | null,
  input: { method: PayMethod; locale: Locale; origin: string; returnOrigin?: string },
) {
  if (state.flow === "direct") {
    const key = need(await flowKey(db, state), "LICENSE_REQUIRED");
    return placeOrder(db, gateways, {
      ...input,
      buyer: { id: null, userType: 2, email: key.email },
      purchase: { category: "direct", key },
      items: state.items,
      license: {},
      idempotencyKey: `key:${key.licenseId}:${state.nonce}`,
    });
  }
  const member = need(payer, "UNAUTHORIZED");
  return placeOrder(db, gateways, {
    ...input,
    buyer: member,
    purchase:
      state.flow === "pay_requests"
        ? { category: "request", requestIds: state.requestIds ?? [], exclude: state.excluded }
        : { category: "member" },
    items: state.items,
    license: { licenseId: state.licenseId, serial: state.serial },
    idempotencyKey: `${member.id}:${state.nonce}`,
    coupon: state.flow === "member" ? state.coupon : undefined,
  });
}

/** The order a checkout placed, for its payer: the member's own, or for a direct purchase the key's. */
export async function flowOrder(db: DB, orderNo: string, state: FlowState, payer: FlowPayer | null) {
  let q = db
    .selectFrom("orders")
    .select([
      "id",
      "license_id",
      "order_no",
      "status",
      "total",
      "currency",
      "method",
      "order_name",
      "vbank_bank",
      "vbank_account",
      "vbank_holder",
      "vbank_due_at",
      "pending_reason",
      "ptime",
      "purchase_category",
    ])
    .where("order_no", "=", orderNo);
  if (state.flow === "direct") q = q.where("user_id", "is", null).where("license_id", "=", state.keyLicenseId ?? 0);
  else if (payer) q = q.where("user_id", "=", payer.id);
  else return undefined;
  return q.executeTakeFirst();
}

/**
 * Where a paid order's "Download now" leads its member: the downloads of the licence it was bought for when the
 * licence is the member's; when the member typed a non-member key, linking that key first (the key's downloads
 * are the editor's, or the member's once linked), with the key filled in.
 */
export async function downloadTarget(
  db: DB,
  order: { license_id: number | null },
  payerId: number,
): Promise<{ kind: "downloads"; path: string } | { kind: "link"; path: string }> {
  const licence = order.license_id
    ? await db.selectFrom("licenses").select(["id", "serial", "user_id"]).where("id", "=", order.license_id).executeTakeFirst()
    : undefined;
  if (!licence || licence.user_id === payerId) return { kind: "downloads", path: `/mypage/download?license=${licence?.id ?? ""}` };
  return { kind: "link", path: `/mypage/licenses?link=${encodeURIComponent(licence.serial)}#link-licence` };
}
