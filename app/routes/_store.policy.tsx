import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "../i18n/react";
import { currentPolicy } from "../market/policies.server";
import { isPolicyType, POLICY_TYPES } from "../market/policy-types";
import { cacheHeaders } from "../utils/cache";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["policy"] };

/** /policy?type=terms|privacy|paid. A missing type shows the terms; an unknown type is a 404. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const type = new URL(request.url).searchParams.get("type") ?? "terms";
  if (!isPolicyType(type)) throw redirect("/404");
  const policy = await currentPolicy(context.db, type, context.locale);
  if (!policy) throw redirect("/404");
  const seo = await pageSeo(request, context, { titleKey: `policy.${type}`, keep: ["type"] });
  return { type, policy, seo, locale: context.locale };
}

export const headers = cacheHeaders("document");

export const meta: MetaFunction<typeof loader> = ({ data }) => seoMeta(data?.seo);

export default function PolicyPage() {
  const { type, policy, locale } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const date = new Intl.DateTimeFormat(locale === "ko" ? "ko-KR" : "en-US", { dateStyle: "long", timeZone: "Asia/Seoul" }).format(
    new Date(policy.effective_at),
  );
  return (
    <article className="policy">
      <nav aria-label={t("policy.title")}>
        <ul className="tabs">
          {POLICY_TYPES.map((p) => (
            <li key={p}>
              <Link to={`/policy?type=${p}`} aria-current={p === type ? "page" : undefined}>
                {t(`policy.${p}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <h1>{t(`policy.${type}`)}</h1>
      <p className="muted">{t("policy.effective", { date, version: policy.version })}</p>
      {policy.body.split(/\n{2,}/).map((para) => {
        const [head, ...rest] = para.split("\n");
        return (
          <section key={head}>
            <h2>{head}</h2>
            {rest.map((line) => (
              <p key={line}>{line}</p>
            ))}
          </section>
        );
      })}
    </article>
  );
}
