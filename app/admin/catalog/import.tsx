import { type ActionFunctionArgs, data, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "../../i18n/react";
import { IMPORT_COLUMNS, IMPORT_FORM_LIMITS, importCatalogSheet, importCodes } from "../../market/catalog/import.server";
import catalogStyles from "../../styles/admin-catalog.css";
import { readBoundedForm } from "../../utils/multipart.server";
import { actorOf, requireOperator } from "../guard.server";
import { TableScroll } from "../parts";

export { AdminError as ErrorBoundary } from "../parts";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: catalogStyles }];

/**
 * /admin/catalog/import (catalog, admin): items from a CSV or XLSX sheet, one a row. The valid rows are created in
 * one transaction; the page then lists them and the rejected rows with their number and reason.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, "catalog");
  const codes = await importCodes(context.db);
  return {
    columns: IMPORT_COLUMNS.join(", "),
    codes: codes.map((c) => ({ ...c, name: context.locale === "ko" ? c.nameKo : c.nameEn })),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const op = await requireOperator(request, context, "catalog");
  const { form, oversized, truncated } = await readBoundedForm(request, IMPORT_FORM_LIMITS);
  if (truncated || oversized.includes("sheet")) return data({ ok: false as const, refusal: "too_large" }, { status: 400 });
  const sheet = form.get("sheet");
  const file = sheet instanceof File && sheet.size > 0 ? { name: sheet.name, bytes: new Uint8Array(await sheet.arrayBuffer()) } : null;
  const result = await importCatalogSheet(context.db, actorOf(op, context), file);
  if (!result.ok) return data({ ok: false as const, refusal: result.refusal }, { status: result.refusal === "busy" ? 503 : 400 });
  return { ok: true as const, report: result.report };
}

export default function CatalogImport() {
  const { columns, codes } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const { t } = useTranslation();
  const busy = useNavigation().state !== "idle";
  const report = answer?.ok ? answer.report : null;
  return (
    <main className="admin-page">
      <p>
        <Link to="/admin/catalog">{t("admin.catalog.item.back")}</Link>
      </p>
      <h1>{t("admin.catalog.import.title")}</h1>
      <p>{t("admin.catalog.import.lead")}</p>
      <Form method="post" encType="multipart/form-data" className="catalog-form">
        {answer && !answer.ok ? (
          <p role="alert" className="admin-alert">
            {t(`admin.catalog.import.sheet.${answer.refusal}`)}
          </p>
        ) : null}
        <label>
          {t("admin.catalog.import.file")}
          <input type="file" name="sheet" required accept=".csv,text/csv,.xlsx" aria-describedby="import-hint" />
        </label>
        <p id="import-hint" className="admin-hint">
          {t("admin.catalog.import.hint", { columns })}
        </p>
        <button type="submit" disabled={busy} aria-busy={busy}>
          {t("admin.catalog.import.submit")}
        </button>
      </Form>
      {report ? (
        <section aria-labelledby="import-result">
          <h2 id="import-result" role="status">
            {t("admin.catalog.import.summary", { total: report.total, accepted: report.accepted.length, rejected: report.rejected.length })}
          </h2>
          {report.accepted.length ? (
            <TableScroll>
              <table className="admin-table">
                <caption>{t("admin.catalog.import.acceptedCaption")}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t("admin.catalog.import.row")}</th>
                    <th scope="col">{t("admin.catalog.fields.code")}</th>
                    <th scope="col">{t("admin.catalog.fields.titleKo")}</th>
                    <th scope="col">{t("admin.catalog.fields.titleEn")}</th>
                  </tr>
                </thead>
                <tbody>
                  {report.accepted.map((a) => (
                    <tr key={a.id}>
                      <td className="num">{a.row}</td>
                      <td>
                        <Link to={`/admin/catalog/${a.id}`}>{a.code}</Link>
                      </td>
                      <td lang="ko">{a.titleKo}</td>
                      <td lang="en">{a.titleEn}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          ) : (
            <p>{t("admin.catalog.import.nothing")}</p>
          )}
          {report.rejected.length ? (
            <TableScroll>
              <table className="admin-table">
                <caption>{t("admin.catalog.import.rejectedCaption")}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t("admin.catalog.import.row")}</th>
                    <th scope="col">{t("admin.catalog.import.reason")}</th>
                  </tr>
                </thead>
                <tbody>
                  {report.rejected.map((r) => (
                    <tr key={r.row}>
                      <td className="num">{r.row}</td>
                      <td>{t(`admin.catalog.import.problems.${r.problem}`)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          ) : null}
        </section>
      ) : null}
      <h2>{t("admin.catalog.import.codesHeading")}</h2>
      <TableScroll>
        <table className="admin-table">
          <caption>{t("admin.catalog.import.codesCaption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("admin.catalog.import.column")}</th>
              <th scope="col">{t("admin.catalog.fields.type")}</th>
              <th scope="col">{t("admin.catalog.fields.code")}</th>
              <th scope="col">{t("admin.catalog.import.name")}</th>
            </tr>
          </thead>
          <tbody>
            {codes.map((c) => (
              <tr key={`${c.kind}-${c.space}-${c.code}`}>
                <td>{c.kind}</td>
                <td>{c.kind === "category" ? t(`admin.catalog.types.${c.space}`) : "—"}</td>
                <td>
                  <code>{c.code}</code>
                </td>
                <td>{c.name}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </main>
  );
}
