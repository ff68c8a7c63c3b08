import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "../i18n/react";
import { requireViewer } from "../utils/auth.server";
import { pageSeo } from "../utils/page.server";
import { safePath } from "../utils/redirect";
import { seoMeta } from "../utils/seo";

/** /welcome greets a new market member (also reached with join_market=1). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const next = safePath(new URL(request.url).searchParams.get("redirectTo"), "/");
  return { nickname: viewer.nickname, next, seo: await pageSeo(request, context, { titleKey: "auth.welcomeTitle" }) };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => seoMeta(data?.seo);

export default function Welcome() {
  const { nickname, next } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <section className="message-page">
      <h1>{t("auth.welcome", { name: nickname })}</h1>
      <p>{t("auth.welcomeLead")}</p>
      <p className="actions">
        <Link className="button" to={next}>
          {t("auth.continueShopping")}
        </Link>{" "}
        <Link className="button button-ghost" to="/price">
          {t("nav.price")}
        </Link>
      </p>
    </section>
  );
}
