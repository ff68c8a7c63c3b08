import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, isRouteErrorResponse, Link, useLoaderData, useRouteError } from "@remix-run/react";
import { z } from "zod";
import { Pagination } from "../components/pagination";
import { fixedT } from "../i18n/i18n.server";
import { useTranslation } from "../i18n/react";
import { formatMoney } from "../market/money";
import { listOrders } from "../market/orders/history.server";
import { seoulText } from "../utils/dates";
import { readEmbeddedLicense } from "./licence.server";

const PAGE = 20;
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .optional()
  .catch(undefined);
const query = z.object({ from: day, to: day, page: z.coerce.number().int().min(1).max(10_000).catch(1) });

/**
 * /mypage/sw/pay: the payments made for the licence the editor runs, newest first, at most 3 years back.
 * The layout answers 401/403 without a licence; this loader refuses too, so no data leaves without one.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const identity = await readEmbeddedLicense(request, context);
  if (identity.state !== "ok") throw data(null, { status: identity.state === "invalid" ? 403 : 401 });
  const q = query.parse(Object.fromEntries(new URL(request.url).searchParams));
  // Dates are Asia/Seoul days: from 00:00 of `from` up to the end of `to`.
  const from = q.from ? new Date(`${q.from}T00:00:00+09:00`).toISOString() : undefined;
  const to = q.to ? new Date(Date.parse(`${q.to}T00:00:00+09:00`) + 86_400_000).toISOString() : undefined;
  const result = await listOrders(context.db, { licenseId: identity.license.id }, { from, to, offset: (q.page - 1) * PAGE, limit: PAGE });
  const floorDay = new Date(Date.parse(result.floor) + 9 * 3_600_000).toISOString().slice(0, 10);
  const locale = context.locale;
  const t = fixedT(locale);
  const license = identity.license;
  return {
    // Times and amounts are spelled on the server only: Node's ICU and the webview's can differ (utils/dates.ts).
    rows: result.list.map((o) => ({
      id: o.id,
      orderNo: o.orderNo,
      name: o.name,
      quantity: o.quantity,
      status: o.status,
      date: seoulText(o.paidAt ?? o.createdAt, locale),
      total: formatMoney(o.total, o.currency, locale),
    })),
    totalCount: result.total_count,
    page: q.page,
    pages: Math.max(1, Math.ceil(result.total_count / PAGE)),
    from: q.from ?? "",
    to: q.to ?? "",
    floorDay,
    clipped: Boolean(q.from && q.from < floorDay),
    licence: license.alias ? `${license.alias} · ${license.serial}` : license.serial,
    title: `${t("orders.title")} | ${t("embedded.title")}`,
  };
}

// No `headers` export: the layout's (private, no-store; the licence cookie on a first visit) apply as they are.

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const layout = matches.find((m) => m.id === "embedded")?.data as { title?: string } | undefined;
  return [{ title: data?.title ?? layout?.title }, { name: "robots", content: "noindex" }];
};

export default function EmbeddedPaymentHistory() {
  const { rows, totalCount, page, pages, from, to, floorDay, clipped, licence } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const pageHref = (n: number) => `?${new URLSearchParams({ ...(from ? { from } : {}), ...(to ? { to } : {}), page: String(n) })}`;
  return (
    <section className="embedded-pay" aria-labelledby="sw-pay-title">
      <h1 id="sw-pay-title">{t("orders.title")}</h1>
      <p className="muted">{t("embedded.payLead", { licence })}</p>
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
                    <Link to={`/mypage/sw/pay/${o.id}`}>{o.orderNo}</Link>
                  </td>
                  <td>{o.name}</td>
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
    </section>
  );
}

/** Inside the layout: without a licence the layout already says why (401/403); anything else is a service error. */
export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  if (isRouteErrorResponse(error) && (error.status === 401 || error.status === 403)) return null;
  return (
    <section className="message-page">
      <h1>{t("errorService.title")}</h1>
      <p role="alert">{t("errorService.message")}</p>
    </section>
  );
}
