import { type ActionFunctionArgs, data, type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useId } from "react";
import { Pagination } from "../components/pagination";
import { fixedT } from "../i18n/i18n.server";
import { useTranslation } from "../i18n/react";
import { pageQuery } from "../market/catalog/queries.server";
import { benefitItems } from "../market/downloads/benefits.server";
import { downloadLicenseOf } from "../market/downloads/downloads.server";
import { startBenefitHandOver } from "../market/downloads/hand-over.server";
import { chosenIds } from "../utils/input.server";
import { installationProblemKey, requireEmbeddedLicense } from "./licence.server";
import { EmbeddedErrorBoundary, embeddedMeta } from "./route-parts";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["item", "orders", "pagination", "passes", "pay", "purchase", "request"] };

/**
 * /mypage/sw/benefit: benefit content (20 a page, newest first) and whether the licence the editor runs can take
 * it — a market account behind the licence and a paid purchase by that account; the page says which is missing.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const licence = await requireEmbeddedLicense(request, context);
  const q = pageQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  const result = await benefitItems(context.db, licence, context.locale, q.page);
  const t = fixedT(context.locale);
  return {
    items: result.items.map((i) => ({ contentId: i.contentId, title: i.title, type: i.type, downloads: i.downloads })),
    total: result.total,
    page: result.page,
    pages: result.pages,
    eligible: result.eligible,
    reason: result.reason,
    problem: installationProblemKey(licence),
    title: `${t("embedded.benefitTitle")} | ${t("embedded.title")}`,
  };
}

export const meta = embeddedMeta;

/** Hands the chosen benefit items to the editor: the licence is the webview's own, never a posted one. */
export async function action({ request, context }: ActionFunctionArgs) {
  const licence = await requireEmbeddedLicense(request, context);
  const selected = chosenIds(await request.formData(), "item");
  const problem = installationProblemKey(licence);
  if (problem) return data({ error: problem }, { status: 403 });
  const { token, refused } = await startBenefitHandOver(context.db, { license: downloadLicenseOf(licence), selected, windows: true });
  if (refused) return data({ error: `embedded.benefitReason.${refused}` }, { status: 403 });
  if (!token) return redirect("/mypage/sw/download/start?none=1&from=benefit");
  return redirect(`/mypage/sw/download/start?token=${token}&from=benefit`);
}

export default function EmbeddedBenefits() {
  const { items, total, page, pages, eligible, reason, problem } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation();
  const id = useId();
  const error = result?.error ?? problem;
  const blocked = !eligible || Boolean(problem);
  return (
    <section className="embedded-download" aria-labelledby="sw-benefit-title">
      <h1 id="sw-benefit-title">{t("embedded.benefitTitle")}</h1>
      <p className="muted">{t("embedded.benefitLead")}</p>
      {eligible ? (
        <p className="notice-box embedded-eligible" role="status">
          {t("embedded.benefitEligible")}
        </p>
      ) : (
        <p className="notice-box embedded-ineligible" role="status">
          {t(`embedded.benefitReason.${reason ?? "needs_purchase"}`)}
        </p>
      )}
      <p className="muted">{t("embedded.benefitCount", { count: total })}</p>
      <Form method="post" aria-describedby={`${id}-error`}>
        {items.length === 0 ? (
          <p>{t("embedded.benefitEmpty")}</p>
        ) : (
          <div className="embedded-table">
            <table className="data-table embedded-items">
              <caption className="visually-hidden">{t("embedded.benefitTitle")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("orders.select")}</th>
                  <th scope="col">{t("orders.contents")}</th>
                  <th scope="col">{t("download.count")}</th>
                </tr>
              </thead>
              <tbody>
                {items.map((i) => (
                  <tr key={i.contentId}>
                    <td>
                      <input
                        type="checkbox"
                        name="item"
                        value={i.contentId}
                        disabled={blocked}
                        aria-label={t("orders.selectLine", { title: i.title })}
                      />
                    </td>
                    <td>
                      {i.title}
                      <br />
                      <small className="muted">{t(`item.types.${i.type}`)}</small>
                    </td>
                    <td>{i.downloads}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <p id={`${id}-error`} className="field-error" role="alert">
          {error ? t(error) : ""}
        </p>
        <p className="pay-actions">
          <button type="submit" className="button" disabled={navigation.state !== "idle" || blocked || items.length === 0}>
            {t("download.submit")}
          </button>
        </p>
      </Form>
      <Pagination page={page} pages={pages} href={(n) => `?page=${n}`} />
    </section>
  );
}

export const ErrorBoundary = EmbeddedErrorBoundary;
