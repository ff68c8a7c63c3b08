import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useId } from "react";
import { DownloadTable, PassLeft } from "../components/downloads";
import { useTranslation } from "../i18n/react";
import { startHandOver } from "../market/downloads/hand-over.server";
import { downloadLibrary, downloadRows } from "../market/downloads/library.server";
import { isWindows } from "../market/downloads/rules";
import { MarketError } from "../market/errors";
import { licenceLabel } from "../market/licenses.server";
import { requireViewer } from "../utils/auth.server";
import { seoulText } from "../utils/dates";
import { chosenIds, positiveId } from "../utils/input.server";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["download", "item", "licenses", "mypage", "orders", "passes", "pay", "price", "purchase", "request"] };

/** The member's licences that can receive downloads, in their order. */
async function memberLicences(context: LoaderFunctionArgs["context"], userId: number) {
  return context.db
    .selectFrom("licenses")
    .select(["id", "serial", "alias", "status", "valid_until", "product_version", "user_id"])
    .where("user_id", "=", userId)
    .orderBy("sort_order")
    .orderBy("id")
    .execute();
}

/** /mypage/download: per licence, what can go to the editor — purchases, pass downloads, free and benefit items. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const licences = await memberLicences(context, viewer.id);
  const wanted = Number(new URL(request.url).searchParams.get("license"));
  const licence = licences.find((l) => l.id === wanted) ?? licences[0] ?? null;
  const library = licence ? await downloadLibrary(context.db, licence.id, context.locale) : null;
  const text = (iso: string) => seoulText(iso, context.locale, "until");
  return {
    licences: licences.map((l) => ({ id: l.id, name: licenceLabel(l) })),
    licenceId: licence?.id ?? null,
    rows: library ? downloadRows(library, context.locale) : [],
    passes: library?.passes.map((p) => ({ ...p, untilText: text(p.expiresAt) })) ?? [],
    windows: isWindows(request.headers.get("user-agent")),
    seo: await pageSeo(request, context, { titleKey: "download.title" }),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

/** Checks the installation, then hands the chosen items to the editor through the bridge page. */
export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const form = await request.formData();
  const licenseId = positiveId.safeParse(form.get("license"));
  const licences = await memberLicences(context, viewer.id);
  const licence = licenseId.success ? licences.find((l) => l.id === licenseId.data) : undefined;
  if (!licence) return data({ error: "download.noLicence" }, { status: 400 });
  try {
    const { token, excluded } = await startHandOver(context.db, {
      license: {
        id: licence.id,
        userId: licence.user_id,
        status: licence.status,
        validUntil: licence.valid_until,
        productVersion: licence.product_version,
      },
      userId: viewer.id,
      selected: chosenIds(form, "item"),
      windows: isWindows(request.headers.get("user-agent")),
      locale: context.locale,
    });
    if (!token) return data({ error: "download.nothing" }, { status: 409 });
    return redirect(`/mypage/download-bridge?token=${token}${excluded ? "&excluded=1" : ""}`);
  } catch (error) {
    if (error instanceof MarketError) return data({ error: `download.error.${error.code}` }, { status: error.status });
    throw error;
  }
}

export default function DownloadsPage() {
  const { licences, licenceId, rows, passes, windows } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation();
  const id = useId();
  return (
    <section className="account-page wide">
      <h1>{t("download.title")}</h1>
      {!windows ? (
        <p className="notice-box" role="note">
          {t("download.error.DOWNLOAD_OS")}
        </p>
      ) : null}
      {licences.length === 0 ? (
        <p>
          {t("download.noLicence")} <Link to="/mypage/licenses">{t("mypage.licenses")}</Link>
        </p>
      ) : (
        <>
          <nav aria-label={t("download.licences")}>
            <ul className="tabs">
              {licences.map((l) => (
                <li key={l.id}>
                  <Link to={`/mypage/download?license=${l.id}`} aria-current={l.id === licenceId ? "page" : undefined}>
                    {l.name}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          {passes.length ? (
            <ul className="chips" aria-label={t("download.passes")}>
              {passes.map((p) => (
                <li key={p.id}>
                  <PassLeft pass={{ ...p, until: p.untilText }} />
                </li>
              ))}
            </ul>
          ) : null}
          <Form method="post" aria-describedby={`${id}-error`}>
            <input type="hidden" name="license" value={licenceId ?? ""} />
            {rows.length === 0 ? <p>{t("download.nothing")}</p> : <DownloadTable rows={rows} />}
            <p id={`${id}-error`} className="field-error" role="alert">
              {result?.error ? t(result.error) : ""}
            </p>
            <p className="pay-actions">
              <button type="submit" className="button" disabled={navigation.state !== "idle" || rows.length === 0}>
                {t("download.submit")}
              </button>
            </p>
          </Form>
        </>
      )}
    </section>
  );
}
