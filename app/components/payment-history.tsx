import { Form, Link } from "@remix-run/react";
import { useTranslation } from "../i18n/react";
import type { PaymentHistoryPage } from "../market/orders/history.server";
import { Pagination } from "./pagination";

/**
 * Payment history: the date filter (a GET form, works without scripts), the 3-year note, the rows (each linking to
 * its detail) and page links. The storefront and the editor's webview show the same history.
 */
export function PaymentHistory({ history, detailHref }: { history: PaymentHistoryPage; detailHref: (id: number) => string }) {
  const { t } = useTranslation();
  const { rows, totalCount, page, pages, from, to, floorDay, clipped } = history;
  const pageHref = (n: number) => `?${new URLSearchParams({ ...(from ? { from } : {}), ...(to ? { to } : {}), page: String(n) })}`;
  return (
    <>
      <Form method="get" className="filter-row">
        <label>
          {t("orders.from")} <input type="date" name="from" defaultValue={from} min={floorDay} />
        </label>
        <label>
          {t("orders.to")} <input type="date" name="to" defaultValue={to} min={floorDay} />
        </label>
        <button type="submit" className="button button-ghost">
          {t("orders.search")}
        </button>
      </Form>
      <p className="muted" role={clipped ? "alert" : undefined}>
        {t("orders.threeYears")}
      </p>
      <p className="muted">{t("orders.count", { count: totalCount })}</p>
      {rows.length === 0 ? (
        <p>{t("orders.empty")}</p>
      ) : (
        <div className="embedded-table">
          <table className="data-table">
            <caption className="visually-hidden">{t("orders.title")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("orders.date")}</th>
                <th scope="col">{t("orders.number")}</th>
                <th scope="col">{t("orders.contents")}</th>
                <th scope="col">{t("orders.quantity")}</th>
                <th scope="col">{t("orders.total")}</th>
                <th scope="col">{t("orders.status")}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((o) => (
                <tr key={o.id}>
                  <td>{o.date}</td>
                  <td className="nowrap">
                    <Link to={detailHref(o.id)}>{o.orderNo}</Link>
                  </td>
                  <td>
                    {o.name}
                    <br />
                    <small className="muted">{t(`orders.purchase.${o.category}`)}</small>
                  </td>
                  <td>{o.quantity}</td>
                  <td className="nowrap">{o.total}</td>
                  <td>{t(`orders.state.${o.status}`)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination page={page} pages={pages} href={pageHref} />
    </>
  );
}
