import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { useTranslation } from "../i18n/react";
import { listPasses } from "../market/orders/history.server";
import type { PassState } from "../market/pass-status";
import { requireViewer } from "../utils/auth.server";
import { seoulText } from "../utils/dates";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["licenses", "passes", "price"] };

/**
 * Status filter and sort, with the spec's defaults (section 9: pass status default 2, sort default 1): status
 * codes 1 all, 2 available, 3 expired, 4 unavailable, and 5 used up (0 left while still valid, issue 26.5); the
 * statuses' names (all, available, used_up, expired, unavailable) are read too, so /mypage/passes?status=all
 * lists them all. Sort 1 newest purchase first, 2 soonest expiry first. The statuses come from passState.
 */
const TABS = [
  ["2", "available"],
  ["5", "used_up"],
  ["3", "expired"],
  ["4", "unavailable"],
  ["1", "all"],
] as const;
type TabCode = (typeof TABS)[number][0];
const CODE_OF: Record<string, TabCode> = Object.fromEntries(
  TABS.flatMap(([code, name]) => [
    [code, code],
    [name, code],
  ]),
);
const STATUS_OF: Record<TabCode, PassState | undefined> = {
  "1": undefined,
  "2": "available",
  "3": "expired",
  "4": "unavailable",
  "5": "used_up",
};
const query = z.object({
  status: z
    .string()
    .transform((v) => CODE_OF[v.trim().toLowerCase()] ?? "2")
    .catch("2"),
  sort: z.enum(["1", "2"]).catch("1"),
});

/** /mypage/passes: the member's passes — remaining of total, status, purchase date, valid days, licence. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const q = query.parse({ status: "2", sort: "1", ...Object.fromEntries(new URL(request.url).searchParams) });
  const passes = await listPasses(context.db, { userId: viewer.id }, { status: STATUS_OF[q.status], sort: q.sort === "2" ? 2 : 1 });
  // Dates are spelled on the server only (utils/dates.ts): the purchase a day of record, the end a deadline (zoned).
  return {
    passes: passes.map((p) => ({
      ...p,
      purchasedText: seoulText(p.purchasedAt, context.locale, "date"),
      untilText: seoulText(p.expiresAt, context.locale, "until"),
    })),
    status: q.status,
    sort: q.sort,
    seo: await pageSeo(request, context, { titleKey: "passes.title" }),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export default function PassesPage() {
  const { passes, status, sort } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <section className="account-page wide">
      <h1>{t("passes.title")}</h1>
      <nav aria-label={t("passes.filter")}>
        <ul className="tabs">
          {TABS.map(([code, key]) => (
            <li key={code}>
              <Link to={`/mypage/passes?status=${code}&sort=${sort}`} aria-current={status === code ? "page" : undefined}>
                {key === "all" ? t("passes.all") : t(`passes.state.${key}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <p className="pass-sort">
        {(["1", "2"] as const).map((code) => (
          <Link key={code} to={`/mypage/passes?status=${status}&sort=${code}`} aria-current={sort === code ? "true" : undefined}>
            {t(`passes.sort.${code}`)}
          </Link>
        ))}
      </p>
      {passes.length === 0 ? (
        <p>
          {t("passes.empty")} <Link to="/price">{t("passes.buy")}</Link>
        </p>
      ) : (
        <table className="data-table stack-table">
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
                <td data-label={t("passes.type")}>{t(`price.group.${p.group}`)}</td>
                <td data-label={t("passes.remaining")}>{`${p.remaining} / ${p.total}`}</td>
                <td data-label={t("passes.status")}>{t(`passes.state.${p.status}`)}</td>
                <td data-label={t("passes.purchased")}>{p.purchasedText}</td>
                <td data-label={t("passes.validDays")}>{t("passes.until", { days: p.validDays, date: p.untilText })}</td>
                <td data-label={t("passes.license")}>{p.license ?? "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
