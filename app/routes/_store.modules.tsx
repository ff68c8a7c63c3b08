import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "../i18n/react";
import { formatCount } from "../i18n/translate";
import { marketModules } from "../market/catalog/modules.server";
import { cacheHeaders } from "../utils/cache";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["modules"] };

/** /modules: the editor's market modules (one per content type) with what the catalog holds for each. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const [result, seo] = await Promise.all([marketModules(context.db), pageSeo(request, context, { titleKey: "modules.title" })]);
  return { ...result, seo, locale: context.locale };
}

export const headers = cacheHeaders("catalog");

export const meta: MetaFunction<typeof loader> = ({ data }) => seoMeta(data?.seo);

export default function Modules() {
  const { modules, minEditorVersion, locale } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const n = (count: number) => formatCount(locale, count);
  return (
    <section>
      <h1>{t("modules.title")}</h1>
      <p>{t("modules.lead")}</p>
      <p className="notice-box">{t("modules.requirements", { version: minEditorVersion })}</p>
      <ul className="summary-tiles modules-list">
        {modules.map((m) => (
          <li key={m.type}>
            <h2>
              <Link to={`/${m.type}`}>{t(`nav.${m.type}`)}</Link>
            </h2>
            <p className="tile-value">{t("modules.items", { count: m.total })}</p>
            <p className="muted">{t("modules.split", { paid: n(m.paid), free: n(m.free), benefit: n(m.benefit) })}</p>
          </li>
        ))}
      </ul>
      <p>
        <Link to="/price">{t("nav.price")}</Link> · <Link to="/benefit">{t("nav.benefit")}</Link> ·{" "}
        <Link to="/support">{t("nav.support")}</Link>
      </p>
    </section>
  );
}
