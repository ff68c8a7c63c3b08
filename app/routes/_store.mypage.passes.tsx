import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { useTranslation } from "../i18n/react";
import { listPasses } from "../market/orders/history.server";
import { requireViewer } from "../utils/auth.server";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

const STATUSES = ["available", "expired", "unavailable"] as const;

/** /mypage/passes: the member's passes — remaining of total, status, purchase date, valid days, licence. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const status = z
    .enum(STATUSES)
    .optional()
    .catch(undefined)
    .parse(new URL(request.url).searchParams.get("status") ?? undefined);
  const passes = await listPasses(context.db, { userId: viewer.id }, { status });
  return { passes, status: status ?? null, locale: context.locale, seo: await pageSeo(request, context, { titleKey: "passes.title" }) };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export default function PassesPage() {
  const { passes, status, locale } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const date = (iso: string) =>
    new Intl.DateTimeFormat(locale === "ko" ? "ko-KR" : "en-US", { dateStyle: "medium", timeZone: "Asia/Seoul" }).format(new Date(iso));
  return (
    <section className="account-page wide">
      <h1>{t("passes.title")}</h1>
      <nav aria-label={t("passes.filter")}>
        <ul className="tabs">
          <li>
            <Link to="/mypage/passes" aria-current={status === null ? "page" : undefined}>
              {t("passes.all")}
            </Link>
          </li>
          {STATUSES.map((s) => (
            <li key={s}>
              <Link to={`/mypage/passes?status=${s}`} aria-current={status === s ? "page" : undefined}>
                {t(`passes.state.${s}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {passes.length === 0 ? (
        <p>
          {t("passes.empty")} <Link to="/price">{t("passes.buy")}</Link>
        </p>
      ) : (
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">{t("passes.type")}</th>
              <th scope="col">{t("passes.remaining")}</th>
              <th scope="col">{t("passes.status")}</th>
              <th scope="col">{t("passes.purchased")}</th>
              <th scope="col">{t("passes.validDays")}</th>
              <th scope="col">{t("passes.license")}</th>
            </tr>
          </thead>
          <tbody>
            {passes.map((p) => (
              <tr key={p.id}>
                <td>{t(`price.group.${p.group}`)}</td>
                <td>{`${p.remaining} / ${p.total}`}</td>
                <td>{t(`passes.state.${p.status}`)}</td>
                <td>{date(p.purchasedAt)}</td>
                <td>{t("passes.until", { days: p.validDays, date: date(p.expiresAt) })}</td>
                <td>{p.license ?? "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
