import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "../../i18n/react";
import { adminNotices } from "../../market/publishing/notices.server";
import { seoulText } from "../../utils/dates";
import { requireOperator } from "../guard.server";
import { AdminPagination } from "../parts";
import { pageNumberSchema } from "./forms.server";

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
      <p>
        <Link to="/admin/publishing">{t("admin.publishing.back")}</Link>
      </p>
      <h1>{t("admin.publishing.notices.title")}</h1>
      <p>{t("admin.publishing.notices.lead")}</p>
      {saved ? (
        <p role="status" className="admin-ok">
          {t("admin.publishing.saved")}
        </p>
      ) : null}
      <p>
        <Link to="/admin/publishing/notices/new">{t("admin.publishing.notices.new")}</Link>
      </p>
      <div className="admin-table-scroll">
        <table className="admin-table">
          <caption>{t("admin.publishing.notices.caption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("admin.publishing.columns.title")}</th>
              <th scope="col">{t("admin.publishing.columns.publishedAt")}</th>
              <th scope="col">{t("admin.publishing.columns.state")}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
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
            ))}
          </tbody>
        </table>
      </div>
      <AdminPagination page={page} pages={pages} href={(n) => `/admin/publishing/notices?page=${n}`} />
    </main>
  );
}
