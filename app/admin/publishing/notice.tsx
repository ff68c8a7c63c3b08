import { type ActionFunctionArgs, data, type LinksFunction, type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { NoticeArticle } from "../../components/notice-article";
import type { Locale } from "../../i18n/config";
import { useTranslation } from "../../i18n/react";
import { findNotice, type NoticeDraft, noticeProblem, previewNotice, saveNotice } from "../../market/publishing/notices.server";
import styles from "../../styles/admin-publishing.css";
import { formObject } from "../forms.server";
import { actorOf, domainCall, requireOperator } from "../guard.server";
import { Problem } from "../parts";
import { badInput, editTarget, formRefusal } from "./common.server";
import { intentSchema, isoToSeoulLocal, parseNotice } from "./forms.server";
import { BodyFields, PreviewOrSave, PreviewPane, PublishingHead, TitleFields } from "./parts";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["notice"] };

export { AdminError as ErrorBoundary } from "../parts";
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

type Values = Record<"title_ko" | "title_en" | "body_ko" | "body_en" | "published_at" | "pinned", string>;

const previewOf = (d: NoticeDraft, locale: Locale) => ({
  notice: previewNotice(d, locale),
  // As the storefront's notice page spells it.
  date: new Intl.DateTimeFormat(locale === "ko" ? "ko-KR" : "en-US", { dateStyle: "long", timeZone: "Asia/Seoul" }).format(
    new Date(d.publishedAt),
  ),
});

/** /admin/publishing/notices/:id (or /new): a notice in both languages, pinned or not, its publish date; preview, then save. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, "publishing");
  const id = editTarget(params.id);
  const row = id === null ? null : await findNotice(context.db, id);
  if (id !== null && !row) throw data(null, { status: 404 });
  const values: Values = row
    ? {
        title_ko: row.title_ko,
        title_en: row.title_en,
        body_ko: row.body_ko,
        body_en: row.body_en,
        published_at: isoToSeoulLocal(row.published_at),
        pinned: row.pinned === 1 ? "1" : "",
      }
    : { title_ko: "", title_en: "", body_ko: "", body_en: "", published_at: isoToSeoulLocal(new Date().toISOString()), pinned: "" };
  return { id, values };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const op = await requireOperator(request, context, "publishing");
  const id = editTarget(params.id);
  const form = formObject(await request.formData());
  const values: Values = {
    title_ko: form.title_ko ?? "",
    title_en: form.title_en ?? "",
    body_ko: form.body_ko ?? "",
    body_en: form.body_en ?? "",
    published_at: form.published_at ?? "",
    pinned: form.pinned === "1" ? "1" : "",
  };
  const draft = parseNotice(form);
  if (!draft) return badInput(values, "date");
  const problem = noticeProblem(draft);
  if (problem) return badInput(values, problem);
  if (intentSchema.parse(form.intent) === "preview")
    return { ok: true as const, values, problem: null, preview: previewOf(draft, context.locale) };
  const saved = await domainCall(() => formRefusal(() => saveNotice(context.db, actorOf(op, context), id, draft)));
  if (!saved.ok) return badInput(values, saved.code, saved.status);
  throw redirect("/admin/publishing/notices?saved=1");
}

export default function AdminNotice() {
  const { id, values: stored } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { t } = useTranslation();
  const values = result?.values ?? stored;
  const problem = result && !result.ok ? t(`admin.publishing.problems.${result.problem}`) : null;
  return (
    <main className="admin-page">
      <PublishingHead
        back={{ to: "/admin/publishing/notices", text: t("admin.publishing.notices.back") }}
        title={id === null ? t("admin.publishing.notices.new") : t("admin.publishing.notices.edit", { id })}
      />
      <Form method="post" className="admin-form" aria-describedby={problem ? "notice-problem" : undefined}>
        <Problem id="notice-problem" text={problem} />
        <TitleFields values={values} maxLength={200} />
        <BodyFields values={values} />
        <label>
          {t("admin.publishing.fields.publishedAt")}
          <input
            type="datetime-local"
            name="published_at"
            required
            defaultValue={values.published_at}
            aria-describedby="notice-date-hint"
          />
        </label>
        <p id="notice-date-hint" className="admin-hint">
          {t("admin.publishing.notices.dateHint")}
        </p>
        <label className="publishing-check">
          <input type="checkbox" name="pinned" value="1" defaultChecked={values.pinned === "1"} /> {t("admin.publishing.fields.pinned")}
        </label>
        <PreviewOrSave save={t("admin.publishing.notices.save")} />
      </Form>
      {result?.ok && result.preview ? (
        <PreviewPane>
          <NoticeArticle notice={result.preview.notice} date={result.preview.date} heading="h2" />
        </PreviewPane>
      ) : null}
    </main>
  );
}
