import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { useTranslation } from "../i18n/react";
import { formatMoney } from "../market/money";
import { listOrders } from "../market/orders/history.server";
import { requireViewer } from "../utils/auth.server";
import { seoulText } from "../utils/dates";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

const PAGE = 20;
const query = z.object({
  from: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional()
    .catch(undefined),
  to: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional()
    .catch(undefined),
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
});

/** /mypage/pay: payment history, newest payment first, looked up at most 3 years back. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const q = query.parse(Object.fromEntries(new URL(request.url).searchParams));
  // Dates are Asia/Seoul days: from 00:00 of `from` up to the end of `to`.
  const from = q.from ? new Date(`${q.from}T00:00:00+09:00`).toISOString() : undefined;
  const to = q.to ? new Date(Date.parse(`${q.to}T00:00:00+09:00`) + 86_400_000).toISOString() : undefined;
  const result = await listOrders(context.db, { userId: viewer.id }, { from, to, offset: (q.page - 1) * PAGE, limit: PAGE });
  const floorDay = new Date(Date.parse(result.floor) + 9 * 3_600_000).toISOString().slice(0, 10);
  // Times are spelled on the server only (see utils/dates.ts).
  const dates = Object.fromEntries(result.list.map((o) => [o.id, seoulText(o.paidAt ?? o.createdAt, context.locale)]));
  return {
    ...result,
    dates,
    page: q.page,
    pages: Math.max(1, Math.ceil(result.total_count / PAGE)),
    from: q.from ?? "",
    to: q.to ?? "",
    floorDay,
    clipped: Boolean(q.from && q.from < floorDay),
    locale: context.locale,
    seo: await pageSeo(request, context, { titleKey: "orders.title" }),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export default function PaymentHistory() {
  const { list, total_count, page, pages, from, to, floorDay, clipped, locale, dates } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const pageHref = (n: number) => `?${new URLSearchParams({ ...(from ? { from } : {}), ...(to ? { to } : {}), page: String(n) })}`;
  return (
    <section className="account-page wide">
      <h1>{t("orders.title")}</h1>
      <Form method="get" className="filter-row">
        <label>
          {t("orders.from")} <input type="date" name="from" defaultValue={from} min={floorDay} />
        </label>
        <label>
          {t("orders.to")} <input type="date" name="to" defaultValue={to} />
        </label>
        <button type="submit" className="button button-ghost">
          {t("orders.search")}
        </button>
      </Form>
      <p className="muted" role={clipped ? "alert" : undefined}>
        {t("orders.threeYears")}
      </p>
      <p className="muted">{t("orders.count", { count: total_count })}</p>
      {list.length === 0 ? (
        <p>{t("orders.empty")}</p>
      ) : (
        <table className="data-table">
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
            {list.map((o) => (
              <tr key={o.id}>
                <td>{dates[o.id]}</td>
                <td>
                  <Link to={`/mypage/pay/${o.id}`}>{o.orderNo}</Link>
                </td>
                <td>{o.name}</td>
                <td>{o.quantity}</td>
                <td>{formatMoney(o.total, o.currency, locale)}</td>
                <td>{t(`orders.state.${o.status}`)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {pages > 1 ? (
        <nav aria-label={t("pagination.label")} className="pagination">
          {page > 1 ? <Link to={pageHref(page - 1)}>{t("pagination.previous")}</Link> : null}
          <span>{t("pagination.page", { page, pages })}</span>
          {page < pages ? <Link to={pageHref(page + 1)}>{t("pagination.next")}</Link> : null}
        </nav>
      ) : null}
    </section>
  );
}
