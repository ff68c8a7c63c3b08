import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { FormErrors, TextField } from "../components/forms";
import { useTranslation } from "../i18n/react";
import { admitInquiry } from "../market/rate-limits.server";
import { INQUIRY_DESCRIPTION_MAX } from "../market/rules";
import { fileInquiry, INQUIRY_FORM_LIMITS } from "../market/support.server";
import { inquirySchema, SUPPORT_CATEGORIES } from "../market/support-rules";
import { readBoundedForm } from "../utils/multipart.server";
import { pageSeo } from "../utils/page.server";
import { retryAfterHeaders, tooManyText, withRetryAfter } from "../utils/rate-limit.server";
import { seoMeta } from "../utils/seo";
import { readShopper } from "../utils/shopper.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer } = await readShopper(request, context);
  const sent = new URL(request.url).searchParams.get("sent") === "1";
  return { email: viewer?.email ?? "", sent, seo: await pageSeo(request, context, { titleKey: "support.ask" }) };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export const headers = withRetryAfter;

export async function action({ request, context }: ActionFunctionArgs) {
  // Without JavaScript a too-large file arrives with the form: it is left out, and what was typed is kept.
  const { form, oversized } = await readBoundedForm(request, INQUIRY_FORM_LIMITS);
  const submission = parseWithZod(form, { schema: inquirySchema });
  if (oversized.includes("attachment"))
    return data(submission.reply({ fieldErrors: { attachment: ["support.attachRefused"] } }), { status: 400 });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { viewer } = await readShopper(request, context);
  const admitted = await admitInquiry(context.db, context.clientIp, { userId: viewer?.id ?? null, email: submission.value.email });
  if (!admitted.allowed)
    return data(submission.reply({ formErrors: [tooManyText(context.locale, admitted.retryAfterMs)] }), {
      status: 429,
      headers: retryAfterHeaders(admitted.retryAfterMs),
    });
  const file = submission.value.attachment;
  try {
    await fileInquiry(context.db, context.env.DATA_DIR, viewer?.id ?? null, {
      ...submission.value,
      attachment: file?.size ? new Uint8Array(await file.arrayBuffer()) : null,
    });
  } catch (error) {
    if (error instanceof Error && error.message === "ATTACHMENT_REFUSED") {
      return data(submission.reply({ fieldErrors: { attachment: ["support.attachRefused"] } }), { status: 400 });
    }
    throw error;
  }
  return redirect("/support/question?sent=1");
}

export default function InquiryPage() {
  const { email, sent } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation();
  const [form, fields] = useForm({
    lastResult,
    defaultValue: { email },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: inquirySchema }),
  });
  const [length, setLength] = useState(0);
  if (sent) {
    return (
      <section className="message-page">
        <h1>{t("support.sentTitle")}</h1>
        <p role="status">{t("support.sent")}</p>
        <Link to="/support" className="button">
          {t("support.back")}
        </Link>
      </section>
    );
  }
  const busy = navigation.state === "submitting";
  const fileProps = getInputProps(fields.attachment, { type: "file", ariaAttributes: false });
  const areaProps = getTextareaProps(fields.description, { ariaAttributes: false });
  const selectProps = getSelectProps(fields.category, { ariaAttributes: false });
  const errorOf = (f: { errors?: string[] }) => f.errors?.map((e) => t(e)).join(" ");
  return (
    <section className="auth-page inquiry-page">
      <h1>{t("support.ask")}</h1>
      <p className="muted">{t("support.askLead")}</p>
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={form.errors} />
        <div className="field">
          <label htmlFor={fields.category.id}>{t("support.form.category")}</label>
          <select
            {...selectProps}
            key={selectProps.key}
            aria-invalid={fields.category.errors?.length ? true : undefined}
            aria-describedby={`${fields.category.id}-error`}
          >
            <option value="">—</option>
            {SUPPORT_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {t(`support.categories.${c}`)}
              </option>
            ))}
          </select>
          <p id={`${fields.category.id}-error`} className="field-error" aria-live="polite">
            {errorOf(fields.category)}
          </p>
        </div>
        <TextField field={fields.title} label={t("support.form.title")} />
        <div className="field">
          <label htmlFor={fields.description.id}>{t("support.form.description")}</label>
          <textarea
            {...areaProps}
            key={areaProps.key}
            rows={8}
            maxLength={INQUIRY_DESCRIPTION_MAX}
            onInput={(e) => setLength(e.currentTarget.value.length)}
            aria-invalid={fields.description.errors?.length ? true : undefined}
            aria-describedby={`${fields.description.id}-count ${fields.description.id}-error`}
          />
          <p id={`${fields.description.id}-count`} className="field-hint">
            {t("support.form.count", { count: length || (fields.description.initialValue?.length ?? 0) })}
          </p>
          <p id={`${fields.description.id}-error`} className="field-error" aria-live="polite">
            {errorOf(fields.description)}
          </p>
        </div>
        <TextField field={fields.email} label={t("support.form.email")} type="email" autoComplete="email" />
        <div className="field">
          <label htmlFor={fields.attachment.id}>{t("support.form.attachment")}</label>
          <input
            {...fileProps}
            key={fileProps.key}
            accept=".jpg,.jpeg,.png,image/jpeg,image/png"
            aria-invalid={fields.attachment.errors?.length ? true : undefined}
            aria-describedby={`${fields.attachment.id}-error`}
          />
          <p id={`${fields.attachment.id}-error`} className="field-error" aria-live="polite">
            {errorOf(fields.attachment)}
          </p>
        </div>
        <button type="submit" className="button" disabled={busy} aria-busy={busy}>
          {t("support.form.submit")}
        </button>
      </Form>
    </section>
  );
}
