import { type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "../i18n/react";
import { getFaq } from "../market/faq.server";
import { cacheHeaders } from "../utils/cache";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["support"] };

/** /support/detail?id=: one FAQ entry. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const id = Number(new URL(request.url).searchParams.get("id"));
  const faq = Number.isInteger(id) && id > 0 ? await getFaq(context.db, id, context.locale) : null;
  if (!faq) throw redirect("/404");
  return { faq, seo: await pageSeo(request, context, { title: faq.question, description: faq.answer, keep: ["id"], type: "article" }) };
}

export const headers = cacheHeaders("catalog");
export const meta: MetaFunction<typeof loader> = ({ data }) => seoMeta(data?.seo);

export default function FaqDetail() {
  const { faq } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <article className="policy">
      <p className="breadcrumb">
        <Link to="/support">{t("support.back")}</Link>
      </p>
      <p className="muted">{t(`support.categories.${faq.category}`)}</p>
      <h1>{faq.question}</h1>
      <p>{faq.answer}</p>
      <p>
        <Link to="/support/question">{t("support.ask")}</Link>
      </p>
    </article>
  );
}
