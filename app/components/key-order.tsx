import { Form, Link, useNavigation } from "@remix-run/react";
import { useId } from "react";
import { passTitle } from "../i18n/pass-title";
import { useTranslation } from "../i18n/react";
import { formatMoney } from "../market/money";
import type { KeyOrderView } from "../utils/key-order.server";
import { CancelFieldset } from "./cancel-fieldset";
import { PopupLink } from "./popup-link";

export type KeyOrderResult = {
  ok: boolean;
  error: string | null;
  refunded: number | null;
  values: { reason: string; bank: string; account: string; holder: string };
};

/**
 * One payment of a licence key as its key-only buyer sees it (the editor's /mypage/sw/pay/{id} and the mail's
 * signed link): the detail that is the receipt, the virtual account's deadline while waiting, each item's download
 * state, where downloads happen, licence certificates, and the cancel form (a plain POST form, working without
 * scripts) for a direct purchase within the refund rules.
 */
export function KeyOrderDetail({
  order,
  result,
  formAction,
  place,
  certificateHref,
}: {
  order: KeyOrderView;
  result: KeyOrderResult | undefined;
  formAction: string;
  place: "webview" | "mail";
  certificateHref: (lineId: number) => string;
}) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const id = useId();
  const typeName = (itemType: string) => (itemType === "pass" ? t("pay.pass") : t(`item.types.${itemType}`));
  const cancellable = order.keyBuyer ? order.lines.filter((l) => l.cancellable) : [];
  const money = (n: number) => formatMoney(n, order.currency, order.locale);
  const linesTable = (
    <div className="embedded-table">
      <table className="data-table">
        <caption className="visually-hidden">{t("orders.contents")}</caption>
        <thead>
          <tr>
            {cancellable.length ? <th scope="col">{t("orders.select")}</th> : null}
            <th scope="col">{t("orders.contents")}</th>
            <th scope="col">{t("orders.total")}</th>
            <th scope="col">{t("keyOrder.downloadState")}</th>
            <th scope="col">{t("orders.usableUntil")}</th>
          </tr>
        </thead>
        <tbody>
          {order.lines.map((l) => {
            const title = l.itemType === "pass" && l.passGroup ? passTitle(t, l.passGroup, l.passCount ?? 0) : l.title;
            return (
              <tr key={l.id}>
                {cancellable.length ? (
                  <td>
                    {l.cancellable ? (
                      <input type="checkbox" name="line" value={l.id} aria-label={t("orders.selectLine", { title })} />
                    ) : null}
                  </td>
                ) : null}
                <td>
                  {title}
                  <br />
                  <small className="muted">{typeName(l.itemType)}</small>
                  {l.itemType !== "pass" && l.active ? (
                    <>
                      {" · "}
                      <PopupLink href={certificateHref(l.id)}>{t("certificate.link")}</PopupLink>
                    </>
                  ) : null}
                </td>
                <td className="nowrap">{l.total}</td>
                <td>
                  {t(l.stateKey)}
                  {order.keyBuyer && l.refusalKey ? (
                    <>
                      <br />
                      <small className="muted">{t(l.refusalKey)}</small>
                    </>
                  ) : null}
                </td>
                <td>{l.until ?? (l.validDays ? t("orders.daysFromPayment", { count: l.validDays }) : "—")}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
  return (
    <>
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
      {order.status === "waiting" ? (
        <p className="notice-box" role="status">
          {t("keyOrder.waitingNote")}
        </p>
      ) : null}
      <div role="status" aria-live="polite" className="form-result">
        {result?.ok && result.refunded !== null ? t("orders.cancelled", { amount: money(result.refunded) }) : ""}
      </div>
      {order.keyBuyer ? (
        <Form method="post" action={formAction} aria-describedby={`${id}-error`} className="key-order-form">
          {linesTable}
          {cancellable.length ? (
            <CancelFieldset id={id} method={order.method} result={result} busy={navigation.state !== "idle"} />
          ) : (
            <>
              <p id={`${id}-error`} className="field-error" role="alert">
                {result && !result.ok && result.error ? t(result.error) : ""}
              </p>
              {order.keyBuyer && order.refusalKey ? <p className="muted">{t(order.refusalKey)}</p> : null}
            </>
          )}
        </Form>
      ) : (
        <>
          {linesTable}
          {result && !result.ok && result.error ? (
            <p className="field-error" role="alert">
              {t(result.error)}
            </p>
          ) : null}
        </>
      )}
      <div className="key-order-notes">
        {order.status !== "waiting" && order.status !== "cancelled" ? (
          place === "webview" ? (
            <p>
              <span className="muted">{t("keyOrder.downloadsWebview")}</span>{" "}
              <Link to="/mypage/sw/download" className="button button-ghost">
                {t("keyOrder.openDownloads")}
              </Link>
            </p>
          ) : (
            <p className="muted">{t("keyOrder.downloadsInEditor")}</p>
          )
        ) : null}
        {order.keyBuyer ? null : order.purchaseCategory === "request" ? (
          <p className="muted">{t("keyOrder.requestOrder")}</p>
        ) : (
          <p>
            <span className="muted">{t("embedded.manageHint")}</span>{" "}
            <a href={`/mypage/pay/${order.id}`} className="button button-ghost">
              {t("embedded.manageOnWebsite")}
            </a>
          </p>
        )}
      </div>
    </>
  );
}
