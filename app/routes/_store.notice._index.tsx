import { type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Pagination } from "../components/pagination";
import { useTranslation } from "../i18n/react";
import { listNotices } from "../market/notices.server";
import { cacheHeaders } from "../utils/cache";
import { pageNumber } from "../utils/input.server";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["notice", "orders", "pagination", "pay", "purchase", "request"] };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const page = pageNumber(new URL(request.url).searchParams.get("page"));
  const result = await listNotices(context.db, context.locale, page);
  if (page > result.pages) throw redirect(`/notice?page=${result.pages}`);
  return { ...result, page, seo: await pageSeo(request, context, { titleKey: "notice.title", keep: ["page"] }), locale: context.locale };
}

export const headers = cacheHeaders("catalog");
export const meta: MetaFunction<typeof loader> = ({ data }) => seoMeta(data?.seo);

export default function NoticeList() {
  const { list, page, pages, locale } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const date = (iso: string) =>
    new Intl.DateTimeFormat(locale === "ko" ? "ko-KR" : "en-US", { dateStyle: "medium", timeZone: "Asia/Seoul" }).format(new Date(iso));
  return (
    <section>
      <h1>{t("notice.title")}</h1>
      {list.length ? (
        <ul className="notice-list">
          {list.map((n) => (
            <li key={n.id}>
              {n.pinned ? <span className="badge">{t("notice.pinned")}</span> : null} <Link to={`/notice/${n.id}`}>{n.title}</Link>{" "}
              <time dateTime={n.publishedAt} className="muted">
                {date(n.publishedAt)}
              </time>
            </li>
          ))}
        </ul>
      ) : (
        <p>{t("notice.empty")}</p>
      )}
      <Pagination page={page} pages={pages} href={(p) => `/notice?page=${p}`} />
    </section>
  );
}
