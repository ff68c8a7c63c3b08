import { data, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "../../i18n/react";
import { PAY_METHODS } from "../../integrations/payments/gateway";
import { formatMoney } from "../../market/money";
import { searchOrders } from "../../market/orders/console.server";
import styles from "../../styles/admin-orders.css";
import { seoulText } from "../../utils/dates";
import { formObject, seoulDayEnd, seoulDayStart } from "../forms.server";
import { requireOperator } from "../guard.server";
import { AdminPagination, FilterForm, InputField, optionsOf, Problem, SelectField, TableScroll } from "../parts";
import { orderSearchSchema } from "./forms.server";
import { ORDER_STATUSES, OrdersNav } from "./parts";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["licenses", "orders"] };

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
      <FilterForm
        label={t("admin.orders.list.filter")}
        apply={t("admin.orders.list.apply")}
        reset={{ to: "/admin/orders", text: t("admin.orders.list.reset") }}
      >
        <Problem text={bad ? t("admin.orders.list.bad") : null} />
        <InputField label={t("admin.orders.fields.orderNo")} name="orderNo" value={query.orderNo} maxLength={100} />
        <InputField label={t("admin.orders.fields.email")} name="email" value={query.email} maxLength={100} />
        <InputField label={t("admin.orders.fields.licenseKey")} name="licenseKey" value={query.licenseKey} maxLength={100} />
        <SelectField
          label={t("admin.orders.fields.method")}
          name="method"
          value={query.method}
          all={t("admin.orders.list.any")}
          options={optionsOf(PAY_METHODS, (m) => t(`admin.orders.methods.${m}`))}
        />
        <SelectField
          label={t("admin.orders.fields.status")}
          name="status"
          value={query.status}
          all={t("admin.orders.list.any")}
          options={optionsOf(ORDER_STATUSES, (s) => t(`admin.orders.status.${s}`))}
        />
        <InputField label={t("admin.orders.fields.from")} name="from" type="date" value={query.from} />
        <InputField label={t("admin.orders.fields.to")} name="to" type="date" value={query.to} />
      </FilterForm>
      <p>{t("admin.orders.list.count", { count: list.total })}</p>
      {list.totals.length ? (
        <TableScroll>
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
        </TableScroll>
      ) : null}
      {list.rows.length === 0 ? (
        <p>{t("admin.orders.list.empty")}</p>
      ) : (
        <TableScroll>
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
        </TableScroll>
      )}
      <AdminPagination page={list.page} pages={list.pages} href={href} />
    </main>
  );
}
