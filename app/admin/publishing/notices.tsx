import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "../../i18n/react";
import { adminNotices } from "../../market/publishing/notices.server";
import { seoulText } from "../../utils/dates";
import { requireOperator } from "../guard.server";
import { AdminPagination, DataTable, Done } from "../parts";
import { pageNumberSchema } from "./forms.server";
import { PublishingHead } from "./parts";

export { AdminError as ErrorBoundary } from "../parts";

/** /admin/publishing/notices: every notice (drafts dated ahead too), newest first, with a link to write one. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, "publishing");
  const url = new URL(request.url);
  const page = pageNumberSchema.parse(url.searchParams.get("page") ?? undefined);
  const { rows, pages } = await adminNotices(context.db, page);
  const now = new Date().toISOString();
  return {
    page,
    pages,
    saved: url.searchParams.get("saved") === "1",
    rows: rows.map((r) => ({
      id: r.id,
      title: context.locale === "ko" ? r.title_ko : r.title_en,
      pinned: r.pinned === 1,
      live: r.published_at <= now,
      publishedAt: seoulText(r.published_at, context.locale),
    })),
  };
}

export default function AdminNotices() {
  const { rows, page, pages, saved } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <main className="admin-page">
      <PublishingHead title={t("admin.publishing.notices.title")} lead={t("admin.publishing.notices.lead")} />
      <Done text={saved ? t("admin.publishing.saved") : null} />
      <p>
        <Link to="/admin/publishing/notices/new">{t("admin.publishing.notices.new")}</Link>
      </p>
      <DataTable
        caption={t("admin.publishing.notices.caption")}
        columns={[t("admin.publishing.columns.title"), t("admin.publishing.columns.publishedAt"), t("admin.publishing.columns.state")]}
        rows={rows}
        row={(r) => (
          <tr key={r.id}>
            <td>
              <Link to={`/admin/publishing/notices/${r.id}`}>{r.title}</Link>
            </td>
            <td>{r.publishedAt}</td>
            <td>
              {r.live ? t("admin.publishing.state.live") : t("admin.publishing.state.scheduled")}
              {r.pinned ? ` · ${t("admin.publishing.notices.pinned")}` : ""}
            </td>
          </tr>
        )}
      />
      <AdminPagination page={page} pages={pages} href={(n) => `/admin/publishing/notices?page=${n}`} />
    </main>
  );
}
