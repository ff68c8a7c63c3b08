import { data, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "../../i18n/react";
import { PAY_METHODS } from "../../integrations/payments/gateway";
import { formatMoney } from "../../market/money";
import { searchOrders } from "../../market/orders/console.server";
import styles from "../../styles/admin-orders.css";
import { seoulText } from "../../utils/dates";
import { formObject, seoulDayEnd, seoulDayStart } from "../forms.server";
import { requireOperator } from "../guard.server";
import { AdminPagination } from "../parts";
import { orderSearchSchema } from "./forms.server";
import { ORDER_STATUSES, OrdersNav } from "./parts";

export { AdminError as ErrorBoundary } from "../parts";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

const FIELDS = ["orderNo", "email", "licenseKey", "method", "status", "from", "to"] as const;

/** /admin/orders (finance): orders by number, member, licence key, method, status and day, newest first, with totals. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, "orders");
  const url = new URL(request.url);
  const raw = formObject(url.searchParams);
  const typed = Object.fromEntries(FIELDS.map((k) => [k, (raw[k] ?? "").slice(0, 100)])) as Record<(typeof FIELDS)[number], string>;
  const parsed = orderSearchSchema.safeParse(raw);
  const q = parsed.success ? parsed.data : orderSearchSchema.parse({});
  const bad = !parsed.success || Boolean(q.from && q.to && q.from > q.to);
  const list = await searchOrders(context.db, {
    ...(bad ? { page: 1 } : q),
    from: !bad && q.from ? seoulDayStart(q.from) : undefined,
    to: !bad && q.to ? seoulDayEnd(q.to) : undefined,
  });
  const locale = context.locale;
  return data(
    {
      query: typed,
      bad,
      list: {
        ...list,
        rows: list.rows.map((r) => ({
          ...r,
          createdAt: seoulText(r.createdAt, locale),
          total: formatMoney(r.total, r.currency, locale),
          refunded: r.cancelAmount ? formatMoney(r.cancelAmount, r.currency, locale) : "",
        })),
        totals: list.totals.map((t) => ({
          currency: t.currency,
          count: t.count,
          total: formatMoney(t.total, t.currency, locale),
          paid: formatMoney(t.paid, t.currency, locale),
          refunded: formatMoney(t.refunded, t.currency, locale),
        })),
      },
    },
    { status: bad ? 400 : 200 },
  );
}

export default function Orders() {
  const { query, bad, list } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const href = (n: number) => `?${new URLSearchParams({ ...query, page: String(n) })}`;
  return (
    <main className="admin-page">
      <h1>{t("admin.orders.list.title")}</h1>
      <OrdersNav />
      <Form method="get" className="admin-filters" aria-label={t("admin.orders.list.filter")}>
        {bad ? (
          <p role="alert" className="admin-alert">
            {t("admin.orders.list.bad")}
          </p>
        ) : null}
        <label>
          {t("admin.orders.fields.orderNo")}
          <input type="text" name="orderNo" defaultValue={query.orderNo} maxLength={100} />
        </label>
        <label>
          {t("admin.orders.fields.email")}
          <input type="text" name="email" defaultValue={query.email} maxLength={100} />
        </label>
        <label>
          {t("admin.orders.fields.licenseKey")}
          <input type="text" name="licenseKey" defaultValue={query.licenseKey} maxLength={100} />
        </label>
        <label>
          {t("admin.orders.fields.method")}
          <select name="method" defaultValue={query.method}>
            <option value="">{t("admin.orders.list.any")}</option>
            {PAY_METHODS.map((m) => (
              <option key={m} value={m}>
                {t(`admin.orders.methods.${m}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("admin.orders.fields.status")}
          <select name="status" defaultValue={query.status}>
            <option value="">{t("admin.orders.list.any")}</option>
            {ORDER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`admin.orders.status.${s}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("admin.orders.fields.from")}
          <input type="date" name="from" defaultValue={query.from} />
        </label>
        <label>
          {t("admin.orders.fields.to")}
          <input type="date" name="to" defaultValue={query.to} />
        </label>
        <button type="submit">{t("admin.orders.list.apply")}</button>
        <Link to="/admin/orders">{t("admin.orders.list.reset")}</Link>
      </Form>
      <p>{t("admin.orders.list.count", { count: list.total })}</p>
      {list.totals.length ? (
        <div className="admin-table-scroll">
          <table className="admin-table">
            <caption>{t("admin.orders.list.totalsCaption")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("admin.orders.columns.currency")}</th>
                <th scope="col" className="num">
                  {t("admin.orders.columns.count")}
                </th>
                <th scope="col" className="num">
                  {t("admin.orders.columns.total")}
                </th>
                <th scope="col" className="num">
                  {t("admin.orders.columns.paid")}
                </th>
                <th scope="col" className="num">
                  {t("admin.orders.columns.refunded")}
                </th>
              </tr>
            </thead>
            <tbody>
              {list.totals.map((row) => (
                <tr key={row.currency}>
                  <th scope="row">{row.currency}</th>
                  <td className="num">{row.count}</td>
                  <td className="num">{row.total}</td>
                  <td className="num">{row.paid}</td>
                  <td className="num">{row.refunded}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {list.rows.length === 0 ? (
        <p>{t("admin.orders.list.empty")}</p>
      ) : (
        <div className="admin-table-scroll">
          <table className="admin-table">
            <caption>{t("admin.orders.list.caption")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("admin.orders.columns.orderNo")}</th>
                <th scope="col">{t("admin.orders.columns.placed")}</th>
                <th scope="col">{t("admin.orders.columns.member")}</th>
                <th scope="col">{t("admin.orders.columns.license")}</th>
                <th scope="col">{t("admin.orders.columns.method")}</th>
                <th scope="col">{t("admin.orders.columns.status")}</th>
                <th scope="col" className="num">
                  {t("admin.orders.columns.total")}
                </th>
                <th scope="col" className="num">
                  {t("admin.orders.columns.refunded")}
                </th>
              </tr>
            </thead>
            <tbody>
              {list.rows.map((r) => (
                <tr key={r.id}>
                  <th scope="row" className="nowrap">
                    <Link to={`/admin/orders/${r.id}`}>{r.orderNo}</Link>
                  </th>
                  <td className="nowrap">{r.createdAt}</td>
                  <td>{r.email}</td>
                  <td>{r.licenseSerial}</td>
                  <td>{r.method ? t(`admin.orders.methods.${r.method}`) : ""}</td>
                  <td>
                    <span className={`order-status order-status-${r.status}`}>{t(`admin.orders.status.${r.status}`)}</span>
                  </td>
                  <td className="num">{r.total}</td>
                  <td className="num">{r.refunded}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <AdminPagination page={list.page} pages={list.pages} href={href} />
    </main>
  );
}
