import { type ActionFunctionArgs, data, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "../../i18n/react";
import { changeServiceModes, closedTarget, readServiceModes } from "../../market/service-modes.server";
import modesStyles from "../../styles/admin-modes.css";
import { seoulText } from "../../utils/dates";
import { formObject } from "../forms.server";
import { actorOf, domainCall, requireOperator } from "../guard.server";
import { isoToSeoulLocal, modesFormSchema, modesProblem, seoulLocalToIso } from "./modes.server";

export { AdminError as ErrorBoundary } from "../parts";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: modesStyles }];

/** /admin/modes (admin only): the home's service-stop notice, inspection with its window and text, error service. */
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
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const op = await requireOperator(request, context, "modes");
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
  const { modes, values: stored } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
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
    </main>
  );
}
