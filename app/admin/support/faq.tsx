import { type ActionFunctionArgs, data, type LinksFunction, type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { useTranslation } from "../../i18n/react";
import { consoleFaqPage, createFaq, nextFaqSort } from "../../market/faq.server";
import { SUPPORT_CATEGORIES } from "../../market/support-rules";
import supportStyles from "../../styles/admin-support.css";
import { actorOf, domainCall, requireOperator } from "../guard.server";
import { AdminPagination, TableScroll } from "../parts";
import { FaqFields, type FaqValues } from "./faq-fields";
import { faqProblem, faqQuerySchema, faqSchema, formObject } from "./forms.server";

export { AdminError as ErrorBoundary } from "../parts";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: supportStyles }];

/** /admin/publishing/faq: every FAQ entry (hidden ones too) by category and keyword, and the form that adds one. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, "publishing");
  const q = faqQuerySchema.parse(formObject(new URL(request.url).searchParams));
  const list = await consoleFaqPage(context.db, { category: q.category, keyword: q.keyword || undefined, page: q.page });
  return { query: { category: q.category ?? "", keyword: q.keyword ?? "" }, list };
}

/** Adds an entry (createFaq writes it with its audit line) and opens it; bad input comes back as typed. */
export async function action({ request, context }: ActionFunctionArgs) {
  const op = await requireOperator(request, context, "publishing");
  const form = formObject(await request.formData());
  const values: FaqValues = {
    category: form.category ?? "",
    sort: (form.sort ?? "").slice(0, 20),
    questionKo: (form.questionKo ?? "").slice(0, 1000),
    questionEn: (form.questionEn ?? "").slice(0, 1000),
    answerKo: (form.answerKo ?? "").slice(0, 10_000),
    answerEn: (form.answerEn ?? "").slice(0, 10_000),
    hidden: form.hidden === "1" ? "1" : "",
  };
  const parsed = faqSchema.safeParse(form);
  if (form.intent !== "create" || !parsed.success)
    return data({ problem: parsed.success ? "invalid" : faqProblem(parsed.error.issues), values }, { status: 400 });
  const f = parsed.data;
  const id = await domainCall(async () =>
    createFaq(context.db, { ...f, sort: f.sort ?? (await nextFaqSort(context.db)) }, actorOf(op, context)),
  );
  return redirect(`/admin/publishing/faq/${id}?created=1`);
}

export default function FaqList() {
  const { query, list } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const [params] = useSearchParams();
  const { t, i18n } = useTranslation();
  const kept = Object.fromEntries(Object.entries(query).filter(([, v]) => v));
  const href = (n: number) => `?${new URLSearchParams({ ...kept, page: String(n) })}`;
  const deleted = params.get("deleted");
  return (
    <main className="admin-page">
      <h1>{t("admin.support.faq.title")}</h1>
      <p>{t("admin.support.faq.lead")}</p>
      {deleted ? (
        <p role="status" className="admin-ok">
          {t("admin.support.faq.deleted", { id: deleted.slice(0, 12) })}
        </p>
      ) : null}
      <p>
        <a href="#faq-add">{t("admin.support.faq.add.jump")}</a> ·{" "}
        <Link to="/admin/publishing/guide">{t("admin.support.guide.title")}</Link>
      </p>
      <Form method="get" className="admin-filters" aria-label={t("admin.support.faq.filter")}>
        <label>
          {t("admin.support.faq.fields.category")}
          <select name="category" defaultValue={query.category}>
            <option value="">{t("admin.support.inquiries.allCategories")}</option>
            {SUPPORT_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {t(`admin.support.categories.${c}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("admin.support.faq.keyword")}
          <input type="search" name="keyword" maxLength={50} defaultValue={query.keyword} />
        </label>
        <button type="submit">{t("admin.support.inquiries.apply")}</button>
        <Link to="/admin/publishing/faq">{t("admin.support.inquiries.reset")}</Link>
      </Form>
      <p>{t("admin.support.faq.count", { count: list.total })}</p>
      {list.rows.length === 0 ? (
        <p>{t("admin.support.faq.empty")}</p>
      ) : (
        <TableScroll>
          <table className="admin-table">
            <caption>{t("admin.support.faq.caption")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("admin.support.faq.columns.sort")}</th>
                <th scope="col">{t("admin.support.faq.columns.category")}</th>
                <th scope="col">{t("admin.support.faq.columns.questionKo")}</th>
                <th scope="col">{t("admin.support.faq.columns.questionEn")}</th>
                <th scope="col">{t("admin.support.faq.columns.state")}</th>
              </tr>
            </thead>
            <tbody>
              {list.rows.map((r) => (
                <tr key={r.id}>
                  <td className="num">{r.sort}</td>
                  <td>{t(`admin.support.categories.${r.category}`)}</td>
                  <td lang="ko">
                    {i18n.language === "ko" ? <Link to={`/admin/publishing/faq/${r.id}`}>{r.questionKo}</Link> : r.questionKo}
                  </td>
                  <td lang="en">
                    {i18n.language === "ko" ? r.questionEn : <Link to={`/admin/publishing/faq/${r.id}`}>{r.questionEn}</Link>}
                  </td>
                  <td>{r.hidden ? t("admin.support.faq.hiddenState") : t("admin.support.faq.shownState")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <AdminPagination page={list.page} pages={list.pages} href={href} />
      <h2 id="faq-add">{t("admin.support.faq.add.heading")}</h2>
      <Form method="post" className="admin-form admin-support-form" aria-labelledby="faq-add" key={result ? "retry" : "new"}>
        <input type="hidden" name="intent" value="create" />
        {result?.problem ? (
          <p id="faq-add-problem" role="alert" className="admin-alert">
            {t(`admin.support.faq.problems.${result.problem}`)}
          </p>
        ) : null}
        <FaqFields values={result?.values ?? {}} problem={result?.problem ?? null} idPrefix="faq-add" />
        <button type="submit">{t("admin.support.faq.add.submit")}</button>
      </Form>
    </main>
  );
}
