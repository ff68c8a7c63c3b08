import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useTranslation } from "../i18n/react";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

/** Where the store sends visitors when a service it depends on fails. Plain layout. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return data({ seo: await pageSeo(request, context, { titleKey: "errorService.title" }) }, { status: 503 });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export default function ErrorService() {
  const { t } = useTranslation();
  return (
    <main id="main" className="plain-page">
      <h1>{t("errorService.title")}</h1>
      <p>{t("errorService.message")}</p>
      <p className="actions">
        <a className="button" href="/">
          {t("errorService.home")}
        </a>
      </p>
    </main>
  );
}
