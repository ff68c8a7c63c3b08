import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useId } from "react";
import { z } from "zod";
import { OverlapNotice } from "../components/overlap-notice";
import { PaySteps } from "../components/pay";
import { useTranslation } from "../i18n/react";
import { checkoutOverlap } from "../market/downloads/overlap.server";
import { MarketError } from "../market/errors";
import { currencyFor } from "../market/money";
import { purchasableLicenses, resolvePurchaseLicense } from "../market/orders/checkout.server";
import { flowQuote } from "../market/orders/flows.server";
import { requireViewer } from "../utils/auth.server";
import { readCheckout } from "../utils/checkout.server";
import { seoulText } from "../utils/dates";
import { chosenIds } from "../utils/input.server";
import { overlapLines } from "../utils/overlap-lines.server";
import { pageSeo } from "../utils/page.server";
import { clearPay, requirePay, savePay, savePayItems } from "../utils/pay-session.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["cartCare", "mypage", "orders", "pay", "purchase", "request"] };

const licenseSchema = z.union([
  z.object({ choice: z.literal("key"), serial: z.string().trim().min(1, "pay.licenseKeyRequired").max(64) }),
  z.object({ choice: z.coerce.number().int().positive() }),
]);

/**
 * A member's checkout; the other flows have their licence already: a key-only user looks their key up on /pay-key,
 * and purchase requests go to their requester's key.
 */
async function memberPay(request: Request, context: LoaderFunctionArgs["context"]) {
  const pay = await requirePay(request, context);
  if (pay.data.flow === "direct" || pay.data.flow === "request") throw redirect("/pay-key");
  if (pay.data.flow === "pay_requests") throw redirect("/pay03");
  return pay;
}

/** What the chosen licence already holds of this checkout (issue 24, point 3). */
async function chosenOverlap(request: Request, context: LoaderFunctionArgs["context"], licenseId: number | undefined) {
  if (!licenseId) return { overlaps: [], titleOf: () => undefined };
  const { state, payer } = await readCheckout(request, context);
  // A checkout that cannot be priced any more says why on step 1; here it simply shows no notice.
  const quote = await flowQuote(context.db, { ...state, licenseId }, payer, currencyFor(context.locale), context.locale).then(
    (q) => q.quote,
    (error) => {
      if (error instanceof MarketError) return null;
      throw error;
    },
  );
  if (!quote) return { overlaps: [], titleOf: () => undefined };
  const ids = quote.lines.flatMap((l) => (l.kind === "content" ? [l.refId] : []));
  const { overlaps } = await checkoutOverlap(context.db, { flow: "member", licenseId }, payer?.id ?? null, ids);
  return { overlaps, titleOf: (id: number) => quote.lines.find((l) => l.kind === "content" && l.refId === id)?.title };
}

