import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "../../i18n/react";
import { currentPromotion } from "../../market/orders/coupons.server";
import { couponLines } from "../../market/orders/promo-coupons.server";
import { seoulText } from "../../utils/dates";
import { requireOperator } from "../guard.server";
import { AdminPagination, TableScroll } from "../parts";
import { pageNumberSchema } from "../publishing/forms.server";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["orders"] };

export { AdminError as ErrorBoundary } from "../parts";

/**
 * /admin/coupons (finance): the promo coupon. A coupon is an event's code and percentage over the event's period;
 * the promo pop-up shows the latest-started running one. Each member may use a coupon once.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, "coupons");
  const url = new URL(request.url);
  const page = pageNumberSchema.parse(url.searchParams.get("page") ?? undefined);
  const [{ rows, pages }, promotion] = await Promise.all([couponLines(context.db, page), currentPromotion(context.db, context.locale)]);
  const now = new Date().toISOString();
  return {
    page,
    pages,
    saved: url.searchParams.get("saved") === "1",
    current: promotion ? { code: promotion.code, percent: promotion.percent, title: promotion.title } : null,
    rows: rows.map((r) => ({
      id: r.eventId,
      title: context.locale === "ko" ? r.titleKo : r.titleEn,
      code: r.code,
      percent: r.percent,
      test: r.testOnly,
      state: r.startsAt > now ? "scheduled" : r.endsAt < now ? "ended" : "live",
      period: `${seoulText(r.startsAt, context.locale)} – ${seoulText(r.endsAt, context.locale)}`,
      redemptions: r.redemptions,
    })),
  };
}

export default function AdminCoupons() {
  const { rows, page, pages, saved, current } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <main className="admin-page">
      <h1>{t("admin.publishing.coupons.title")}</h1>
      <p>{t("admin.publishing.coupons.lead")}</p>
      {saved ? (
        <p role="status" className="admin-ok">
          {t("admin.publishing.saved")}
        </p>
      ) : null}
      <p>
        {current
          ? t("admin.publishing.coupons.current", { code: current.code, percent: current.percent, title: current.title })
          : t("admin.publishing.coupons.noCurrent")}
      </p>
      <TableScroll>
        <table className="admin-table">
          <caption>{t("admin.publishing.coupons.caption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("admin.publishing.columns.event")}</th>
              <th scope="col">{t("admin.publishing.columns.coupon")}</th>
              <th scope="col">{t("admin.publishing.columns.period")}</th>
              <th scope="col">{t("admin.publishing.columns.state")}</th>
              <th scope="col">{t("admin.publishing.columns.redemptions")}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id}>
                <td>
                  <Link to={`/admin/coupons/${r.id}`}>{r.title}</Link>
                </td>
                <td>{r.code ? `${r.code} (${r.percent}%)` : t("admin.publishing.none")}</td>
                <td>{r.period}</td>
                <td>
                  {t(`admin.publishing.state.${r.state}`)}
                  {r.test ? ` · ${t("admin.publishing.events.test")}` : ""}
                </td>
                <td>{r.redemptions}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <AdminPagination page={page} pages={pages} href={(n) => `/admin/coupons?page=${n}`} />
    </main>
  );
}
