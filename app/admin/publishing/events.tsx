import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "../../i18n/react";
import { adminEvents } from "../../market/publishing/events.server";
import { seoulText } from "../../utils/dates";
import { requireOperator } from "../guard.server";
import { AdminPagination, DataTable, Done } from "../parts";
import { pageNumberSchema } from "./forms.server";
import { PublishingHead } from "./parts";

export { AdminError as ErrorBoundary } from "../parts";

/** /admin/publishing/events: every event (test, coming and ended too), the latest start first. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, "publishing");
  const url = new URL(request.url);
  const page = pageNumberSchema.parse(url.searchParams.get("page") ?? undefined);
  const { rows, pages } = await adminEvents(context.db, page);
  const now = new Date().toISOString();
  return {
    page,
    pages,
    saved: url.searchParams.get("saved") === "1",
    rows: rows.map((r) => ({
      id: r.id,
      title: context.locale === "ko" ? r.title_ko : r.title_en,
      state: r.starts_at > now ? "scheduled" : r.ends_at < now ? "ended" : "live",
      test: r.test_only === 1,
      coupon: r.coupon_code ? `${r.coupon_code} (${r.discount_percent}%)` : null,
      period: `${seoulText(r.starts_at, context.locale)} – ${seoulText(r.ends_at, context.locale)}`,
    })),
  };
}

export default function AdminEvents() {
  const { rows, page, pages, saved } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <main className="admin-page">
      <PublishingHead title={t("admin.publishing.events.title")} lead={t("admin.publishing.events.lead")} />
      <Done text={saved ? t("admin.publishing.saved") : null} />
      <p>
        <Link to="/admin/publishing/events/new">{t("admin.publishing.events.new")}</Link>
      </p>
      <DataTable
        caption={t("admin.publishing.events.caption")}
        columns={[
          t("admin.publishing.columns.title"),
          t("admin.publishing.columns.period"),
          t("admin.publishing.columns.state"),
          t("admin.publishing.columns.coupon"),
        ]}
        rows={rows}
        row={(r) => (
          <tr key={r.id}>
            <td>
              <Link to={`/admin/publishing/events/${r.id}`}>{r.title}</Link>
            </td>
            <td>{r.period}</td>
            <td>
              {t(`admin.publishing.state.${r.state}`)}
              {r.test ? ` · ${t("admin.publishing.events.test")}` : ""}
            </td>
            <td>{r.coupon ?? t("admin.publishing.none")}</td>
          </tr>
        )}
      />
      <AdminPagination page={page} pages={pages} href={(n) => `/admin/publishing/events?page=${n}`} />
    </main>
  );
}
