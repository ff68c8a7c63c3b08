import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { KeywordChips } from "../../components/keyword-chips";
import { useTranslation } from "../../i18n/react";
import {
  adminKeywords,
  keywordProblem,
  moveKeyword,
  previewKeywords,
  saveKeyword,
  setKeywordVisible,
} from "../../market/publishing/keywords.server";
import { formObject } from "../forms.server";
import { actorOf, domainCall, requireOperator } from "../guard.server";
import { DataTable, Done, Problem } from "../parts";
import { idParam, pageFilter, parseKeyword, rowChangeSchema } from "./forms.server";
import { PageSelect, PreviewPane, PublishingHead, ReorderButtons } from "./parts";

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
  const noPreview = null as { ko: string[]; en: string[] } | null;
  const actor = actorOf(op, context);
  if (form.intent === "create" || form.intent === "update" || form.intent === "preview") {
    const values = { keyword_ko: form.keyword_ko ?? "", keyword_en: form.keyword_en ?? "" };
    const draft = parseKeyword(form);
    // A row's form sends its id; the new keyword's form sends none.
    const id = form.intent === "update" || (form.intent === "preview" && form.id) ? idParam.safeParse(form.id ?? "") : null;
    if (!draft || keywordProblem(draft) || (id && !id.success))
      return data({ ok: false as const, problem: "keyword", values, rowId: form.id ?? null, preview: noPreview }, { status: 400 });
    const rowId = id?.success ? id.data : null;
    if (form.intent === "preview") {
      // Nothing is saved: the page's chips as they would show with the draft, in both languages.
      const preview = previewKeywords(await adminKeywords(context.db, draft.page), rowId, draft);
      return { ok: true as const, problem: null, values, rowId: rowId === null ? null : String(rowId), preview };
    }
    await domainCall(() => saveKeyword(context.db, actor, rowId, draft));
    return { ok: true as const, problem: null, values: none, rowId: null, preview: noPreview };
  }
  const parsed = rowChangeSchema.safeParse(form);
  if (!parsed.success) return data({ ok: false as const, problem: "row", values: none, rowId: null, preview: noPreview }, { status: 400 });
  const { intent, id } = parsed.data;
  await domainCall(() =>
    intent === "show" || intent === "hide"
      ? setKeywordVisible(context.db, actor, id, intent === "show")
      : moveKeyword(context.db, actor, id, intent),
  );
  return { ok: true as const, problem: null, values: none, rowId: null, preview: noPreview };
}

export default function AdminKeywords() {
  const { page, rows } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { t } = useTranslation();
  const created = result && (!result.ok || result.preview) && result.rowId === null ? result.values : null;
  return (
    <main className="admin-page">
      <PublishingHead title={t("admin.publishing.keywords.title")} lead={t("admin.publishing.keywords.lead")} />
      <Done text={result?.ok && !result.preview ? t("admin.publishing.saved") : null} />
      <Problem text={result && !result.ok ? t(`admin.publishing.problems.${result.problem}`) : null} />
      <Form method="get" className="admin-filters">
        <PageSelect value={page} />
        <button type="submit">{t("admin.publishing.filter")}</button>
      </Form>
      <DataTable
        caption={t("admin.publishing.keywords.caption", { page: t(`admin.publishing.pages.${page}`) })}
        columns={[t("admin.publishing.keywords.words"), t("admin.publishing.columns.state"), t("admin.publishing.columns.change")]}
        rows={rows}
        row={(r) => (
          <tr key={r.id}>
            <td>
              <Form method="post" className="admin-inline-form">
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
                <button type="submit" name="intent" value="update" aria-label={t("admin.publishing.saveOf", { title: r.en })}>
                  {t("admin.publishing.keywords.save")}
                </button>
                <button type="submit" name="intent" value="preview" aria-label={t("admin.publishing.keywords.previewOf", { title: r.en })}>
                  {t("admin.publishing.preview.button")}
                </button>
              </Form>
            </td>
            <td>{r.visible ? t("admin.publishing.state.shown") : t("admin.publishing.state.hidden")}</td>
            <td>
              <ReorderButtons id={r.id} title={r.en} visible={r.visible} />
            </td>
          </tr>
        )}
      />
      <h2>{t("admin.publishing.keywords.add")}</h2>
      <Form method="post" className="admin-form">
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
        <p className="publishing-actions">
          <button type="submit" name="intent" value="create">
            {t("admin.publishing.keywords.create")}
          </button>{" "}
          <button type="submit" name="intent" value="preview" className="admin-link-button">
            {t("admin.publishing.preview.button")}
          </button>
        </p>
      </Form>
      {result?.ok && result.preview ? (
        <PreviewPane>
          <KeywordChips
            id="preview-keywords-ko"
            lang="ko"
            heading={t("admin.publishing.keywords.previewKo")}
            keywords={result.preview.ko}
          />
          <KeywordChips
            id="preview-keywords-en"
            lang="en"
            heading={t("admin.publishing.keywords.previewEn")}
            keywords={result.preview.en}
          />
        </PreviewPane>
      ) : null}
    </main>
  );
}
