import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "../../i18n/react";
import { roleAllows } from "../../market/operators/roles";
import styles from "../../styles/admin-publishing.css";
import { requireOperator } from "../guard.server";

export { AdminError as ErrorBoundary } from "../parts";
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

/** The publishing pages, each with what it changes on the storefront. */
const PAGES = [
  { to: "/admin/publishing/banners?kind=keyvisual", key: "keyvisuals" },
  { to: "/admin/publishing/banners?kind=banner", key: "banners" },
  { to: "/admin/publishing/keywords", key: "keywords" },
  { to: "/admin/publishing/notices", key: "notices" },
  { to: "/admin/publishing/events", key: "events" },
  { to: "/admin/publishing/faq", key: "faq" },
  { to: "/admin/publishing/guide", key: "guide" },
] as const;

/** /admin/publishing: what can be published, and where; the promo coupon (finance) is linked for who may open it. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const op = await requireOperator(request, context, "publishing");
  return { coupons: roleAllows(op.role, "coupons") };
}

export default function AdminPublishing() {
  const { coupons } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <main className="admin-page">
      <h1>{t("admin.publishing.title")}</h1>
      <p>{t("admin.publishing.lead")}</p>
      <ul className="publishing-links">
        {PAGES.map((p) => (
          <li key={p.key}>
            <Link to={p.to}>{t(`admin.publishing.index.${p.key}.title`)}</Link>
            <p className="admin-hint">{t(`admin.publishing.index.${p.key}.what`)}</p>
          </li>
        ))}
        {coupons ? (
          <li>
            <Link to="/admin/coupons">{t("admin.publishing.index.coupon.title")}</Link>
            <p className="admin-hint">{t("admin.publishing.index.coupon.what")}</p>
          </li>
        ) : null}
      </ul>
      <p className="admin-hint">{t("admin.publishing.cacheNote")}</p>
    </main>
  );
}
