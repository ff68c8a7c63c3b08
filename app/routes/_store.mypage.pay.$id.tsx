import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useId } from "react";
import { CancelFieldset } from "../components/cancel-fieldset";
import { PopupLink } from "../components/popup-link";
import { passTitle } from "../i18n/pass-title";
import { useTranslation } from "../i18n/react";
import { MarketError } from "../market/errors";
import { formatMoney } from "../market/money";
import { cancelOrder } from "../market/orders/cancel.server";
import { orderDetail } from "../market/orders/history.server";
import { requireViewer } from "../utils/auth.server";
import { seoulText } from "../utils/dates";
import { cancelOrderSchema, positiveId } from "../utils/input.server";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["cart", "certificate", "item", "licenses", "orders", "passes", "pay", "price", "purchase", "request"] };

/** /mypage/pay/{id}: one payment in full, and cancelling it or some of its items. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const id = positiveId.safeParse(params.id);
  const order = id.success ? await orderDetail(context.db, { userId: viewer.id }, id.data, context.locale) : null;
  if (!order) throw data(null, { status: 404 });
  // Times are spelled on the server only (see utils/dates.ts).
  const isos = [order.paidAt ?? order.createdAt, order.vbank?.dueAt, ...order.lines.map((l) => l.expiresAt)];
  const dates = Object.fromEntries(isos.flatMap((iso) => (iso ? [[iso, seoulText(iso, context.locale)]] : [])));
  return { order, dates, locale: context.locale, seo: await pageSeo(request, context, { titleKey: "orders.detailTitle" }) };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export async function action({ request, params, context }: ActionFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const id = positiveId.safeParse(params.id);
  if (!id.success) throw data(null, { status: 404 });
  const form = await request.formData();
  const values = {
    reason: String(form.get("reason") ?? ""),
    bank: String(form.get("bank") ?? ""),
    account: String(form.get("account") ?? ""),
    holder: String(form.get("holder") ?? ""),
  };
  const parsed = cancelOrderSchema.safeParse({ ...values, line: form.getAll("line") });
  if (!parsed.success)
    return data({ ok: false as const, error: parsed.error.issues[0]?.message ?? "orders.reasonRequired", values }, { status: 400 });
  const v = parsed.data;
  try {
    const result = await cancelOrder(context.db, context.payments, {
      userId: viewer.id,
      orderId: id.data,
      lineIds: v.line,
      reason: v.reason,
      refundAccount: v.bank && v.account && v.holder ? { bank: v.bank, number: v.account, holderName: v.holder } : undefined,
      locale: context.locale,
    });
    return data({ ok: true as const, refunded: result.refunded, deduction: result.deduction, error: null, values });
  } catch (error) {
    if (error instanceof MarketError)
      return data({ ok: false as const, error: `orders.refusal.${error.code}`, values }, { status: error.status });
    throw error;
  }
}

export default function PaymentDetail() {
  const { order, locale, dates } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation();
  const id = useId();
  const money = (n: number) => formatMoney(n, order.currency, locale);
  const date = (iso: string) => dates[iso] ?? "";
  const cancellableLines = order.lines.filter((l) => l.cancellable);
  return (
    <section className="account-page wide">
      <p className="breadcrumb">
        <Link to="/mypage/pay">{t("orders.title")}</Link>
      </p>
      <h1>{t("orders.detailTitle")}</h1>
      <dl className="price-box detail-grid">
        <dt>{t("orders.number")}</dt>
        <dd>{order.orderNo}</dd>
        <dt>{t("orders.date")}</dt>
        <dd>{date(order.paidAt ?? order.createdAt)}</dd>
        <dt>{t("orders.status")}</dt>
        <dd>{t(`orders.state.${order.status}`)}</dd>
        <dt>{t("orders.method")}</dt>
        <dd>{order.method ? t(`pay.method.${order.method}`) : ""}</dd>
        <dt>{t("orders.category")}</dt>
        <dd>{t(`orders.purchase.${order.purchaseCategory}`)}</dd>
        <dt>{t("orders.license")}</dt>
        <dd>{order.license ? `${order.license.alias ? `${order.license.alias} · ` : ""}${order.license.serial}` : "—"}</dd>
        <dt>{t("orders.quantity")}</dt>
        <dd>{order.quantity}</dd>
        <dt>{t("cart.amount")}</dt>
        <dd>{money(order.amount - order.discount)}</dd>
        <dt>{t("cart.vat")}</dt>
        <dd>{money(order.vat)}</dd>
        <dt>{t("cart.total")}</dt>
        <dd className="price-total">{money(order.total)}</dd>
        {order.cancelQuantity ? (
          <>
            <dt>{t("orders.cancelledQuantity")}</dt>
            <dd>{order.cancelQuantity}</dd>
            <dt>{t("orders.cancelledAmount")}</dt>
            <dd>{money(order.cancelAmount)}</dd>
            {order.refundDeduction ? (
              <>
                <dt>{t("orders.deduction")}</dt>
                <dd>{money(order.refundDeduction)}</dd>
              </>
            ) : null}
          </>
        ) : null}
        {order.vbank && order.status === "waiting" ? (
          <>
            <dt>{t("pay.vbankAccount")}</dt>
            <dd>
              {order.vbank.bank} {order.vbank.account}
            </dd>
            <dt>{t("pay.vbankDue")}</dt>
            <dd>{order.vbank.dueAt ? date(order.vbank.dueAt) : ""}</dd>
          </>
        ) : null}
        {order.message ? (
          <>
            <dt>{t("orders.message")}</dt>
            <dd>{order.message}</dd>
          </>
        ) : null}
      </dl>
      <div role="status" aria-live="polite" className="form-result">
        {result?.ok ? t("orders.cancelled", { amount: money(result.refunded) }) : ""}
      </div>
      <Form method="post" aria-describedby={`${id}-error`}>
        <table className="data-table stack-table">
          <caption className="visually-hidden">{t("orders.contents")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("orders.select")}</th>
              <th scope="col">{t("orders.contents")}</th>
              <th scope="col">{t("orders.total")}</th>
              <th scope="col">{t("orders.status")}</th>
              <th scope="col">{t("orders.usableUntil")}</th>
            </tr>
          </thead>
          <tbody>
            {order.lines.map((l) => {
              const title = l.itemType === "pass" && l.passGroup ? passTitle(t, l.passGroup, l.passCount ?? 0) : l.title;
              return (
                <tr key={l.id}>
                  <td data-label={t("orders.select")}>
                    {l.cancellable ? (
                      <input type="checkbox" name="line" value={l.id} aria-label={t("orders.selectLine", { title })} />
                    ) : null}
                  </td>
                  <td data-label={t("orders.contents")}>
                    {title}
                    <br />
                    <small className="muted">{l.itemType === "pass" ? t("pay.pass") : t(`item.types.${l.itemType}`)}</small>
                    {l.itemType !== "pass" && l.status === "active" && order.status !== "waiting" ? (
                      <>
                        {" · "}
                        <PopupLink href={`/mypage/certificate/${l.id}`}>{t("certificate.link")}</PopupLink>
                      </>
                    ) : null}
                  </td>
                  <td data-label={t("orders.total")}>{money(l.total)}</td>
                  <td data-label={t("orders.status")}>
                    {order.status === "waiting"
                      ? t("orders.state.waiting")
                      : l.status === "cancelled"
                        ? t("orders.lineCancelled")
                        : l.used
                          ? t("orders.lineUsed")
                          : t("orders.lineActive")}
                    {l.refusal && l.status === "active" && order.status !== "waiting" ? (
                      <>
                        <br />
                        <small className="muted">{t(`orders.refusal.REFUND_${l.refusal.toUpperCase()}`)}</small>
                      </>
                    ) : null}
                  </td>
                  <td data-label={t("orders.usableUntil")}>
                    {l.expiresAt
                      ? date(l.expiresAt)
                      : l.status !== "cancelled" && order.status === "waiting"
                        ? t("orders.daysFromPayment", { count: l.validDays })
                        : "—"}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {cancellableLines.length ? (
          <CancelFieldset id={id} method={order.method} result={result} busy={navigation.state !== "idle"} />
        ) : order.refusal && order.status !== "cancelled" && order.status !== "waiting" ? (
          <p className="muted">{t(`orders.refusal.REFUND_${order.refusal.toUpperCase()}`)}</p>
        ) : null}
      </Form>
    </section>
  );
}