/** Step 2: the editor licence the purchase goes to — one of the member's, or a key entered here. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const pay = await memberPay(request, context);
  const viewer = await requireViewer(request, context);
  const [licenses, seo, held] = await Promise.all([
    purchasableLicenses(context.db, viewer.id),
    pageSeo(request, context, { titleKey: "pay.title" }),
    chosenOverlap(request, context, pay.data.licenseId),
  ]);
  // The licence's end as a Seoul day in the page's language (was its UTC ISO day in both languages).
  const dated = licenses.map((l) => ({ ...l, validUntilText: seoulText(l.validUntil, context.locale, "date") }));
  const overlap = overlapLines(held.overlaps, context.locale, held.titleOf);
  return {
    licenses: dated,
    chosen: pay.data.licenseId ?? null,
    serial: pay.data.serial ?? "",
    seo,
    overlap,
    overlapSerial: held.overlaps[0]?.serial ?? null,
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export async function action({ request, context }: ActionFunctionArgs) {
  const pay = await memberPay(request, context);
  const viewer = await requireViewer(request, context);
  const formData = await request.formData();
  if (formData.get("intent") === "drop") {
    // "Remove these": the items the chosen licence holds leave this checkout, then on to the method.
    const drop = new Set(chosenIds(formData, "drop"));
    const items = pay.items.filter((i) => !(i.kind === "content" && drop.has(i.id)));
    if (!items.length) return redirect("/cart", { headers: { "Set-Cookie": await clearPay(context) } });
    return redirect("/pay03", { headers: { "Set-Cookie": await savePayItems(context, pay, items) } });
  }
  const form = Object.fromEntries(formData);
  const values = { choice: String(form.choice ?? ""), serial: String(form.serial ?? "") };
  const parsed = licenseSchema.safeParse(form);
  if (!parsed.success)
    return data(
      { error: parsed.error.issues[0]?.message.startsWith("pay.") ? parsed.error.issues[0].message : "pay.licenseRequired", values },
      { status: 400 },
    );
  try {
    const license = await resolvePurchaseLicense(
      context.db,
      viewer.id,
      parsed.data.choice === "key" ? { serial: parsed.data.serial } : { licenseId: parsed.data.choice },
    );
    const cookie = await savePay(context, pay, {
      licenseId: license.id,
      serial: parsed.data.choice === "key" ? license.serial : undefined,
    });
    // A licence that already holds some of the items: stay here and say which (issue 24, point 3).
    const ids = pay.items.flatMap((i) => (i.kind === "content" ? [i.id] : []));
    const { overlaps } = await checkoutOverlap(context.db, { flow: "member", licenseId: license.id }, viewer.id, ids);
    return redirect(overlaps.length ? "/pay02" : "/pay03", { headers: { "Set-Cookie": cookie } });
  } catch (error) {
    if (error instanceof MarketError) return data({ error: "pay.licenseNotFound", values }, { status: 400 });
    throw error;
  }
}

export default function Pay02() {
  const { licenses, chosen, serial, overlap, overlapSerial } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation();
  const id = useId();
  const choice = result?.values.choice ?? (chosen ? String(chosen) : serial ? "key" : licenses[0] ? String(licenses[0].id) : "key");
  return (
    <section className="pay-page">
      <h1>{t("pay.title")}</h1>
      <PaySteps current={2} />
      <h2 id={`${id}-h`}>{t("pay.step2")}</h2>
      <OverlapNotice lines={overlap} serial={overlapSerial} intent="drop" field="drop" keepHref="/pay03" />
      <p className="muted">{t("pay.licenseLead")}</p>
      <Form method="post" aria-labelledby={`${id}-h`} aria-describedby={`${id}-error`}>
        <fieldset>
          <legend>{t("pay.chooseLicense")}</legend>
          {licenses.length === 0 ? <p className="muted">{t("pay.noLicenses")}</p> : null}
          {licenses.map((l) => (
            <label key={l.id} className="pass-option" htmlFor={`${id}-${l.id}`}>
              <input id={`${id}-${l.id}`} type="radio" name="choice" value={l.id} defaultChecked={choice === String(l.id)} />
              <span className="pass-option-name">
                {l.alias ? `${l.alias} · ` : ""}
                {l.serial}
              </span>
              <small className="muted">
                {t(`mypage.type.${l.licenseType}`)}
                {l.validUntilText ? ` · ${t("pay.validUntil", { date: l.validUntilText })}` : ""}
              </small>
              {l.shortTerm ? (
                <small className="warning" role="note">
                  {t("pay.shortTerm")}
                </small>
              ) : null}
            </label>
          ))}
          <label className="pass-option" htmlFor={`${id}-key`}>
            <input id={`${id}-key`} type="radio" name="choice" value="key" defaultChecked={choice === "key"} />
            <span className="pass-option-name">{t("pay.enterKey")}</span>
          </label>
          <label htmlFor={`${id}-serial`} className="field-label">
            {t("pay.licenseKey")}
          </label>
          <input
            id={`${id}-serial`}
            name="serial"
            defaultValue={result?.values.serial ?? serial}
            maxLength={64}
            autoComplete="off"
            aria-invalid={result?.error ? true : undefined}
          />
        </fieldset>
        <p id={`${id}-error`} className="field-error" role="alert">
          {result?.error ? t(result.error) : ""}
        </p>
        <p className="pay-actions">
          <Link to="/pay01" className="button button-ghost">
            {t("pay.back")}
          </Link>
          <button type="submit" className="button" disabled={navigation.state === "submitting"}>
            {t("pay.next")}
          </button>
        </p>
      </Form>
    </section>
  );
}
