import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useId } from "react";
import { z } from "zod";
import { useTranslation } from "../i18n/react";
import { createYoutubeChannels } from "../integrations/youtube/channels.server";
import { RateLimited } from "../market/rate-limits.server";
import { getAccount, registerYoutubeChannel, updateProfile } from "../market/users/account.server";
import { YOUTUBE_CHANNEL_PREFIX } from "../market/users/youtube";
import { requireViewer } from "../utils/auth.server";
import { pageSeo } from "../utils/page.server";
import { retryAfterHeaders, tooManyText, withRetryAfter } from "../utils/rate-limit.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["auth", "limits", "member"] };

const profileSchema = z.object({
  nickname: z.string().trim().min(1, "auth.nicknameRequired").max(30, "auth.nicknameTooLong"),
  newsletter: z.literal("on").optional(),
});

export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const [account, seo] = await Promise.all([getAccount(context.db, viewer.id), pageSeo(request, context, { titleKey: "member.title" })]);
  return { account, seo, locale: context.locale };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export const headers = withRetryAfter;

type Result = {
  form: "profile" | "youtube";
  ok: boolean;
  message: string;
  values?: Record<string, string>;
  fieldErrors?: Record<string, string>;
};

export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const form = await request.formData();
  if (form.get("intent") === "youtube") {
    const typed = String(form.get("channel") ?? "");
    const youtube = createYoutubeChannels({ apiKey: context.env.YOUTUBE_API_KEY });
    const result = await registerYoutubeChannel(context.db, youtube, viewer.id, typed).catch((error) => {
      if (error instanceof RateLimited) return error;
      throw error;
    });
    if (result instanceof RateLimited)
      return data<Result>(
        {
          form: "youtube",
          ok: false,
          message: "",
          values: { channel: typed },
          fieldErrors: { channel: tooManyText(context.locale, result.retryAfterMs) },
        },
        { status: 429, headers: retryAfterHeaders(result.retryAfterMs) },
      );
    if (!result.ok) {
      const fieldErrors = result.problem === "locked" ? undefined : { channel: `member.youtube.${result.problem}` };
      return data<Result>(
        { form: "youtube", ok: false, message: "", values: { channel: typed }, fieldErrors },
        { status: result.problem === "locked" ? 409 : 400 },
      );
    }
    return data<Result>({ form: "youtube", ok: true, message: "member.youtube.saved" });
  }
  const parsed = profileSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) {
    const fieldErrors = Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message]));
    return data<Result>(
      { form: "profile", ok: false, message: "", values: { nickname: String(form.get("nickname") ?? "") }, fieldErrors },
      { status: 400 },
    );
  }
  await updateProfile(context.db, viewer.id, { nickname: parsed.data.nickname, marketEmailAgree: parsed.data.newsletter === "on" });
  return data<Result>({ form: "profile", ok: true, message: "member.saved" });
}

export default function MemberPage() {
  const { account, locale } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation();
  const id = useId();
  const busy = navigation.state === "submitting";
  const profileError = result?.form === "profile" ? result.fieldErrors?.nickname : undefined;
  const channelError = result?.form === "youtube" ? result.fieldErrors?.channel : undefined;
  const unlock = account.youtubeUnlocksAt
    ? new Intl.DateTimeFormat(locale === "ko" ? "ko-KR" : "en-US", { dateStyle: "long", timeZone: "Asia/Seoul" }).format(
        new Date(account.youtubeUnlocksAt),
      )
    : null;
  return (
    <section className="account-page">
      <h1>{t("member.title")}</h1>
      <Form method="post" className="account-form" aria-labelledby={`${id}-profile`}>
        <h2 id={`${id}-profile`} className="visually-hidden">
          {t("member.title")}
        </h2>
        <dl className="facts">
          <dt>{t("member.email")}</dt>
          <dd>{account.email}</dd>
          {account.organization ? (
            <>
              <dt>{t("member.organization")}</dt>
              <dd>{account.organization}</dd>
            </>
          ) : null}
        </dl>
        <div className="field">
          <label htmlFor={`${id}-nickname`}>{t("auth.nickname")}</label>
          <input
            id={`${id}-nickname`}
            name="nickname"
            defaultValue={result?.form === "profile" && result.values ? result.values.nickname : account.nickname}
            maxLength={30}
            aria-invalid={profileError ? true : undefined}
            aria-describedby={`${id}-nickname-error`}
          />
          <p id={`${id}-nickname-error`} className="field-error" aria-live="polite">
            {profileError ? t(profileError) : null}
          </p>
        </div>
        <label className="check">
          <input type="checkbox" name="newsletter" defaultChecked={account.marketEmailAgree} /> {t("member.newsletter")}
        </label>
        <button type="submit" name="intent" value="profile" className="button" disabled={busy}>
          {t("member.save")}
        </button>
        {result?.form === "profile" && result.ok ? (
          <p role="status" className="form-result">
            {t(result.message)}
          </p>
        ) : null}
      </Form>
      <section id="youtubeSec" className="section" aria-labelledby={`${id}-yt`}>
        <h2 id={`${id}-yt`}>{t("member.youtube.title")}</h2>
        <p className="muted">{t("member.youtube.lead")}</p>
        {account.userType === 2 ? <p className="notice-box">{t("member.youtube.business")}</p> : null}
        <p>{account.youtubeChannelId ? t("member.youtube.current", { id: account.youtubeChannelId }) : t("member.youtube.none")}</p>
        {unlock ? (
          <p className="notice-box" role="status">
            {t("member.youtube.locked", { date: unlock })}
          </p>
        ) : (
          <Form method="post" preventScrollReset>
            <div className="field">
              <label htmlFor={`${id}-channel`}>{t("member.youtube.label")}</label>
              <div className="prefixed-input">
                <span aria-hidden="true">{YOUTUBE_CHANNEL_PREFIX}</span>
                <input
                  id={`${id}-channel`}
                  name="channel"
                  defaultValue={result?.form === "youtube" && result.values ? result.values.channel : ""}
                  maxLength={200}
                  autoComplete="off"
                  aria-invalid={channelError ? true : undefined}
                  aria-describedby={`${id}-channel-hint ${id}-channel-error`}
                />
              </div>
              <p id={`${id}-channel-hint`} className="field-hint">
                {t("member.youtube.hint")} ({YOUTUBE_CHANNEL_PREFIX}…)
              </p>
              <p id={`${id}-channel-error`} className="field-error" aria-live="polite">
                {channelError ? t(channelError) : null}
              </p>
            </div>
            <button type="submit" name="intent" value="youtube" className="button" disabled={busy}>
              {t("member.youtube.save")}
            </button>
          </Form>
        )}
        {result?.form === "youtube" && result.ok ? (
          <p role="status" className="form-result">
            {t(result.message)}
          </p>
        ) : null}
      </section>
      <p>
        <Link to="/mypage/withdraw">{t("member.withdraw")}</Link>
      </p>
    </section>
  );
}
