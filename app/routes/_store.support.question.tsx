import { getFormProps, useForm } from "@conform-to/react";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { FormErrors } from "../components/forms";
import { InquiryFields } from "../components/inquiry-fields";
import { useTranslation } from "../i18n/react";
import { type InquiryFormFields, parseInquiry } from "../market/inquiry-forms.server";
import { admitInquiry } from "../market/rate-limits.server";
import { fileInquiry, INQUIRY_FORM_LIMITS } from "../market/support.server";
import { readBoundedForm } from "../utils/multipart.server";
import { pageSeo } from "../utils/page.server";
import { retryAfterHeaders, tooManyText, withRetryAfter } from "../utils/rate-limit.server";
import { seoMeta } from "../utils/seo";
import { readShopper } from "../utils/shopper.server";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["auth", "limits", "qna", "support"] };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer } = await readShopper(request, context);
  const sent = new URL(request.url).searchParams.get("sent") === "1";
  return { email: viewer?.email ?? "", signedIn: Boolean(viewer), sent, seo: await pageSeo(request, context, { titleKey: "support.ask" }) };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export const headers = withRetryAfter;

export async function action({ request, context }: ActionFunctionArgs) {
  // Without JavaScript a too-large file arrives with the form: it is left out, and what was typed is kept.
  const { form, oversized } = await readBoundedForm(request, INQUIRY_FORM_LIMITS);
  const submission = parseInquiry(form);
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
    await fileInquiry(context.db, context.storage, viewer?.id ?? null, {
      ...submission.value,
      attachment: file?.size ? new Uint8Array(await file.arrayBuffer()) : null,
      language: context.locale,
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
  const { email, signedIn, sent } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation();
  // Checked on the server only, with or without JavaScript: the schema stays out of the browser bundle.
  const [form, fields] = useForm<InquiryFormFields>({ lastResult, defaultValue: { email } });
  if (sent) {
    return (
      <section className="message-page">
        <h1>{t("support.sentTitle")}</h1>
        <p role="status">{t("support.sent")}</p>
        <p className="detail-actions">
          {signedIn ? (
            // A member's inquiry is listed on My page, where its answer appears too.
            <Link to="/mypage/qna" className="button">
              {t("qna.sentLink")}
            </Link>
          ) : null}
          <Link to="/support" className={signedIn ? "button button-ghost" : "button"}>
            {t("support.back")}
          </Link>
        </p>
      </section>
    );
  }
  const busy = navigation.state === "submitting";
  return (
    <section className="auth-page inquiry-page">
      <h1>{t("support.ask")}</h1>
      <p className="muted">{t("support.askLead")}</p>
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={form.errors} />
        <InquiryFields fields={fields} />
        <button type="submit" className="button" disabled={busy} aria-busy={busy}>
          {t("support.form.submit")}
        </button>
      </Form>
    </section>
  );
}
