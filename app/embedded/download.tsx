import { type ActionFunctionArgs, data, type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useId } from "react";
import { DownloadTable, PassLeft } from "../components/downloads";
import { fixedT } from "../i18n/i18n.server";
import { useTranslation } from "../i18n/react";
import { downloadLicenseOf } from "../market/downloads/downloads.server";
import { startHandOver } from "../market/downloads/hand-over.server";
import { downloadLibrary, downloadRows } from "../market/downloads/library.server";
import { isMacOs } from "../market/downloads/rules";
import { MarketError } from "../market/errors";
import { licenceLabel } from "../market/licenses.server";
import { seoulText } from "../utils/dates";
import { chosenIds } from "../utils/input.server";
import { installationProblemKey, requireEmbeddedLicense } from "./licence.server";
import { EmbeddedErrorBoundary, embeddedMeta } from "./route-parts";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["item", "licenses", "orders", "passes", "pay", "price", "purchase", "request"] };

/**
 * /mypage/sw/download: what the licence the editor runs can download — purchases and pass downloads with their
 * end dates (expired and discontinued ones shown, not selectable), free and benefit items it took before, and its
 * passes left — and a plain form that hands the chosen items to the editor through /mypage/sw/download/start.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const licence = await requireEmbeddedLicense(request, context);
  const locale = context.locale;
  const library = await downloadLibrary(context.db, licence.id, locale);
  const text = (iso: string) => seoulText(iso, locale, "until");
  const t = fixedT(locale);
  // Dates are spelled on the server only: Node's ICU and the webview's can differ (utils/dates.ts).
  return {
    rows: downloadRows(library, locale),
    passes: library.passes.map((p) => ({
      id: p.id,
      group: p.group,
      remaining: p.remaining,
      total: p.total,
      status: p.status,
      until: text(p.expiresAt),
    })),
    problem: installationProblemKey(licence),
    mac: isMacOs(request.headers.get("user-agent")),
    licence: licenceLabel(licence),
    title: `${t("download.title")} | ${t("embedded.title")}`,
  };
}

export const meta = embeddedMeta;

/**
 * Hands the chosen items to the editor. The licence is the webview's own (headers or signed cookie), never a
 * posted one; only what it holds within its period (or took for free before) goes, the rest is left out and the
 * start page says so.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const licence = await requireEmbeddedLicense(request, context);
  const selected = chosenIds(await request.formData(), "item");
  const problem = installationProblemKey(licence);
  if (problem) return data({ error: problem }, { status: 403 });
  let handed: Awaited<ReturnType<typeof startHandOver>>;
  try {
    handed = await startHandOver(context.db, {
      license: downloadLicenseOf(licence),
      userId: licence.userId,
      selected,
      // The webview on a Mac is refused like the storefront (spec section 6); other webviews are the Windows editor's.
      windows: !isMacOs(request.headers.get("user-agent")),
      locale: context.locale,
    });
  } catch (error) {
    if (error instanceof MarketError) return data({ error: `download.error.${error.code}` }, { status: error.status });
    throw error;
  }
  const { token, excluded } = handed;
  if (!token) return redirect("/mypage/sw/download/start?none=1");
  return redirect(`/mypage/sw/download/start?token=${token}${excluded ? "&excluded=1" : ""}`);
}

export default function EmbeddedDownloads() {
  const { rows, passes, problem, licence, mac } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation();
  const id = useId();
  const selectable = rows.some((r) => !r.expired && !r.discontinued);
  const error = result?.error ?? problem;
  return (
    <section className="embedded-download" aria-labelledby="sw-download-title">
      <h1 id="sw-download-title">{t("download.title")}</h1>
      <p className="muted">{t("embedded.downloadLead", { licence })}</p>
      {mac ? (
        <p className="notice-box notice-error" role="alert">
          {t("download.error.DOWNLOAD_OS")}
        </p>
      ) : null}
      <h2 className="embedded-subtitle">{t("download.passes")}</h2>
      {passes.length ? (
        <ul className="embedded-passes">
          {passes.map((p) => (
            <li key={p.id}>
              <PassLeft pass={p} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">{t("embedded.noPasses")}</p>
      )}
      <Form method="post" aria-describedby={`${id}-error`}>
        {rows.length === 0 ? <p>{t("download.nothing")}</p> : <DownloadTable rows={rows} />}
        <p id={`${id}-error`} className="field-error" role="alert">
          {error ? t(error) : ""}
        </p>
        <p className="pay-actions">
          <button type="submit" className="button" disabled={navigation.state !== "idle" || !selectable || Boolean(problem)}>
            {t("download.submit")}
          </button>
        </p>
      </Form>
    </section>
  );
}

export const ErrorBoundary = EmbeddedErrorBoundary;
