import { type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useId } from "react";
import { ModalDialog } from "../components/modal";
import { useTranslation } from "../i18n/react";
import { cartOutcomeParam } from "../market/catalog/queries.server";
import { formatMoney, vatOf, withVat } from "../market/money";
import { groupOfSlug } from "../market/pass-groups";
import { passPriceGroups } from "../market/passes.server";
import { cacheHeaders } from "../utils/cache";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";
import { readShopper } from "../utils/shopper.server";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["cartResult", "item", "price"] };

/** /price/{type}: the pass options of one group and the buy button. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const group = groupOfSlug(params.type ?? "");
  if (!group) throw redirect("/404");
  const [groups, shopper] = await Promise.all([passPriceGroups(context.db, context.locale), readShopper(request, context)]);
  const seo = await pageSeo(request, context, { titleKey: `price.group.${group}`, descriptionKey: "price.passesLead" });
  return {
    slug: params.type as string,
    group,
    options: groups[group],
    seo,
    locale: context.locale,
    viewer: shopper.viewer ? { business: shopper.viewer.userType === 2 } : null,
    // The outcome of "Add to cart" without JavaScript comes back in the address.
    outcome: cartOutcomeParam.parse(new URL(request.url).searchParams.get("cart")),
  };
}

export const headers = cacheHeaders("catalog");

export const meta: MetaFunction<typeof loader> = ({ data }) => seoMeta(data?.seo);

export default function PriceDetailPage() {
  const { slug, group, options, locale, viewer, outcome } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const id = useId();
  const name = t(`price.group.${group}`);
  return (
    <>
      <p className="breadcrumb">
        <Link to="/price">{t("price.title")}</Link>
      </p>
      <h1>{name}</h1>
      <p className="muted">{t("price.passesLead")}</p>
      <Form method="get" action={viewer ? "/pay01" : "/login"} className="pass-form">
        <fieldset>
          <legend>{t("price.choose")}</legend>
          {options.map((o, i) => (
            <label key={o.id} className="pass-option" htmlFor={`${id}-${o.id}`}>
              <input id={`${id}-${o.id}`} type="radio" name="pass" value={o.id} defaultChecked={i === 0} />
              <span className="pass-option-name">{t("price.option", { count: o.contents_count, unit: t(`price.unit.${group}`) })}</span>
              <span>
                <strong>{formatMoney(withVat(o.price), o.currency, locale)}</strong>{" "}
                <small className="muted">
                  ({formatMoney(o.price, o.currency, locale)} + {formatMoney(vatOf(o.price), o.currency, locale)})
                </small>
              </span>
              <small className="muted">{t("price.validDays", { days: o.valid_days })}</small>
            </label>
          ))}
        </fieldset>
        <p role="status" className={`form-result${outcome && outcome !== "SUCCESS" ? " is-error" : ""}`}>
          {outcome ? t(`cart.result.${outcome}`) : ""}
        </p>
        {viewer?.business ? (
          <p className="notice-box">{t("price.businessCannotBuy")}</p>
        ) : viewer ? (
          <p className="pay-actions">
            <button type="submit" className="button">
              {t("price.buy")}
            </button>
            <input type="hidden" name="redirectTo" value={`/price/${slug}`} />
            <button type="submit" className="button button-ghost" formAction="/cart" formMethod="post" name="intent" value="addPass">
              {t("item.addToCart")}
            </button>
          </p>
        ) : (
          <>
            <input type="hidden" name="redirectTo" value={`/price/${slug}`} />
            <button type="submit" className="button">
              {t("price.signInToBuy")}
            </button>
          </>
        )}
      </Form>
      {viewer?.business ? (
        // The spec's pop-up for business accounts: the service is for individual members; confirming signs out.
        <ModalDialog className="popup" labelledBy={`${id}-pop`}>
          <p id={`${id}-pop`}>{t("price.individualOnly")}</p>
          <div className="popup-actions">
            <Form method="post" action="/logout">
              <input type="hidden" name="redirectTo" value={`/price/${slug}`} />
              <button type="submit" className="button">
                {t("price.confirmSignOut")}
              </button>
            </Form>
            <Link to="/price" className="button button-ghost">
              {t("price.cancel")}
            </Link>
          </div>
        </ModalDialog>
      ) : null}
      <ul className="muted">
        <li>{t("price.notice.vat")}</li>
        <li>{t("price.notice.deduct")}</li>
        {/* A business account is told once, in the box above (issue 26.8). */}
        {viewer?.business ? null : <li>{t("price.notice.business")}</li>}
      </ul>
    </>
  );
}
