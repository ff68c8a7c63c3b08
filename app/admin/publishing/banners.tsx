import { type ActionFunctionArgs, data, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "../../i18n/react";
import { adminBanners, moveBanner, setBannerVisible } from "../../market/publishing/banners.server";
import { BANNER_KINDS, PUBLISHING_PAGES } from "../../market/publishing/pages";
import styles from "../../styles/admin-publishing.css";
import { formObject } from "../forms.server";
import { actorOf, domainCall, requireOperator } from "../guard.server";
import { kindFilter, pageFilter, rowChangeSchema } from "./forms.server";

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
      <p>
        <Link to="/admin/publishing">{t("admin.publishing.back")}</Link>
      </p>
      <h1>{t("admin.publishing.banners.title")}</h1>
      <p>{t("admin.publishing.banners.lead")}</p>
      {saved || result?.ok ? (
        <p role="status" className="admin-ok">
          {t("admin.publishing.saved")}
        </p>
      ) : null}
      {result && !result.ok ? (
        <p role="alert" className="admin-alert">
          {t("admin.publishing.problems.row")}
        </p>
      ) : null}
      <Form method="get" className="admin-filters">
        <label>
          {t("admin.publishing.fields.page")}
          <select name="page" defaultValue={page}>
            <option value="">{t("admin.publishing.all")}</option>
            {PUBLISHING_PAGES.map((p) => (
              <option key={p} value={p}>
                {t(`admin.publishing.pages.${p}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("admin.publishing.fields.kind")}
          <select name="kind" defaultValue={kind}>
            <option value="">{t("admin.publishing.all")}</option>
            {BANNER_KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`admin.publishing.kinds.${k}`)}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">{t("admin.publishing.filter")}</button>
      </Form>
      <p>
        <Link to="/admin/publishing/banners/new">{t("admin.publishing.banners.new")}</Link>
      </p>
      <div className="admin-table-scroll">
        <table className="admin-table">
          <caption>{t("admin.publishing.banners.caption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("admin.publishing.fields.image")}</th>
              <th scope="col">{t("admin.publishing.fields.page")}</th>
              <th scope="col">{t("admin.publishing.fields.kind")}</th>
              <th scope="col">{t("admin.publishing.columns.title")}</th>
              <th scope="col">{t("admin.publishing.columns.state")}</th>
              <th scope="col">{t("admin.publishing.columns.change")}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
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
                  <Form method="post" className="admin-inline-form">
                    <input type="hidden" name="id" value={r.id} />
                    <button type="submit" name="intent" value="up" aria-label={t("admin.publishing.moveUpOf", { title: r.title })}>
                      {t("admin.publishing.moveUp")}
                    </button>
                    <button type="submit" name="intent" value="down" aria-label={t("admin.publishing.moveDownOf", { title: r.title })}>
                      {t("admin.publishing.moveDown")}
                    </button>
                    <button
                      type="submit"
                      name="intent"
                      value={r.visible ? "hide" : "show"}
                      aria-label={t(r.visible ? "admin.publishing.hideOf" : "admin.publishing.showOf", { title: r.title })}
                    >
                      {r.visible ? t("admin.publishing.hide") : t("admin.publishing.show")}
                    </button>
                  </Form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </main>
  );
}
