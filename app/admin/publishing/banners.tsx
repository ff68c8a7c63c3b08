import { type ActionFunctionArgs, data, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "../../i18n/react";
import { adminBanners, moveBanner, setBannerVisible } from "../../market/publishing/banners.server";
import styles from "../../styles/admin-publishing.css";
import { formObject } from "../forms.server";
import { actorOf, domainCall, requireOperator } from "../guard.server";
import { DataTable, Done, Problem } from "../parts";
import { kindFilter, pageFilter, rowChangeSchema } from "./forms.server";
import { KindSelect, PageSelect, PublishingHead, ReorderButtons } from "./parts";

export { AdminError as ErrorBoundary } from "../parts";
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

/**
 * /admin/publishing/banners: the key visuals and banners of each page, in the storefront's order, shown or hidden;
 * move one up or down, show or hide it, or open it to edit (with a preview).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, "publishing");
  const url = new URL(request.url);
  const page = pageFilter.parse(url.searchParams.get("page") ?? undefined);
  const kind = kindFilter.parse(url.searchParams.get("kind") ?? undefined);
  const rows = await adminBanners(context.db, { page, kind });
  return {
    page: page ?? "",
    kind: kind ?? "",
    saved: url.searchParams.get("saved") === "1",
    rows: rows.map((r) => ({
      id: r.id,
      page: r.page,
      kind: r.kind,
      title: context.locale === "ko" ? r.title_ko : r.title_en,
      image: r.image_path,
      link: r.link,
      visible: r.visible === 1,
    })),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const op = await requireOperator(request, context, "publishing");
  const parsed = rowChangeSchema.safeParse(formObject(await request.formData()));
  if (!parsed.success) return data({ ok: false as const }, { status: 400 });
  const { intent, id } = parsed.data;
  const actor = actorOf(op, context);
  await domainCall(() =>
    intent === "show" || intent === "hide"
      ? setBannerVisible(context.db, actor, id, intent === "show")
      : moveBanner(context.db, actor, id, intent),
  );
  return { ok: true as const };
}

export default function AdminBanners() {
  const { rows, page, kind, saved } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { t } = useTranslation();
  return (
    <main className="admin-page">
      <PublishingHead title={t("admin.publishing.banners.title")} lead={t("admin.publishing.banners.lead")} />
      <Done text={saved || result?.ok ? t("admin.publishing.saved") : null} />
      <Problem text={result && !result.ok ? t("admin.publishing.problems.row") : null} />
      <Form method="get" className="admin-filters">
        <PageSelect value={page} all />
        <KindSelect value={kind} all />
        <button type="submit">{t("admin.publishing.filter")}</button>
      </Form>
      <p>
        <Link to="/admin/publishing/banners/new">{t("admin.publishing.banners.new")}</Link>
      </p>
      <DataTable
        caption={t("admin.publishing.banners.caption")}
        columns={[
          t("admin.publishing.fields.image"),
          t("admin.publishing.fields.page"),
          t("admin.publishing.fields.kind"),
          t("admin.publishing.columns.title"),
          t("admin.publishing.columns.state"),
          t("admin.publishing.columns.change"),
        ]}
        rows={rows}
        row={(r) => (
          <tr key={r.id}>
            <td>
              <img className="publishing-thumb" src={r.image} alt="" width={120} height={36} loading="lazy" />
            </td>
            <td>{t(`admin.publishing.pages.${r.page}`)}</td>
            <td>{t(`admin.publishing.kinds.${r.kind}`)}</td>
            <td>
              <Link to={`/admin/publishing/banners/${r.id}`}>{r.title}</Link>
            </td>
            <td>{r.visible ? t("admin.publishing.state.shown") : t("admin.publishing.state.hidden")}</td>
            <td>
              <ReorderButtons id={r.id} title={r.title} visible={r.visible} />
            </td>
          </tr>
        )}
      />
    </main>
  );
}
