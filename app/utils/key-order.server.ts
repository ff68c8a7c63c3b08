/**
 * A key-only buyer's order on a page (issue 24): the editor's /mypage/sw/pay/{id} and the mail's signed link
 * /mypage/order/{id}?access=... show the same detail and cancel through the same domain door (cancelOrder with
 * `keyLicenseId`, the member's refund rules). Here: reading the signed link, the order spelled for the page, and
 * the cancel form's action.
 */
import { type AppLoadContext, data } from "@remix-run/node";
import type { Locale } from "../i18n/config";
import { MarketError } from "../market/errors";
import { formatMoney } from "../market/money";
import { cancelOrder } from "../market/orders/cancel.server";
import type { OrderDetail } from "../market/orders/history.server";
import { type OrderAccess, orderLinkExpiry, signOrderAccess, verifyOrderAccess } from "../market/orders/order-access.server";
import { sessionSecret } from "./cookies.server";
import { seoulText } from "./dates";
import { cancelOrderSchema } from "./input.server";

/** A signed link's token for a direct purchase (the /payComp of a key-only buyer), valid as long as a mail's. */
export function orderAccessToken(
  context: AppLoadContext,
  order: { id: number; license_id: number | null; ptime: string | null },
  now = new Date(),
): string | null {
  if (order.license_id === null) return null;
  return signOrderAccess(
    { orderId: order.id, licenseId: order.license_id, expires: orderLinkExpiry(order.ptime, now) },
    sessionSecret(context.env),
  );
}

/**
 * The grant of the `access` token for the order in the address, or the thrown refusal: 403 for a token that is not
 * ours or names another order, 410 for an expired one (nothing of the order is read either way).
 */
export function requireOrderAccess(context: AppLoadContext, token: string | null, orderId: number): OrderAccess {
  const access = token ? verifyOrderAccess(token, sessionSecret(context.env)) : null;
  if (access === "expired") throw data({ reason: "expired" as const }, { status: 410 });
  if (!access || access.orderId !== orderId) throw data({ reason: "invalid" as const }, { status: 403 });
  return access;
}

export type KeyOrderView = ReturnType<typeof keyOrderView>;

/** The order as the key-only buyer's page shows it: times and amounts spelled on the server (utils/dates.ts). */
export function keyOrderView(order: OrderDetail, locale: Locale) {
  const money = (n: number) => formatMoney(n, order.currency, locale);
  const waiting = order.status === "waiting";
  return {
    id: order.id,
    orderNo: order.orderNo,
    currency: order.currency,
    locale,
    date: seoulText(order.paidAt ?? order.createdAt, locale),
    status: order.status,
    method: order.method,
    purchaseCategory: order.purchaseCategory,
    /** Only a key-only buyer's own purchase is cancelled by the key (a member's or a request's by their accounts). */
    keyBuyer: order.purchaseCategory === "direct",
    itemTypes: [...new Set(order.lines.map((l) => l.itemType))],
    quantity: order.quantity,
    amount: money(order.amount - order.discount),
    vat: money(order.vat),
    total: money(order.total),
    cancelQuantity: order.cancelQuantity,
    cancelAmount: money(order.cancelAmount),
    refundDeduction: order.refundDeduction ? money(order.refundDeduction) : null,
    message: order.message,
    licence: order.license ? `${order.license.alias ? `${order.license.alias} · ` : ""}${order.license.serial}` : null,
    vbank:
      order.vbank && waiting
        ? {
            account: `${order.vbank.bank} ${order.vbank.account}${order.vbank.holder ? ` (${order.vbank.holder})` : ""}`,
            due: seoulText(order.vbank.dueAt, locale, "long"),
          }
        : null,
    refusalKey: order.refusal && !waiting && order.status !== "cancelled" ? `orders.refusal.REFUND_${order.refusal.toUpperCase()}` : null,
    lines: order.lines.map((l) => ({
      id: l.id,
      itemType: l.itemType,
      title: l.title,
      passGroup: l.passGroup,
      passCount: l.passCount,
      total: money(l.total),
      active: l.status === "active" && !waiting,
      cancellable: l.cancellable && !waiting,
      stateKey: waiting
        ? "orders.state.waiting"
        : l.status === "cancelled"
          ? "orders.lineCancelled"
          : l.used
            ? "orders.lineUsed"
            : "orders.lineActive",
      refusalKey: l.refusal && l.status === "active" && !waiting ? `orders.refusal.REFUND_${l.refusal.toUpperCase()}` : null,
      until: l.expiresAt ? seoulText(l.expiresAt, locale) : null,
      /** Before payment: the period it will have, in days from payment (none for a cancelled line). */
      validDays: waiting && l.status !== "cancelled" ? l.validDays : null,
    })),
  };
}

/**
 * The cancel form's action for a key-only buyer's order: parsed like the member's (/mypage/pay/{id}), cancelled by
 * the one domain door; refusals come back as translation keys with the typed values (the page keeps working).
 */
export async function cancelKeyOrder(request: Request, context: AppLoadContext, keyLicenseId: number, orderId: number) {
  const form = await request.formData();
  const values = {
    reason: String(form.get("reason") ?? ""),
    bank: String(form.get("bank") ?? ""),
    account: String(form.get("account") ?? ""),
    holder: String(form.get("holder") ?? ""),
  };
  const parsed = cancelOrderSchema.safeParse({ ...values, line: form.getAll("line") });
  if (!parsed.success)
    return data(
      { ok: false as const, error: parsed.error.issues[0]?.message ?? "orders.reasonRequired", refunded: null, values },
      { status: 400 },
    );
  const v = parsed.data;
  try {
    const result = await cancelOrder(context.db, context.payments, {
      keyLicenseId,
      orderId,
      lineIds: v.line,
      reason: v.reason,
      refundAccount: v.bank && v.account && v.holder ? { bank: v.bank, number: v.account, holderName: v.holder } : undefined,
      locale: context.locale,
    });
    return data({ ok: true as const, error: null, refunded: result.refunded, values });
  } catch (error) {
    if (error instanceof MarketError)
      return data({ ok: false as const, error: `orders.refusal.${error.code}`, refunded: null, values }, { status: error.status });
    throw error;
  }
}
