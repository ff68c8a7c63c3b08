import { type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { NoticeArticle } from "../components/notice-article";
import { getNotice } from "../market/notices.server";
import { cacheHeaders } from "../utils/cache";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["notice"] };

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
  const date = new Intl.DateTimeFormat(locale === "ko" ? "ko-KR" : "en-US", { dateStyle: "long", timeZone: "Asia/Seoul" }).format(
    new Date(notice.publishedAt),
  );
  return <NoticeArticle notice={notice} date={date} />;
}
