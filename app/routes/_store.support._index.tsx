import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useId } from "react";
import { Pagination } from "../components/pagination";
import { useTranslation } from "../i18n/react";
import { searchFaq } from "../market/faq.server";
import { guideSteps } from "../market/guide.server";
import { cacheHeaders } from "../utils/cache";
import { pageNumber } from "../utils/input.server";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["orders", "pagination", "pay", "purchase", "request", "support"] };

/** /support: FAQ search, the six-step user guide (from the database, edited in the console) and the way to the 1:1 inquiry. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const keyword = (url.searchParams.get("keyword") ?? "").trim().slice(0, 50);
  const category = (url.searchParams.get("category") ?? "").slice(0, 30);
  const page = pageNumber(url.searchParams.get("page"), 500);
  const [faq, guide, seo] = await Promise.all([
    searchFaq(context.db, context.locale, { keyword: keyword || undefined, category: category || undefined, page }),
    guideSteps(context.db, context.locale),
    pageSeo(request, context, { titleKey: "support.title", keep: ["keyword", "category", "page"] }),
  ]);
  return { faq, guide, keyword, category, page, seo };
}

export const headers = cacheHeaders("catalog");
export const meta: MetaFunction<typeof loader> = ({ data }) => seoMeta(data?.seo);

export default function SupportPage() {
  const { faq, guide, keyword, category, page } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const id = useId();
  const href = (p: number) =>
    `/support?${new URLSearchParams({ ...(keyword ? { keyword } : {}), ...(category ? { category } : {}), page: String(p) })}`;
  return (
    <section>
      <h1>{t("support.title")}</h1>
      <section className="section" aria-labelledby={`${id}-faq`}>
        <h2 id={`${id}-faq`}>{t("support.faq")}</h2>
        <Form method="get" className="inline-form" role="search" aria-label={t("support.search")}>
          <div className="field">
            <label htmlFor={`${id}-kw`}>{t("support.keyword")}</label>
            <input id={`${id}-kw`} name="keyword" type="search" defaultValue={keyword} maxLength={50} />
          </div>
          <div className="field">
            <label htmlFor={`${id}-cat`}>{t("support.category")}</label>
            <select id={`${id}-cat`} name="category" defaultValue={category}>
              <option value="">{t("support.allCategories")}</option>
              {faq.categories.map((c) => (
                <option key={c} value={c}>
                  {t(`support.categories.${c}`)}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="button">
            {t("support.apply")}
          </button>
        </Form>
        {faq.list.length ? (
          <div className="faq-list">
            {faq.list.map((f) => (
              <details key={f.id}>
                <summary>
                  <span className="muted">[{t(`support.categories.${f.category}`)}]</span> {f.question}
                </summary>
                <p>{f.answer}</p>
                <Link to={`/support/detail?id=${f.id}`}>→</Link>
              </details>
            ))}
          </div>
        ) : (
          <p>{t("support.noFaq")}</p>
        )}
        <Pagination page={page} pages={faq.pages} href={href} />
      </section>
      <section className="section" aria-labelledby={`${id}-guide`}>
        <h2 id={`${id}-guide`}>{t("support.guide")}</h2>
        <ol className="guide-steps">
          {guide.map((s) => (
            <li key={s.step}>
              {s.title}
              {s.text ? <p className="muted">{s.text}</p> : null}
            </li>
          ))}
        </ol>
      </section>
      <p>
        <Link to="/support/question" className="button">
          {t("support.ask")}
        </Link>
      </p>
    </section>
  );
}
