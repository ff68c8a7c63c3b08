import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "../../i18n/react";
import { findMembers } from "../../market/users/lookup.server";
import membersStyles from "../../styles/admin-members.css";
import { seoulText } from "../../utils/dates";
import { formObject } from "../forms.server";
import { requireOperator } from "../guard.server";
import { AdminPagination, TableScroll } from "../parts";
import { memberSearchSchema } from "./members.server";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["licenses"] };

export { AdminError as ErrorBoundary } from "../parts";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: membersStyles }];

/** /admin/members (support, admin): members by e-mail or nickname, licences by key; the newest members first. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, "members");
  const url = new URL(request.url);
  const { q, page } = memberSearchSchema.parse(formObject(url.searchParams));
  const found = await findMembers(context.db, q, page);
  return {
    q,
    withdrawn: url.searchParams.get("withdrawn") === "1",
    found: { ...found, rows: found.rows.map((r) => ({ ...r, createdAt: seoulText(r.createdAt, context.locale, "date") })) },
  };
}

export default function Members() {
  const { q, withdrawn, found } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const href = (n: number) => `/admin/members?${new URLSearchParams({ ...(q ? { q } : {}), page: String(n) })}`;
  return (
    <main className="admin-page">
      <h1>{t("admin.members.title")}</h1>
      <p>{t("admin.members.lead")}</p>
      {withdrawn ? (
        <p role="status" className="admin-ok">
          {t("admin.members.withdraw.done")}
        </p>
      ) : null}
      <Form method="get" className="admin-filters" role="search">
        <label>
          {t("admin.members.search.label")}
          <input type="search" name="q" defaultValue={q} maxLength={100} aria-describedby="member-search-hint" />
        </label>
        <button type="submit">{t("admin.members.search.submit")}</button>
      </Form>
      <p id="member-search-hint" className="admin-hint">
        {t("admin.members.search.hint")}
      </p>
      {found.licences.length ? (
        <TableScroll>
          <table className="admin-table">
            <caption>{t("admin.members.licences.found", { count: found.licences.length })}</caption>
            <thead>
              <tr>
                <th scope="col">{t("admin.members.licences.serial")}</th>
                <th scope="col">{t("admin.members.licences.owner")}</th>
                <th scope="col">{t("admin.members.licences.email")}</th>
                <th scope="col">{t("admin.members.licences.type")}</th>
                <th scope="col">{t("admin.members.licences.status")}</th>
              </tr>
            </thead>
            <tbody>
              {found.licences.map((l) => (
                <tr key={l.id}>
                  <td className="nowrap">{l.serial}</td>
                  <td>
                    {l.userId ? (
                      <Link to={`/admin/members/${l.userId}`}>{l.memberEmail}</Link>
                    ) : (
                      t(`admin.members.ownerKind.${l.ownerKind}`)
                    )}
                  </td>
                  <td>{l.email}</td>
                  <td>{t(`admin.members.licenceType.${l.licenseType}`)}</td>
                  <td>{t(`admin.members.licenceStatus.${l.status}`)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
      <TableScroll>
        <table className="admin-table">
          <caption>{q ? t("admin.members.results", { count: found.total, q }) : t("admin.members.newest", { count: found.total })}</caption>
          <thead>
            <tr>
              <th scope="col">{t("admin.members.columns.email")}</th>
              <th scope="col">{t("admin.members.columns.nickname")}</th>
              <th scope="col">{t("admin.members.columns.type")}</th>
              <th scope="col">{t("admin.members.columns.joined")}</th>
            </tr>
          </thead>
          <tbody>
            {found.rows.length === 0 ? (
              <tr>
                <td colSpan={4}>{t("admin.members.none")}</td>
              </tr>
            ) : (
              found.rows.map((r) => (
                <tr key={r.id}>
                  <td>
                    <Link to={`/admin/members/${r.id}`}>{r.email}</Link>
                  </td>
                  <td>{r.nickname}</td>
                  <td>{t(`admin.members.userType.${r.userType === 2 ? "business" : "individual"}`)}</td>
                  <td className="nowrap">{r.createdAt}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </TableScroll>
      <AdminPagination page={found.page} pages={found.pages} href={href} />
    </main>
  );
}
