import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "../../i18n/react";
import { adminKeywords, keywordProblem, moveKeyword, saveKeyword, setKeywordVisible } from "../../market/publishing/keywords.server";
import { PUBLISHING_PAGES } from "../../market/publishing/pages";
import { formObject } from "../forms.server";
import { actorOf, domainCall, requireOperator } from "../guard.server";
import { idParam, pageFilter, parseKeyword, rowChangeSchema } from "./forms.server";

export { AdminError as ErrorBoundary } from "../parts";

/**
 * /admin/publishing/keywords?page=: the popular keywords of a page (under the search box and as the search's
 * recommended words), in order, shown or hidden: add, rename, move, show or hide.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, "publishing");
  const page = pageFilter.parse(new URL(request.url).searchParams.get("page") ?? undefined) ?? "home";
  const rows = await adminKeywords(context.db, page);
  return {
    page,
    rows: rows.map((r) => ({ id: r.id, ko: r.keyword_ko, en: r.keyword_en, visible: r.visible === 1 })),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const op = await requireOperator(request, context, "publishing");
  const form = formObject(await request.formData());
  const none = null as { keyword_ko: string; keyword_en: string } | null;
  const actor = actorOf(op, context);
  if (form.intent === "create" || form.intent === "update") {
    const values = { keyword_ko: form.keyword_ko ?? "", keyword_en: form.keyword_en ?? "" };
    const draft = parseKeyword(form);
    const id = form.intent === "update" ? idParam.safeParse(form.id ?? "") : null;
    if (!draft || keywordProblem(draft) || (id && !id.success))
      return data({ ok: false as const, problem: "keyword", values, rowId: form.id ?? null }, { status: 400 });
    await domainCall(() => saveKeyword(context.db, actor, id?.success ? id.data : null, draft));
    return { ok: true as const, problem: null, values: none, rowId: null };
  }
  const parsed = rowChangeSchema.safeParse(form);
  if (!parsed.success) return data({ ok: false as const, problem: "row", values: none, rowId: null }, { status: 400 });
  const { intent, id } = parsed.data;
  await domainCall(() =>
    intent === "show" || intent === "hide"
      ? setKeywordVisible(context.db, actor, id, intent === "show")
      : moveKeyword(context.db, actor, id, intent),
  );
  return { ok: true as const, problem: null, values: none, rowId: null };
}

export default function AdminKeywords() {
  const { page, rows } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { t } = useTranslation();
  const created = result && !result.ok && result.rowId === null ? result.values : null;
  return (
    <main className="admin-page">
      <p>
        <Link to="/admin/publishing">{t("admin.publishing.back")}</Link>
      </p>
      <h1>{t("admin.publishing.keywords.title")}</h1>
      <p>{t("admin.publishing.keywords.lead")}</p>
      {result?.ok ? (
        <p role="status" className="admin-ok">
          {t("admin.publishing.saved")}
        </p>
      ) : null}
      {result && !result.ok ? (
        <p role="alert" className="admin-alert">
          {t(`admin.publishing.problems.${result.problem}`)}
        </p>
      ) : null}
      <Form method="get" className="admin-filters">
        <label>
          {t("admin.publishing.fields.page")}
          <select name="page" defaultValue={page}>
            {PUBLISHING_PAGES.map((p) => (
              <option key={p} value={p}>
                {t(`admin.publishing.pages.${p}`)}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">{t("admin.publishing.filter")}</button>
      </Form>
      <div className="admin-table-scroll">
        <table className="admin-table">
          <caption>{t("admin.publishing.keywords.caption", { page: t(`admin.publishing.pages.${page}`) })}</caption>
          <thead>
            <tr>
              <th scope="col">{t("admin.publishing.keywords.words")}</th>
              <th scope="col">{t("admin.publishing.columns.state")}</th>
              <th scope="col">{t("admin.publishing.columns.change")}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id}>
                <td>
                  <Form method="post" className="admin-inline-form">
                    <input type="hidden" name="intent" value="update" />
                    <input type="hidden" name="id" value={r.id} />
                    <input type="hidden" name="page" value={page} />
                    {r.visible ? <input type="hidden" name="visible" value="1" /> : null}
                    <label>
                      <span className="visually-hidden">{t("admin.publishing.fields.keywordKo")}</span>
                      <input name="keyword_ko" lang="ko" required maxLength={40} defaultValue={r.ko} />
                    </label>
                    <label>
                      <span className="visually-hidden">{t("admin.publishing.fields.keywordEn")}</span>
                      <input name="keyword_en" lang="en" required maxLength={40} defaultValue={r.en} />
                    </label>
                    <button type="submit" aria-label={t("admin.publishing.saveOf", { title: r.en })}>
                      {t("admin.publishing.keywords.save")}
                    </button>
                  </Form>
                </td>
                <td>{r.visible ? t("admin.publishing.state.shown") : t("admin.publishing.state.hidden")}</td>
                <td>
                  <Form method="post" className="admin-inline-form">
                    <input type="hidden" name="id" value={r.id} />
                    <button type="submit" name="intent" value="up" aria-label={t("admin.publishing.moveUpOf", { title: r.en })}>
                      {t("admin.publishing.moveUp")}
                    </button>
                    <button type="submit" name="intent" value="down" aria-label={t("admin.publishing.moveDownOf", { title: r.en })}>
                      {t("admin.publishing.moveDown")}
                    </button>
                    <button
                      type="submit"
                      name="intent"
                      value={r.visible ? "hide" : "show"}
                      aria-label={t(r.visible ? "admin.publishing.hideOf" : "admin.publishing.showOf", { title: r.en })}
                    >
                      {r.visible ? t("admin.publishing.hide") : t("admin.publishing.show")}
                    </button>
                  </Form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h2>{t("admin.publishing.keywords.add")}</h2>
      <Form method="post" className="admin-form">
        <input type="hidden" name="intent" value="create" />
        <input type="hidden" name="page" value={page} />
        <input type="hidden" name="visible" value="1" />
        <label>
          {t("admin.publishing.fields.keywordKo")}
          <input name="keyword_ko" lang="ko" required maxLength={40} defaultValue={created?.keyword_ko ?? ""} />
        </label>
        <label>
          {t("admin.publishing.fields.keywordEn")}
          <input name="keyword_en" lang="en" required maxLength={40} defaultValue={created?.keyword_en ?? ""} />
        </label>
        <button type="submit">{t("admin.publishing.keywords.create")}</button>
      </Form>
    </main>
  );
}
