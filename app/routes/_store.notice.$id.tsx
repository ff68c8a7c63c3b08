import { type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "../i18n/react";
import { getNotice } from "../market/notices.server";
import { cacheHeaders } from "../utils/cache";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const id = Number(params.id);
  const notice = Number.isInteger(id) && id > 0 ? await getNotice(context.db, id, context.locale) : null;
  if (!notice) throw redirect("/404");
  return {
    notice,
    seo: await pageSeo(request, context, { title: notice.title, description: notice.body.slice(0, 150), type: "article" }),
    locale: context.locale,
  };
}

export const headers = cacheHeaders("catalog");
export const meta: MetaFunction<typeof loader> = ({ data }) => seoMeta(data?.seo);

export default function NoticeDetail() {
  const { notice, locale } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const date = new Intl.DateTimeFormat(locale === "ko" ? "ko-KR" : "en-US", { dateStyle: "long", timeZone: "Asia/Seoul" }).format(
    new Date(notice.publishedAt),
  );
  return (
    <article className="policy">
      <p className="breadcrumb">
        <Link to="/notice">{t("notice.back")}</Link>
      </p>
      <h1>{notice.title}</h1>
      <p className="muted">{t("notice.published", { date })}</p>
      {notice.body.split(/\n+/).map((p) => (
        <p key={p}>{p}</p>
      ))}
    </article>
  );
}
