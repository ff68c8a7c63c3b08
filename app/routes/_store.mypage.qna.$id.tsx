import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { type ActionFunctionArgs, data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { FormErrors } from "../components/forms";
import { InquiryFields } from "../components/inquiry-fields";
import { useTranslation } from "../i18n/react";
import { attachmentChange, type InquiryEditFields, parseInquiryEdit } from "../market/inquiry-forms.server";
import { editInquiry, getInquiry, INQUIRY_FORM_LIMITS } from "../market/support.server";
import qnaStyles from "../styles/qna.css";
import { requireViewer } from "../utils/auth.server";
import { seoulText } from "../utils/dates";
import { positiveId } from "../utils/input.server";
import { readBoundedForm } from "../utils/multipart.server";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["auth", "orders", "pay", "purchase", "qna", "request", "support"] };

/**
 * /mypage/qna/{id}: one of the member's 1:1 inquiries: the question, its attachment (served to its owner by
 * /mypage/qna/{id}/attachment), and the answer once it is completed. Until then the member can edit it with the
 * 1:1 form's fields and rules. Another member's inquiry, or an unknown one, is not found.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const id = positiveId.safeParse(params.id);
  const inquiry = id.success ? await getInquiry(context.db, viewer.id, id.data) : null;
  if (!inquiry) throw data(null, { status: 404 });
  // Times are spelled on the server only (see utils/dates.ts).
  const dates = {
    created: seoulText(inquiry.created_at, context.locale),
    updated: seoulText(inquiry.updated_at, context.locale),
    answered: seoulText(inquiry.answered_at, context.locale),
  };
  const saved = new URL(request.url).searchParams.get("saved") === "1";
  return { inquiry, dates, saved, seo: await pageSeo(request, context, { titleKey: "qna.detailTitle" }) };
}

export const links: LinksFunction = () => [{ rel: "stylesheet", href: qnaStyles }];
export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export async function action({ request, params, context }: ActionFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const id = positiveId.safeParse(params.id);
  if (!id.success) throw data(null, { status: 404 });
  // Without JavaScript a too-large file arrives with the form: it is left out, and what was typed is kept.
  const { form, oversized } = await readBoundedForm(request, INQUIRY_FORM_LIMITS);
  const submission = parseInquiryEdit(form);
  if (oversized.includes("attachment"))
    return data(submission.reply({ fieldErrors: { attachment: ["support.attachRefused"] } }), { status: 400 });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const result = await editInquiry(context.db, context.storage, viewer.id, id.data, {
    ...submission.value,
    attachment: await attachmentChange(submission.value),
  });
  if (!result.ok) {
    if (result.reason === "not_found") throw data(null, { status: 404 });
    if (result.reason === "answered") return data(submission.reply({ formErrors: ["qna.notEditable"] }), { status: 409 });
    return data(submission.reply({ fieldErrors: { attachment: ["support.attachRefused"] } }), { status: 400 });
  }
  return redirect(`/mypage/qna/${id.data}?saved=1`);
}

export default function InquiryDetail() {
  const { inquiry, dates, saved } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const attachmentHref = `/mypage/qna/${inquiry.id}/attachment`;
  return (
    <article className="qna-page qna-detail">
      <p className="breadcrumb">
        <Link to="/mypage/qna">{t("qna.backToList")}</Link>
      </p>
      <p className="muted">{t("qna.detailTitle")}</p>
      <h1>{inquiry.title}</h1>
      <div role="status" className="form-result">
        {saved ? t("qna.saved") : ""}
      </div>
      <dl className="facts qna-facts">
        <dt>{t("qna.statusLabel")}</dt>
        <dd>
          <span className={`qna-status is-${inquiry.status}`}>{t(`qna.status.${inquiry.status}`)}</span>
        </dd>
        <dt>{t("qna.category")}</dt>
        <dd>{t(`support.categories.${inquiry.category}`)}</dd>
        <dt>{t("qna.date")}</dt>
        <dd>{dates.created}</dd>
        {dates.updated ? (
          <>
            <dt>{t("qna.updated")}</dt>
            <dd>{dates.updated}</dd>
          </>
        ) : null}
        <dt>{t("qna.email")}</dt>
        <dd>{inquiry.email}</dd>
      </dl>
      <section className="qna-block" aria-labelledby="qna-question">
        <h2 id="qna-question">{t("qna.question")}</h2>
        <p className="qna-text">{inquiry.description}</p>
      </section>
      {inquiry.attachment ? (
        <section className="qna-block qna-attachment" aria-labelledby="qna-attachment">
          <h2 id="qna-attachment">{t("qna.attachment")}</h2>
          <a href={attachmentHref}>
            <img src={attachmentHref} alt={t("qna.attachmentAlt")} />
          </a>
          <a href={attachmentHref}>{t("qna.openAttachment")}</a>
        </section>
      ) : null}
      <section className="qna-block qna-answer" aria-labelledby="qna-answer">
        <h2 id="qna-answer">{t("qna.answer")}</h2>
        {inquiry.answer ? (
          <>
            <p className="qna-text">{inquiry.answer}</p>
            <p className="muted">
              {t("qna.answeredAt")}: {dates.answered}
            </p>
          </>
        ) : (
          <p className="muted">{t("qna.waiting")}</p>
        )}
      </section>
      {inquiry.editable ? <EditInquiry key={inquiry.updated_at ?? "original"} /> : <p className="notice-box">{t("qna.notEditable")}</p>}
    </article>
  );
}

/** The edit form, in a disclosure that opens by itself when the last save was refused. */
function EditInquiry() {
  const { inquiry } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation();
  const [form, fields] = useForm<InquiryEditFields>({
    lastResult,
    defaultValue: { category: inquiry.category, title: inquiry.title, description: inquiry.description, email: inquiry.email },
  });
  const busy = navigation.state === "submitting";
  const removeProps = getInputProps(fields.removeAttachment, { type: "checkbox", ariaAttributes: false });
  return (
    <details className="qna-edit" open={lastResult ? true : undefined}>
      <summary>{t("qna.edit")}</summary>
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)}>
        <p className="muted">{t("qna.editLead")}</p>
        <FormErrors id={form.errorId} errors={form.errors} />
        <InquiryFields
          fields={fields}
          attachmentLabel={inquiry.attachment ? t("qna.replaceAttachment") : undefined}
          attachmentHint={inquiry.attachment ? t("qna.keepAttachment") : undefined}
        >
          {inquiry.attachment ? (
            <div className="check">
              <input {...removeProps} key={removeProps.key} />
              <label htmlFor={fields.removeAttachment.id}>{t("qna.removeAttachment")}</label>
            </div>
          ) : null}
        </InquiryFields>
        <button type="submit" className="button" disabled={busy} aria-busy={busy}>
          {t("qna.save")}
        </button>
      </Form>
    </details>
  );
}
