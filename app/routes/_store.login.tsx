import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { FormErrors, TextField } from "../components/forms";
import { useTranslation } from "../i18n/react";
import { signIn } from "../market/users/auth.server";
import { redirectSignedIn } from "../utils/auth.server";
import { pageSeo } from "../utils/page.server";
import { retryAfterHeaders, tooManyText, withRetryAfter } from "../utils/rate-limit.server";
import { safePath } from "../utils/redirect";
import { seoMeta } from "../utils/seo";
import { readShopper } from "../utils/shopper.server";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["auth", "limits"] };

/** One schema for the browser (conform) and the action; messages are translation keys. */
export const signInSchema = z.object({
  email: z.string({ required_error: "auth.emailRequired" }).trim().min(1, "auth.emailRequired").email("auth.emailInvalid"),
  password: z.string({ required_error: "auth.passwordRequired" }).min(1, "auth.passwordRequired"),
  redirectTo: z.string().optional(),
});

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const redirectTo = safePath(url.searchParams.get("redirectTo"), "/");
  const { viewer } = await readShopper(request, context);
  if (viewer) throw redirect(redirectTo);
  return { redirectTo, seo: await pageSeo(request, context, { titleKey: "auth.signInTitle" }) };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export const headers = withRetryAfter;

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: signInSchema });
  if (submission.status !== "success") return data(submission.reply({ hideFields: ["password"] }), { status: 400 });
  const { ngt } = await readShopper(request, context);
  const result = await signIn(context.db, {
    email: submission.value.email,
    password: submission.value.password,
    ip: context.clientIp,
    ngt,
  });
  if (!result.ok && result.code === "TOO_MANY_ATTEMPTS")
    return data(submission.reply({ formErrors: [tooManyText(context.locale, result.retryAfterMs)], hideFields: ["password"] }), {
      status: 429,
      headers: retryAfterHeaders(result.retryAfterMs),
    });
  if (!result.ok) return data(submission.reply({ formErrors: ["auth.invalidCredentials"], hideFields: ["password"] }), { status: 400 });
  return redirectSignedIn(context, result, safePath(submission.value.redirectTo, "/"));
}

export default function SignInPage() {
  const { redirectTo } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation();
  const [form, fields] = useForm({
    lastResult,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: signInSchema }),
  });
  const busy = navigation.state !== "idle" && navigation.formAction?.startsWith("/login");
  return (
    <section className="auth-page">
      <h1>{t("auth.signInTitle")}</h1>
      <Form method="post" {...getFormProps(form)} aria-describedby={form.errorId}>
        <FormErrors id={form.errorId} errors={form.errors} />
        <input type="hidden" name="redirectTo" value={(lastResult?.initialValue?.redirectTo as string | undefined) ?? redirectTo} />
        <TextField field={fields.email} label={t("auth.email")} type="email" autoComplete="email" />
        <TextField field={fields.password} label={t("auth.password")} type="password" autoComplete="current-password" />
        <button type="submit" className="button" disabled={busy} aria-busy={busy}>
          {busy ? t("auth.signingIn") : t("auth.signIn")}
        </button>
      </Form>
      <p className="muted">
        {t("auth.noAccount")} <Link to={`/join?redirectTo=${encodeURIComponent(redirectTo)}`}>{t("auth.join")}</Link>
      </p>
    </section>
  );
}
