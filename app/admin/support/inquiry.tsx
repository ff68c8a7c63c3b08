import { type ActionFunctionArgs, data, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "../../i18n/react";
import { MarketError } from "../../market/errors";
import { answerInquiry } from "../../market/support.server";
import { consoleInquiry } from "../../market/support-console.server";
import supportStyles from "../../styles/admin-support.css";
import { seoulText } from "../../utils/dates";
import { actorOf, domainCall, requireOperator } from "../guard.server";
import { answerSchema, formObject, positiveIdSchema } from "./forms.server";
import { ANSWER_MAX, REASON_MAX } from "./limits";

export { AdminError as ErrorBoundary } from "../parts";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: supportStyles }];

function inquiryId(raw: string | undefined): number {
  const id = positiveIdSchema.safeParse(raw);
  if (!id.success) throw data({ code: "INQUIRY_NOT_FOUND" }, { status: 404 });
  return id.data;
}

/** /admin/inquiries/:id: one inquiry with its member, text and attachment, and the form that answers it. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, "inquiries");
  const found = await consoleInquiry(context.db, inquiryId(params.id));
  if (!found) throw data({ code: "INQUIRY_NOT_FOUND" }, { status: 404 });
  const when = (iso: string | null) => (iso ? seoulText(iso, context.locale, "long") : null);
  return {
    inquiry: {
      ...found,
      createdText: when(found.createdAt),
      updatedText: when(found.updatedAt),
      answeredText: when(found.answeredAt),
    },
  };
}

type Problem = "answer_required" | "answer_long" | "reason_required" | "reason_long";

/**
 * Answers the inquiry through answerInquiry (support.server.ts): it completes the inquiry, queues the member's
 * mail and writes the audit line in one transaction. A completed inquiry's answer may be changed with a reason.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const op = await requireOperator(request, context, "inquiries");
  const id = inquiryId(params.id);
  const form = formObject(await request.formData());
  const values = { answer: (form.answer ?? "").slice(0, ANSWER_MAX * 2), reason: (form.reason ?? "").slice(0, REASON_MAX * 2) };
  const refuse = (problem: Problem) => data({ ok: false as const, problem, values }, { status: 400 });
  const parsed = answerSchema.safeParse(form);
  if (!parsed.success) return refuse((parsed.error.issues[0]?.message as Problem) ?? "answer_required");
  const outcome = await domainCall(() =>
    answerInquiry(context.db, id, parsed.data.answer, new Date(), actorOf(op, context), parsed.data.reason).then(
      (done) => ({ refused: null, edited: done.edited }),
      (error: unknown) => {
        if (error instanceof MarketError && error.code === "REASON_REQUIRED") return { refused: "reason_required" as const, edited: true };
        if (error instanceof MarketError && error.code === "ANSWER_REQUIRED") return { refused: "answer_required" as const, edited: false };
        throw error;
      },
    ),
  );
  if (outcome.refused) return refuse(outcome.refused);
  return { ok: true as const, edited: outcome.edited, problem: null, values: null };
}

export default function InquiryDetail() {
  const { inquiry } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation();
  const completed = inquiry.status === "completed";
  const values = result && !result.ok ? result.values : null;
  const problem = result && !result.ok ? result.problem : null;
  const busy = navigation.state === "submitting";
  return (
    <main className="admin-page">
      <p>
        <Link to="/admin/inquiries">{t("admin.support.detail.back")}</Link>
      </p>
      <h1>{inquiry.title}</h1>
      <dl className="admin-support-facts">
        <dt>{t("admin.support.detail.number")}</dt>
        <dd>{inquiry.id}</dd>
        <dt>{t("admin.support.detail.status")}</dt>
        <dd>
          <span className={`admin-support-status admin-support-status-${inquiry.status}`}>
            {t(`admin.support.statuses.${inquiry.status}`)}
          </span>
        </dd>
        <dt>{t("admin.support.detail.category")}</dt>
        <dd>{t(`admin.support.categories.${inquiry.category}`)}</dd>
        <dt>{t("admin.support.detail.member")}</dt>
        <dd>
          {inquiry.member
            ? t(inquiry.member.business ? "admin.support.detail.memberBusiness" : "admin.support.detail.memberIndividual", {
                nickname: inquiry.member.nickname,
                email: inquiry.member.email,
                id: inquiry.member.id,
              })
            : t("admin.support.detail.guestSender")}
        </dd>
        <dt>{t("admin.support.detail.replyTo")}</dt>
        <dd>{inquiry.email}</dd>
        <dt>{t("admin.support.detail.received")}</dt>
        <dd>{inquiry.createdText}</dd>
        {inquiry.updatedText ? (
          <>
            <dt>{t("admin.support.detail.edited")}</dt>
            <dd>{inquiry.updatedText}</dd>
          </>
        ) : null}
        {inquiry.answeredText ? (
          <>
            <dt>{t("admin.support.detail.answeredAt")}</dt>
            <dd>{inquiry.answeredText}</dd>
          </>
        ) : null}
        <dt>{t("admin.support.detail.language")}</dt>
        <dd>{t(inquiry.language === "en" ? "admin.support.languages.en" : "admin.support.languages.ko")}</dd>
      </dl>
      <section aria-labelledby="inquiry-question">
        <h2 id="inquiry-question">{t("admin.support.detail.question")}</h2>
        <div className="admin-support-text">{inquiry.description}</div>
      </section>
      <section aria-labelledby="inquiry-attachment" className="admin-support-attachment">
        <h2 id="inquiry-attachment">{t("admin.support.detail.attachment")}</h2>
        {inquiry.attachment ? (
          <p>
            <a
              href={`/admin/inquiries/${inquiry.id}/attachment`}
              download={`inquiry-${inquiry.id}.${inquiry.attachment.type === "image/png" ? "png" : "jpg"}`}
            >
              {t("admin.support.detail.download")}
            </a>
            <img src={`/admin/inquiries/${inquiry.id}/attachment`} alt={t("admin.support.detail.attachmentAlt")} loading="lazy" />
          </p>
        ) : (
          <p>{t("admin.support.detail.noAttachment")}</p>
        )}
      </section>
      {completed && inquiry.answer ? (
        <section aria-labelledby="inquiry-answer">
          <h2 id="inquiry-answer">{t("admin.support.detail.sentAnswer")}</h2>
          <div className="admin-support-text">{inquiry.answer}</div>
        </section>
      ) : null}
      <h2 id="answer-form">{completed ? t("admin.support.detail.editHeading") : t("admin.support.detail.answerHeading")}</h2>
      {result?.ok ? (
        <p role="status" className="admin-ok">
          {result.edited ? t("admin.support.detail.edited_ok") : t("admin.support.detail.answered_ok")}
        </p>
      ) : null}
      <Form
        method="post"
        className="admin-form admin-support-form"
        aria-labelledby="answer-form"
        key={inquiry.answeredAt ?? "new"}
        aria-describedby={problem ? "answer-problem" : undefined}
      >
        {problem ? (
          <p id="answer-problem" role="alert" className="admin-alert">
            {t(`admin.support.detail.problems.${problem}`)}
          </p>
        ) : null}
        <p className="admin-support-muted">{completed ? t("admin.support.detail.editLead") : t("admin.support.detail.answerLead")}</p>
        <label>
          {t("admin.support.detail.answer")}
          <textarea
            name="answer"
            required
            maxLength={ANSWER_MAX}
            rows={10}
            defaultValue={values?.answer ?? inquiry.answer ?? ""}
            aria-invalid={problem === "answer_required" || problem === "answer_long" ? true : undefined}
          />
        </label>
        {completed ? (
          <label>
            {t("admin.support.detail.reason")}
            <input
              type="text"
              name="reason"
              required
              maxLength={REASON_MAX}
              defaultValue={values?.reason ?? ""}
              aria-invalid={problem === "reason_required" || problem === "reason_long" ? true : undefined}
            />
          </label>
        ) : null}
        <button type="submit" disabled={busy}>
          {busy ? t("admin.support.detail.sending") : completed ? t("admin.support.detail.saveEdit") : t("admin.support.detail.send")}
        </button>
      </Form>
    </main>
  );
}
