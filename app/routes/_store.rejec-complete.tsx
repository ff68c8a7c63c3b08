import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { useTranslation } from "../i18n/react";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["rejection", "withdraw"] };

/** After a mail opt-out: marketing mail has stopped; it can be turned back on in the account page. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return { seo: await pageSeo(request, context, { titleKey: "rejection.doneTitle" }) };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export default function RejectionComplete() {
  const { t } = useTranslation();
  return (
    <section className="message-page">
      <h1>{t("rejection.doneTitle")}</h1>
      <p role="status">{t("rejection.done")}</p>
      <p>
        <Link to="/" className="button">
          {t("withdraw.home")}
        </Link>
      </p>
    </section>
  );
}
