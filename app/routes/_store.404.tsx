import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { useTranslation } from "../i18n/react";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

export async function loader({ request, context }: LoaderFunctionArgs) {
  return data(
    { seo: await pageSeo(request, context, { titleKey: "notFound.title", descriptionKey: "notFound.message" }) },
    { status: 404 },
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export default function NotFound() {
  const { t } = useTranslation();
  return (
    <section className="message-page">
      <h1>{t("notFound.title")}</h1>
      <p>{t("notFound.message")}</p>
      <Link to="/" className="button">
        {t("notFound.home")}
      </Link>
    </section>
  );
}
