import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "../i18n/react";
import { formatMoney } from "../market/money";
import { memberSummary } from "../market/users/summary.server";
import { requireViewer } from "../utils/auth.server";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["embedded", "mypage", "qna"] };

/** /mypage/home (and /mypage): passes, payments, downloads, favorites and licences at a glance. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const [summary, seo] = await Promise.all([
    memberSummary(context.db, viewer.id, context.locale),
    pageSeo(request, context, { titleKey: "mypage.title" }),
  ]);
  return { nickname: viewer.nickname, summary, seo, locale: context.locale };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export default function MyPageHome() {
  const { nickname, summary, locale } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const date = (iso: string) =>
    new Intl.DateTimeFormat(locale === "ko" ? "ko-KR" : "en-US", { dateStyle: "medium", timeZone: "Asia/Seoul" }).format(new Date(iso));
  const tiles = [
    ["mypage.passes", summary.activePasses, "/mypage/passes"],
    ["mypage.orders", summary.orders, "/mypage/pay"],
    ["mypage.downloads", summary.downloads, "/mypage/download"],
    ["mypage.favorites", summary.favorites, "/mypage/interest"],
    ["mypage.cart", summary.cart, "/cart"],
    ["qna.title", summary.inquiries, "/mypage/qna"],
  ] as const;
  return (
    <section>
      <h1>{t("mypage.greeting", { name: nickname })}</h1>
      {/* No licence: the store's bar above every page says so, once (issue 26.8). */}
      <ul className="summary-tiles">
        {tiles.map(([key, value, href]) => (
          <li key={key}>
            <span className="muted">{t(key)}</span>
            {href ? (
              <Link to={href} className="tile-value">
                {value}
              </Link>
            ) : (
              <span className="tile-value">{value}</span>
            )}
          </li>
        ))}
      </ul>
      <section className="section" aria-labelledby="mp-licenses">
        <h2 id="mp-licenses">{t("mypage.licenses")}</h2>
        {summary.licenses.length ? (
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">{t("mypage.alias")}</th>
                <th scope="col">{t("mypage.serial")}</th>
                <th scope="col">{t("mypage.status")}</th>
                <th scope="col">{t("mypage.validUntil")}</th>
              </tr>
            </thead>
            <tbody>
              {summary.licenses.map((l) => (
                <tr key={l.id}>
                  <td>{l.alias ?? "—"}</td>
                  <td>{l.serial}</td>
                  <td>{t(`embedded.licenseStatus.${l.status}`)}</td>
                  <td>{l.valid_until ? date(l.valid_until) : t("mypage.permanent")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p>{t("mypage.noLicenses")}</p>
        )}
      </section>
      <section className="section" aria-labelledby="mp-orders">
        <h2 id="mp-orders">{t("mypage.recentOrders")}</h2>
        {summary.recentOrders.length ? (
          <ul>
            {summary.recentOrders.map((o) => (
              <li key={o.order_no}>
                {date(o.ptime ?? o.created_at)} · <Link to={`/mypage/pay/${o.id}`}>{o.name}</Link> · {o.order_no} ·{" "}
                {formatMoney(o.total, o.currency as "KRW" | "USD", locale)}
              </li>
            ))}
          </ul>
        ) : (
          <p>{t("mypage.noOrders")}</p>
        )}
      </section>
      <p>
        <Link to="/mypage/member">{t("mypage.member")}</Link> · <Link to="/mypage/qna">{t("qna.title")}</Link>
      </p>
    </section>
  );
}
