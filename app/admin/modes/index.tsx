import { type ActionFunctionArgs, data, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { fixedT } from "../../i18n/i18n.server";
import { useTranslation } from "../../i18n/react";
import { storePublicImage } from "../../market/publishing/images.server";
import { changeServiceModes, changeStopNotice, closedTarget, defaultStopImage, readServiceModes } from "../../market/service-modes.server";
import modesStyles from "../../styles/admin-modes.css";
import { seoulText } from "../../utils/dates";
import { readBoundedForm } from "../../utils/multipart.server";
import { formObject } from "../forms.server";
import { actorOf, domainCall, requireOperator } from "../guard.server";
import { formRefusal } from "../publishing/common.server";
import { EVENT_FORM_LIMITS } from "../publishing/forms.server";
import { isoToSeoulLocal, modesFormSchema, modesProblem, seoulLocalToIso } from "./modes.server";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["home"] };

export { AdminError as ErrorBoundary } from "../parts";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: modesStyles }];

/** The words of the store's own service-stop picture in a language (its alternative text). */
const defaultStopAlt = (locale: "ko" | "en") => {
  const t = fixedT(locale);
  return t("home.serviceStopAlt", {
    title: t("home.serviceStop.title"),
    line1: t("home.serviceStop.line1"),
    line2: t("home.serviceStop.line2"),
  });
};

/**
 * /admin/modes (admin only): the home's service-stop notice and its picture in each language, inspection with its
 * window and text, error service.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, "modes");
  const modes = await readServiceModes(context.db, context.env.HOME_MODE);
  return {
    modes: {
      home: modes.home,
      inspection: modes.inspection,
      errorService: modes.errorService,
      closed: closedTarget(modes),
      window: modes.window
        ? { start: seoulText(modes.window.start, context.locale, "long"), end: seoulText(modes.window.end, context.locale, "long") }
        : null,
    },
    values: {
      home: modes.home,
      inspection: modes.inspection ? "on" : "",
      errorService: modes.errorService ? "on" : "",
      start: isoToSeoulLocal(modes.window?.start),
      end: isoToSeoulLocal(modes.window?.end),
      textKo: modes.text.ko,
      textEn: modes.text.en,
    } as Record<string, string>,
    stopNotice: (["ko", "en"] as const).map((locale) => ({
      locale,
      replaced: modes.stopNotice[locale] !== null,
      image: modes.stopNotice[locale]?.image ?? defaultStopImage(locale),
      alt: modes.stopNotice[locale]?.alt ?? defaultStopAlt(locale),
    })),
  };
}

/**
 * The service-stop picture of one language (a multipart form): a new picture (PNG or JPEG, up to 2 MB) with the
 * words it shows, new words for the picture in place, or the store's own picture back.
 */
