import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { isRouteErrorResponse, Link, useLoaderData, useRouteError } from "@remix-run/react";
import { fixedT } from "../i18n/i18n.server";
import { useTranslation } from "../i18n/react";
import { passTitle } from "../i18n/translate";
import { formatMoney } from "../market/money";
import { orderDetail } from "../market/orders/history.server";
import { seoulText } from "../utils/dates";
import { positiveId } from "../utils/input.server";
import { requireEmbeddedLicense } from "./licence.server";
import { embeddedMeta } from "./route-parts";

/**
 * /mypage/sw/pay/{id}: one payment of the licence the editor runs, read-only (cancelling stays on the
 * storefront's /mypage/pay/{id}). Another licence's payment is a 404, the same as one that does not exist.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const licence = await requireEmbeddedLicense(request, context);
  const id = positiveId.safeParse(params.id);
  const locale = context.locale;
  const order = id.success ? await orderDetail(context.db, { licenseId: licence.id }, id.data, locale) : null;
  if (!order) throw data(null, { status: 404 });
  const money = (n: number) => formatMoney(n, order.currency, locale);
  const t = fixedT(locale);
  // Times and amounts are spelled on the server only: Node's ICU and the webview's can differ (utils/dates.ts).
  return {
    order: {
      id: order.id,
      orderNo: order.orderNo,
      date: seoulText(order.paidAt ?? order.createdAt, locale),
      status: order.status,
      method: order.method,
      purchaseCategory: order.purchaseCategory,
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
        order.vbank && order.status === "waiting"
          ? { account: `${order.vbank.bank} ${order.vbank.account}`, due: seoulText(order.vbank.dueAt, locale) }
          : null,
      lines: order.lines.map((l) => ({
        id: l.id,
        itemType: l.itemType,
        title: l.title,
        passGroup: l.passGroup,
        passCount: l.passCount,
        total: money(l.total),
        stateKey:
          order.status === "waiting"
            ? "orders.state.waiting"
            : l.status === "cancelled"
              ? "orders.lineCancelled"
              : l.used
                ? "orders.lineUsed"
                : "orders.lineActive",
        until: l.expiresAt ? seoulText(l.expiresAt, locale) : null,
      })),
    },
    title: `${t("orders.detailTitle")} | ${t("embedded.title")}`,
  };
}

export const meta = embeddedMeta;

export default function EmbeddedPaymentDetail() {
  const { order } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const typeName = (itemType: string) => (itemType === "pass" ? t("pay.pass") : t(`item.types.${itemType}`));
  return (
    <section className="embedded-pay" aria-labelledby="sw-pay-detail-title">
      <p className="breadcrumb">
        <Link to="/mypage/sw/pay">{t("embedded.backToPay")}</Link>
      </p>
      <h1 id="sw-pay-detail-title">{t("orders.detailTitle")}</h1>
      <dl className="price-box detail-grid">
        <dt>{t("orders.number")}</dt>
        <dd>{order.orderNo}</dd>
        <dt>{t("orders.date")}</dt>
        <dd>{order.date}</dd>
        <dt>{t("embedded.payCategory")}</dt>
        <dd>{order.itemTypes.map(typeName).join(", ") || "—"}</dd>
        <dt>{t("orders.status")}</dt>
        <dd>{t(`orders.state.${order.status}`)}</dd>
        <dt>{t("orders.method")}</dt>
        <dd>{order.method ? t(`pay.method.${order.method}`) : "—"}</dd>
        <dt>{t("orders.license")}</dt>
        <dd>{order.licence ?? "—"}</dd>
        <dt>{t("orders.category")}</dt>
        <dd>{t(`orders.purchase.${order.purchaseCategory}`)}</dd>
        <dt>{t("orders.quantity")}</dt>
        <dd>{order.quantity}</dd>
        <dt>{t("cart.amount")}</dt>
        <dd>{order.amount}</dd>
        <dt>{t("cart.vat")}</dt>
        <dd>{order.vat}</dd>
        <dt>{t("cart.total")}</dt>
        <dd className="price-total">{order.total}</dd>
        <dt>{t("orders.cancelledQuantity")}</dt>
        <dd>{order.cancelQuantity}</dd>
        <dt>{t("orders.cancelledAmount")}</dt>
        <dd>{order.cancelAmount}</dd>
        {order.refundDeduction ? (
          <>
            <dt>{t("orders.deduction")}</dt>
            <dd>{order.refundDeduction}</dd>
          </>
        ) : null}
        {order.vbank ? (
          <>
            <dt>{t("pay.vbankAccount")}</dt>
            <dd>{order.vbank.account}</dd>
            <dt>{t("pay.vbankDue")}</dt>
            <dd>{order.vbank.due}</dd>
          </>
        ) : null}
        <dt>{t("orders.message")}</dt>
        <dd>{order.message || "—"}</dd>
      </dl>
      <div className="embedded-table">
        <table className="data-table">
          <caption className="visually-hidden">{t("orders.contents")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("orders.contents")}</th>
              <th scope="col">{t("orders.total")}</th>
              <th scope="col">{t("orders.status")}</th>
              <th scope="col">{t("orders.usableUntil")}</th>
            </tr>
          </thead>
          <tbody>
            {order.lines.map((l) => (
              <tr key={l.id}>
                <td>
                  {l.itemType === "pass" && l.passGroup ? passTitle(t, l.passGroup, l.passCount ?? 0) : l.title}
                  <br />
                  <small className="muted">{typeName(l.itemType)}</small>
                </td>
                <td className="nowrap">{l.total}</td>
                <td>{t(l.stateKey)}</td>
                <td>{l.until ?? "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="embedded-manage">
        <span className="muted">{t("embedded.manageHint")}</span>{" "}
        <a href={`/mypage/pay/${order.id}`} className="button button-ghost">
          {t("embedded.manageOnWebsite")}
        </a>
      </p>
    </section>
  );
}

/**
 * Inside the layout: a payment that is not this licence's is "not found" (never its data); without a licence
 * the layout already says why (401/403); anything else is a service error.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  if (status === 401 || status === 403) return null;
  return (
    <section className="message-page">
      <h1>{status === 404 ? t("notFound.title") : t("errorService.title")}</h1>
      <p role="alert">{status === 404 ? t("notFound.message") : t("errorService.message")}</p>
      <p>
        <Link to="/mypage/sw/pay">{t("embedded.backToPay")}</Link>
      </p>
    </section>
  );
}
