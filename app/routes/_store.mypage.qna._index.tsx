import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Pagination } from "../components/pagination";
import { useTranslation } from "../i18n/react";
import { inquiryListPage } from "../market/support.server";
import qnaStyles from "../styles/qna.css";
import { requireViewer } from "../utils/auth.server";
import { pageNumber } from "../utils/input.server";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["mypage", "orders", "pagination", "pay", "purchase", "qna", "request", "support"] };

/** /mypage/qna: the member's 1:1 inquiries, newest first, 10 a page, with their status (accepted or answered). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const page = pageNumber(new URL(request.url).searchParams.get("page"));
  const [list, seo] = await Promise.all([
    inquiryListPage(context.db, viewer.id, page, context.locale),
    pageSeo(request, context, { titleKey: "qna.title" }),
  ]);
  return { list, seo };
}

export const links: LinksFunction = () => [{ rel: "stylesheet", href: qnaStyles }];
export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export default function InquiryList() {
  const { list } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <section className="qna-page">
      <p className="breadcrumb">
        <Link to="/mypage/home">{t("mypage.title")}</Link>
      </p>
      <h1>{t("qna.title")}</h1>
      <p className="muted">{t("qna.lead")}</p>
      <div className="list-toolbar">
        <p>{t("qna.count", { count: list.totalCount })}</p>
        <Link to="/support/question" className="button">
          {t("qna.ask")}
        </Link>
      </div>
      {list.rows.length === 0 ? (
        <p>{t("qna.empty")}</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table qna-table">
            <caption className="visually-hidden">{t("qna.caption")}</caption>
            <thead>
              <tr>
                <th scope="col" className="num">
                  {t("qna.columns.number")}
                </th>
                <th scope="col">{t("qna.columns.category")}</th>
                <th scope="col">{t("qna.columns.title")}</th>
                <th scope="col">{t("qna.columns.date")}</th>
                <th scope="col">{t("qna.columns.status")}</th>
              </tr>
            </thead>
            <tbody>
              {list.rows.map((r) => (
                <tr key={r.id}>
                  <td className="num">{r.number}</td>
                  <td className="nowrap">{t(`support.categories.${r.category}`)}</td>
                  <td className="qna-title">
                    <Link to={`/mypage/qna/${r.id}`}>{r.title}</Link>
                    {r.hasAttachment ? <span className="qna-clip"> · {t("qna.hasAttachment")}</span> : null}
                  </td>
                  <td className="nowrap">{r.date}</td>
                  <td>
                    <span className={`qna-status is-${r.status}`}>{t(`qna.status.${r.status}`)}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination page={list.page} pages={list.pages} href={(n) => `/mypage/qna?page=${n}`} />
    </section>
  );
}