async function stopNoticeAction(request: Request, context: ActionFunctionArgs["context"], actor: ReturnType<typeof actorOf>) {
  const { form: raw, oversized, truncated } = await readBoundedForm(request, EVENT_FORM_LIMITS);
  const form = formObject(raw);
  const refuse = (locale: string, problem: string, status = 400) =>
    data({ stopNotice: { locale, ok: false as const, problem, changed: false } }, { status });
  if (truncated || oversized.some((name) => name !== "image")) return refuse(form.locale ?? "", "invalid", 413);
  if (oversized.includes("image")) return refuse(form.locale ?? "", "IMAGE_TOO_LARGE");
  const locale = form.locale === "ko" || form.locale === "en" ? form.locale : null;
  if (!locale) return refuse("", "invalid");
  const current = (await readServiceModes(context.db, context.env.HOME_MODE)).stopNotice[locale];
  let notice: { image: string; alt: string } | null = null;
  if (form.intent !== "default") {
    const file = raw.get("image");
    let image = current?.image;
    if (file instanceof File && file.size > 0) {
      const stored = await formRefusal(async () => storePublicImage(context.storage, new Uint8Array(await file.arrayBuffer())));
      if (!stored.ok) return refuse(locale, stored.code, stored.status);
      image = stored.value;
    }
    const alt = (form.alt ?? "").trim();
    if (!image) return refuse(locale, "image");
    if (!alt || alt.length > 300) return refuse(locale, "alt");
    notice = { image, alt };
  }
  const saved = await formRefusal(() => changeStopNotice(context.db, locale, notice, actor, context.env.HOME_MODE));
  if (!saved.ok) return refuse(locale, saved.code === "STOP_NOTICE_INVALID" ? "alt" : "image", saved.status);
  return { stopNotice: { locale, ok: true as const, problem: null, changed: saved.value } };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const op = await requireOperator(request, context, "modes");
  if ((request.headers.get("content-type") ?? "").startsWith("multipart/form-data"))
    return stopNoticeAction(request, context, actorOf(op, context));
  const form = formObject(await request.formData());
  const values = {
    home: form.home ?? "",
    inspection: form.inspection ?? "",
    errorService: form.errorService ?? "",
    start: form.start ?? "",
    end: form.end ?? "",
    textKo: form.textKo ?? "",
    textEn: form.textEn ?? "",
  };
  const parsed = modesFormSchema.safeParse(form);
  if (!parsed.success)
    return data({ ok: false as const, problem: modesProblem(parsed.error), values, changed: [] as string[] }, { status: 400 });
  const v = parsed.data;
  const changed = await domainCall(() =>
    changeServiceModes(
      context.db,
      {
        home: v.home,
        inspection: v.inspection === "on",
        errorService: v.errorService === "on",
        window: v.start && v.end ? { start: seoulLocalToIso(v.start), end: seoulLocalToIso(v.end) } : null,
        text: { ko: v.textKo, en: v.textEn },
      },
      actorOf(op, context),
      context.env.HOME_MODE,
    ),
  );
  return { ok: true as const, problem: null, values: null, changed };
}

