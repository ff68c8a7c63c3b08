import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "../i18n/react";
import { findOperator, operatorSignIn } from "../market/operators/accounts.server";
import adminStyles from "../styles/admin.css";
import { isTestMode } from "../utils/test-mode.server";
import { formObject, operatorSignInSchema } from "./forms.server";
import { operatorCookie, readOperatorToken, safeNext } from "./guard.server";

/** /admin/login: the operator's sign-in (apart from members'), outside the console's layout. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const next = safeNext(url.searchParams.get("next"));
  if (await findOperator(context.db, await readOperatorToken(request, context))) throw redirect(next);
  return data({ next, testMode: isTestMode(context) }, { headers: { "Cache-Control": "private, no-store" } });
}

export { adminHeaders as headers } from "./headers";
export const links = () => [{ rel: "stylesheet", href: adminStyles }];
export const meta: MetaFunction = () => [{ title: "Operator console" }, { name: "robots", content: "noindex, nofollow" }];

export async function action({ request, context }: ActionFunctionArgs) {
  const form = formObject(await request.formData());
  const parsed = operatorSignInSchema.safeParse(form);
  const email = typeof form.email === "string" ? form.email.slice(0, 254) : "";
  if (!parsed.success) return data({ error: "required" as const, email, minutes: 0 }, { status: 400 });
  const result = await operatorSignIn(context.db, { email: parsed.data.email, password: parsed.data.password, ip: context.clientIp });
  if (!result.ok) {
    if (result.code === "TOO_MANY_ATTEMPTS") {
      const minutes = Math.max(1, Math.ceil(result.retryAfterMs / 60_000));
      return data(
        { error: "tooMany" as const, email, minutes },
        { status: 429, headers: { "Retry-After": String(Math.ceil(result.retryAfterMs / 1000)) } },
      );
    }
    return data({ error: "invalid" as const, email, minutes: 0 }, { status: 401 });
  }
  return redirect(safeNext(parsed.data.next ?? null), {
    headers: { "Set-Cookie": await operatorCookie(context).serialize(result.token) },
  });
}

/** The console's strings: the sign-in page sits beside the layout, so it names them itself. */
export const handle = { i18n: ["admin"] };

export default function AdminLogin() {
  const { next, testMode } = useLoaderData<typeof loader>();
  return <LoginForm next={next} testMode={testMode} />;
}

function LoginForm({ next, testMode }: { next: string; testMode: boolean }) {
  const { t, i18n } = useTranslation();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const error =
    result?.error === "tooMany"
      ? t("admin.core.login.tooMany", { minutes: result.minutes })
      : result?.error
        ? t(`admin.core.login.${result.error}`)
        : null;
  return (
    <main className="admin-login">
      <p>
        <a href={`?language=${i18n.language === "ko" ? "en" : "ko"}`} lang={i18n.language === "ko" ? "en" : "ko"}>
          {t("admin.core.nav.language")}
        </a>
      </p>
      <h1>{t("admin.core.login.heading")}</h1>
      {testMode ? <p className="admin-test-mode">{t("admin.core.testMode")}</p> : null}
      <Form method="post" className="admin-form" aria-describedby={error ? "login-error" : undefined}>
        <input type="hidden" name="next" value={next} />
        {error ? (
          <p id="login-error" role="alert" className="admin-alert">
            {error}
          </p>
        ) : null}
        <label>
          {t("admin.core.login.email")}
          <input type="email" name="email" autoComplete="username" required defaultValue={result?.email ?? ""} />
        </label>
        <label>
          {t("admin.core.login.password")}
          <input type="password" name="password" autoComplete="current-password" required />
        </label>
        <button type="submit" disabled={busy}>
          {t("admin.core.login.submit")}
        </button>
      </Form>
    </main>
  );
}
