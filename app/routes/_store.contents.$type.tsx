import { type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { CartButtons } from "../components/cart-buttons";
import { CardGrid, formatDuration } from "../components/content-card";
import { AudioPlayer } from "../components/previews/audio-player";
import { FontPreview } from "../components/previews/font-preview";
import { VideoPreview } from "../components/previews/video-preview";
import { PriceBox } from "../components/price-box";
import { useTranslation } from "../i18n/react";
import { contentDetail, isContentType, relatedContents } from "../market/catalog/detail.server";
import { FONT_SAMPLE } from "../market/catalog/fonts.server";
import { fullRows } from "../market/catalog/landing.server";
import { cartOutcomeParam, detailQuery } from "../market/catalog/queries.server";
import { formatMoney, withVat } from "../market/money";
import { cacheHeaders } from "../utils/cache";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";
import { readShopper } from "../utils/shopper.server";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["cartResult", "favorites", "item"] };

/** Detail pages /contents/{video,icon,audio,font,package}?code=...: preview, price, kind, related items. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const parsed = detailQuery.safeParse(Object.fromEntries(url.searchParams));
  if (!isContentType(params.type) || !parsed.success) throw redirect("/404");
  const item = await contentDetail(context.db, { code: parsed.data.code }, context.locale);
  if (!item) throw redirect("/404");
  if (item.type !== params.type) throw redirect(`/contents/${item.type}?code=${item.code}`, 301);
  const [related, seo, shopper] = await Promise.all([
    relatedContents(context.db, item.id, context.locale, { offset: 0, limit: 8, withTotal: false }),
    pageSeo(request, context, {
      title: item.title,
      description: item.description,
      keep: ["code"],
      image: item.thumb ?? undefined,
      type: "product",
      space: item.type,
      keywordsLead: item.title,
    }),
    readShopper(request, context),
  ]);
  const origin = new URL(seo.url).origin;
  const jsonLd = {
    "@context": "https://schema.org",
    "@type": "Product",
    name: item.title,
    description: item.description,
    sku: item.code,
    category: item.category?.name,
    image: item.thumb ? `${origin}${item.thumb}` : undefined,
    url: seo.url,
    offers: {
      "@type": "Offer",
      price: (item.currency === "USD" ? withVat(item.price) / 100 : withVat(item.price)).toFixed(item.currency === "USD" ? 2 : 0),
      priceCurrency: item.currency,
      availability: item.discontinued ? "https://schema.org/Discontinued" : "https://schema.org/InStock",
    },
  };
  const fontText = parsed.data.text ?? FONT_SAMPLE[context.locale];
  const cartOutcome = cartOutcomeParam.parse(url.searchParams.get("cart"));
  return {
    item,
    // Related items as whole rows of four, like the landings' rows.
    related: fullRows(related?.list ?? []),
    seo,
    jsonLd,
    fontText,
    locale: context.locale,
    signedIn: Boolean(shopper.viewer),
    cartOutcome,
  };
}

export const headers = cacheHeaders("catalog");

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? [...seoMeta(data.seo), { "script:ld+json": data.jsonLd }] : []);

export default function ContentDetailPage() {
  const { item, related, fontText, locale, signedIn, cartOutcome } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const here = `/contents/${item.type}?code=${item.code}`;
  const typeName = item.type === "audio" && item.sub ? t(`item.audioSub.${item.sub}`) : t(`item.types.${item.type}`);
  return (
    <article className="detail">
      <div className="detail-main">
        <div className="detail-preview">
          {item.type === "video" ? (
            <VideoPreview poster={item.thumb} clip={item.preview?.endsWith(".mp4") ? item.preview : null} title={item.title} />
          ) : item.type === "icon" && item.thumb ? (
            <img
              src={item.thumb}
              alt={t("item.previewOf", { title: item.title })}
              width={512}
              height={512}
              className="preview-media icon-large"
            />
          ) : item.type === "audio" && item.preview ? (
            <AudioPlayer src={item.preview} title={item.title} waveform={item.thumb} peaks={item.peaks} />
          ) : item.type === "font" ? (
            <FontPreview code={item.code} initialText={fontText} family={item.fontFamily ?? "sans-serif"} />
          ) : item.thumb ? (
            <img src={item.thumb} alt={t("item.previewOf", { title: item.title })} width={640} height={360} className="preview-media" />
          ) : null}
        </div>
        <div className="detail-info">
          <p className="muted">{typeName}</p>
          <h1>{item.title}</h1>
          {item.discontinued ? (
            <p className="notice-box" role="status">
              {t("item.discontinued")}
            </p>
          ) : null}
          <PriceBox priceType={item.priceType} price={item.price} currency={item.currency} locale={locale} />
          {!item.discontinued && item.price !== item.listPrice ? (
            <p className="muted" data-testid="package-repriced">
              {t("item.packageRepriced", { price: formatMoney(item.listPrice, item.currency, locale) })}
            </p>
          ) : null}
          <p>{t(`item.requirement.${item.requirement}`)}</p>
          {!item.discontinued && item.priceType === "paid" ? (
            <CartButtons code={item.code} here={here} signedIn={signedIn} initialOutcome={cartOutcome} />
          ) : cartOutcome && cartOutcome !== "SUCCESS" && !(item.discontinued && cartOutcome === "DISCONTINUED") ? (
            // A refused add posted without scripts comes back here (a free or benefit item has no cart button): say
            // why (issue 26.8); a discontinued item already says so above.
            <p className="notice-box" role="status">
              {t(`cart.result.${cartOutcome}`)}
            </p>
          ) : null}
          <dl className="facts">
            {item.category ? (
              <>
                <dt>{t("item.category")}</dt>
                <dd>
                  <Link to={`/list/${item.type}/${item.category.id}`}>{item.category.name}</Link>
                </dd>
              </>
            ) : null}
            {item.genre ? (
              <>
                <dt>{t("item.genre")}</dt>
                <dd>
                  <Link to={`/list/audio/${item.genre.id}`}>{item.genre.name}</Link>
                </dd>
              </>
            ) : null}
            {item.mood ? (
              <>
                <dt>{t("item.mood")}</dt>
                <dd>
                  <Link to={`/list/${item.type}/${item.mood.id}`}>{item.mood.name}</Link>
                </dd>
              </>
            ) : null}
            {item.durationMs ? (
              <>
                <dt>{t("item.duration")}</dt>
                <dd>{formatDuration(item.durationMs)}</dd>
              </>
            ) : null}
            {item.bpm && item.bpmBand ? (
              <>
                <dt>{t("item.bpm")}</dt>
                <dd>
                  {item.bpm} · {t(`item.bpmBand.${item.bpmBand}`)}
                </dd>
              </>
            ) : null}
            {item.width && item.height ? (
              <>
                <dt>{item.type === "video" ? t("item.resolution") : t("item.size")}</dt>
                <dd>
                  {item.width}×{item.height}
                </dd>
              </>
            ) : null}
            {item.tags.length ? (
              <>
                <dt>{t("item.tags")}</dt>
                <dd>{item.tags.join(", ")}</dd>
              </>
            ) : null}
          </dl>
          <p className="muted">{item.description}</p>
        </div>
      </div>
      {item.bundle.length ? (
        <section className="section" aria-labelledby="bundle-h">
          <h2 id="bundle-h">
            {t("item.bundle")} · {t("item.bundleCount", { count: item.bundle.filter((c) => !c.discontinued).length })}
            {item.bundle.some((c) => c.discontinued)
              ? ` (${t("item.bundleDiscontinued", { count: item.bundle.filter((c) => c.discontinued).length })})`
              : ""}
          </h2>
          <CardGrid cards={item.bundle} locale={locale} label={t("item.bundle")} />
        </section>
      ) : null}
      {related.length ? (
        <section className="section" aria-labelledby="related-h">
          <h2 id="related-h">{t("item.related")}</h2>
          <CardGrid cards={related} locale={locale} label={t("item.related")} row />
        </section>
      ) : null}
    </article>
  );
}