export default function Modes() {
  const { modes, values: stored, stopNotice } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const result = answer && !("stopNotice" in answer) ? answer : undefined;
  const stopResult = answer && "stopNotice" in answer ? answer.stopNotice : undefined;
  const navigation = useNavigation();
  const { t } = useTranslation();
  const values: Record<string, string> = (result && !result.ok && result.values) || stored;
  const busy = navigation.state === "submitting";
  return (
    <main className="admin-page">
      <h1>{t("admin.modes.title")}</h1>
      <p>{t("admin.modes.lead")}</p>
      <section aria-labelledby="modes-now" className="modes-now">
        <h2 id="modes-now">{t("admin.modes.now.heading")}</h2>
        <dl>
          <dt>{t("admin.modes.home.legend")}</dt>
          <dd data-testid="mode-home">{t(`admin.modes.home.${modes.home === "full" ? "full" : "serviceStop"}`)}</dd>
          <dt>{t("admin.modes.inspection.label")}</dt>
          <dd data-testid="mode-inspection">{modes.inspection ? t("admin.modes.now.on") : t("admin.modes.now.off")}</dd>
          <dt>{t("admin.modes.errorService.label")}</dt>
          <dd data-testid="mode-error">{modes.errorService ? t("admin.modes.now.on") : t("admin.modes.now.off")}</dd>
          <dt>{t("admin.modes.window.legend")}</dt>
          <dd>{modes.window ? t("admin.modes.now.window", modes.window) : t("admin.modes.now.noWindow")}</dd>
        </dl>
        {modes.closed ? (
          <p className="admin-alert" role="note">
            {modes.closed === "/errorservice" ? t("admin.modes.now.closedError") : t("admin.modes.now.closedInspection")}
          </p>
        ) : null}
      </section>
      {result?.ok ? (
        <p role="status" className="admin-ok">
          {result.changed.length ? t("admin.modes.saved") : t("admin.modes.unchanged")}
        </p>
      ) : null}
      <h2>{t("admin.modes.change")}</h2>
      <Form method="post" className="admin-form" aria-describedby={result && !result.ok ? "modes-problem" : undefined}>
        {result && !result.ok ? (
          <p id="modes-problem" role="alert" className="admin-alert">
            {t(`admin.modes.problems.${result.problem}`)}
          </p>
        ) : null}
        <fieldset>
          <legend>{t("admin.modes.home.legend")}</legend>
          <label className="modes-choice">
            <input type="radio" name="home" value="full" defaultChecked={values.home !== "service-stop"} /> {t("admin.modes.home.full")}
          </label>
          <label className="modes-choice">
            <input type="radio" name="home" value="service-stop" defaultChecked={values.home === "service-stop"} />{" "}
            {t("admin.modes.home.serviceStop")}
          </label>
          <p className="admin-hint">{t("admin.modes.home.hint")}</p>
        </fieldset>
        <fieldset>
          <legend>{t("admin.modes.closing")}</legend>
          <label className="modes-choice">
            <input type="checkbox" name="inspection" value="on" defaultChecked={values.inspection === "on"} />{" "}
            {t("admin.modes.inspection.label")}
          </label>
          <p className="admin-hint">{t("admin.modes.inspection.hint")}</p>
          <label className="modes-choice">
            <input type="checkbox" name="errorService" value="on" defaultChecked={values.errorService === "on"} />{" "}
            {t("admin.modes.errorService.label")}
          </label>
          <p className="admin-hint">{t("admin.modes.errorService.hint")}</p>
        </fieldset>
        <fieldset>
          <legend>{t("admin.modes.window.legend")}</legend>
          <label>
            {t("admin.modes.window.start")}
            <input type="datetime-local" name="start" defaultValue={values.start} />
          </label>
          <label>
            {t("admin.modes.window.end")}
            <input type="datetime-local" name="end" defaultValue={values.end} />
          </label>
          <p className="admin-hint">{t("admin.modes.window.hint")}</p>
          <label>
            {t("admin.modes.window.textKo")}
            <textarea name="textKo" rows={3} maxLength={500} lang="ko" defaultValue={values.textKo} />
          </label>
          <label>
            {t("admin.modes.window.textEn")}
            <textarea name="textEn" rows={3} maxLength={500} lang="en" defaultValue={values.textEn} />
          </label>
        </fieldset>
        <button type="submit" disabled={busy}>
          {busy ? t("admin.modes.saving") : t("admin.modes.save")}
        </button>
      </Form>
      <section aria-labelledby="stop-notice" className="stop-notice-admin">
        <h2 id="stop-notice">{t("admin.modes.stopNotice.heading")}</h2>
        <p>{t("admin.modes.stopNotice.lead")}</p>
        {stopNotice.map((n) => {
          const mine = stopResult?.locale === n.locale ? stopResult : undefined;
          const problemId = `stop-${n.locale}-problem`;
          return (
            <Form
              key={n.locale}
              method="post"
              encType="multipart/form-data"
              className="admin-form"
              aria-describedby={mine && !mine.ok ? problemId : undefined}
            >
              <fieldset>
                <legend>{t(`admin.modes.stopNotice.legend.${n.locale}`)}</legend>
                {mine?.ok ? (
                  <p role="status" className="admin-ok">
                    {mine.changed ? t("admin.modes.stopNotice.saved") : t("admin.modes.unchanged")}
                  </p>
                ) : null}
                {mine && !mine.ok ? (
                  <p id={problemId} role="alert" className="admin-alert">
                    {t(`admin.modes.stopNotice.problems.${mine.problem}`, { defaultValue: t("admin.modes.problems.invalid") })}
                  </p>
                ) : null}
                <img className="publishing-thumb" src={n.image} alt={n.alt} width={480} height={192} lang={n.locale} />
                <p className="admin-hint">{n.replaced ? t("admin.modes.stopNotice.replaced") : t("admin.modes.stopNotice.ownPicture")}</p>
                <input type="hidden" name="locale" value={n.locale} />
                <label>
                  {t("admin.modes.stopNotice.file")}
                  <input type="file" name="image" accept="image/png,image/jpeg" aria-describedby={`stop-${n.locale}-hint`} />
                </label>
                <p id={`stop-${n.locale}-hint`} className="admin-hint">
                  {t("admin.modes.stopNotice.fileHint")}
                </p>
                <label>
                  {t("admin.modes.stopNotice.alt")}
                  <textarea name="alt" rows={2} maxLength={300} lang={n.locale} defaultValue={n.alt} required />
                </label>
                <p className="pay-actions">
                  <button type="submit" name="intent" value="replace" disabled={busy}>
                    {t("admin.modes.stopNotice.replace")}
                  </button>
                  {n.replaced ? (
                    <button type="submit" name="intent" value="default" disabled={busy} formNoValidate>
                      {t("admin.modes.stopNotice.restore")}
                    </button>
                  ) : null}
                </p>
              </fieldset>
            </Form>
          );
        })}
      </section>
    </main>
  );
}
