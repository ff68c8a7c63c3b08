import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Form, isRouteErrorResponse, useActionData, useLoaderData, useNavigation, useRouteError } from "@remix-run/react";
import { useId } from "react";
import { z } from "zod";
import { Pagination } from "../components/pagination";
import { fixedT } from "../i18n/i18n.server";
import { useTranslation } from "../i18n/react";
import { activeBenefitIds, benefitEligibility, benefitItems } from "../market/downloads/benefits.server";
import { createBridge, downloadLicenseOf, installationProblem } from "../market/downloads/downloads.server";
import type { LicenseIdentity } from "../market/licenses.server";
import { readEmbeddedLicense } from "./licence.server";

/** The installation check's message key, or null. The webview is the Windows editor, so `windows` is true. */
function installationProblemKey(licence: LicenseIdentity): string | null {
  const code = installationProblem(downloadLicenseOf(licence), true);
  return code ? `download.error.${code}` : null;
}

const query = z.object({ page: z.coerce.number().int().min(1).max(10_000).catch(1) });

/**
 * /mypage/sw/benefit: benefit content (20 a page, newest first) and whether the licence the editor runs can take
 * it — a market account behind the licence and a paid purchase by that account; the page says which is missing.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const identity = await readEmbeddedLicense(request, context);
  if (identity.state !== "ok") throw data(null, { status: identity.state === "invalid" ? 403 : 401 });
  const q = query.parse(Object.fromEntries(new URL(request.url).searchParams));
  const licence = identity.license;
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

// No `headers` export: the layout's (private, no-store; the licence cookie on a first visit) apply as they are.

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const layout = matches.find((m) => m.id === "embedded")?.data as { title?: string } | undefined;
  return [{ title: data?.title ?? layout?.title }, { name: "robots", content: "noindex" }];
};

const ids = z.preprocess((v) => (Array.isArray(v) ? v : v === undefined ? [] : [v]), z.array(z.coerce.number().int().positive()).max(100));

/**
 * Hands the chosen benefit items to the editor (mode "free"): the licence is the webview's own, never a posted
 * one; it must be eligible; only active benefit content goes.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const identity = await readEmbeddedLicense(request, context);
  if (identity.state !== "ok") throw data(null, { status: identity.state === "invalid" ? 403 : 401 });
  const licence = identity.license;
  const form = await request.formData();
  const chosen = ids.safeParse(form.getAll("item"));
  const problem = installationProblemKey(licence);
  if (problem) return data({ error: problem }, { status: 403 });
  const { eligible, reason } = await benefitEligibility(context.db, licence);
  if (!eligible) return data({ error: `embedded.benefitReason.${reason}` }, { status: 403 });
  const selected = [...new Set(chosen.success ? chosen.data : [])];
  const contentIds = await activeBenefitIds(context.db, selected);
  if (contentIds.length === 0) return redirect("/mypage/sw/download/start?none=1&from=benefit");
  const token = await createBridge(context.db, { licenseId: licence.id, userId: licence.userId, contentIds, mode: "free" });
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

/** Inside the layout: without a licence the layout already says why (401/403); anything else is a service error. */
export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  if (isRouteErrorResponse(error) && (error.status === 401 || error.status === 403)) return null;
  return (
    <section className="message-page">
      <h1>{t("errorService.title")}</h1>
      <p role="alert">{t("errorService.message")}</p>
    </section>
  );
}
