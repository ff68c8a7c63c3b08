import { Link } from "@remix-run/react";
import { useState } from "react";
import type { Locale } from "../i18n/config";
import { useTranslation } from "../i18n/react";
import type { ContentCard as Card } from "../market/catalog/cards.server";
import { formatMoney, withVat } from "../market/money";
import { subsetUrl } from "./previews/font-preview";

export function detailHref(card: Pick<Card, "type" | "code">): string {
  return `/contents/${card.type}?code=${card.code}`;
}

export function formatDuration(ms: number): string {
  const total = Math.round(ms / 1000);
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}

export function PriceTag({ card, locale }: { card: Pick<Card, "priceType" | "price" | "currency">; locale: Locale }) {
  const { t } = useTranslation();
  if (card.priceType === "free") return <span className="price price-free">{t("item.free")}</span>;
  if (card.priceType === "benefit") return <span className="price price-benefit">{t("item.benefit")}</span>;
  return (
    <span className="price">
      {formatMoney(withVat(card.price), card.currency, locale)} <small>{t("item.vatIncluded")}</small>
    </span>
  );
}

/** One item in a grid: thumbnail (sized, lazy), title, kind and price. */
export function ContentCard({ card, locale }: { card: Card; locale: Locale }) {
  const { t } = useTranslation();
  const square = card.type === "icon";
  // Video cards play their clip while pointed at or focused (hover-to-play); nothing loads before that.
  const clip = card.type === "video" && card.preview?.endsWith(".mp4") ? card.preview : null;
  const [playing, setPlaying] = useState(false);
  const hover = clip
    ? {
        onMouseEnter: () => setPlaying(true),
        onMouseLeave: () => setPlaying(false),
        onFocus: () => setPlaying(true),
        onBlur: () => setPlaying(false),
      }
    : {};
  return (
    <li className={`card card-${card.type}`}>
      <Link to={detailHref(card)} className="card-link" prefetch="intent" {...hover}>
        <div className={`card-thumb${square ? " is-square" : ""}`}>
          {playing && clip ? (
            <video className="card-clip" src={clip} muted loop autoPlay playsInline aria-hidden="true" tabIndex={-1} />
          ) : null}
          {card.thumb ? (
            <img src={card.thumb} alt="" loading="lazy" decoding="async" width={square ? 256 : 640} height={square ? 256 : 360} />
          ) : card.type === "font" && card.fontFamily ? (
            <FontSample code={card.code} family={card.fontFamily} />
          ) : (
            <span className={`thumb-glyph thumb-glyph-${card.type}`} aria-hidden="true">
              {card.type === "audio" ? "♪" : card.type === "font" ? "Aa" : ""}
            </span>
          )}
          {card.durationMs ? <span className="duration">{formatDuration(card.durationMs)}</span> : null}
        </div>
        <span className="card-title">{card.title}</span>
      </Link>
      <span className="card-meta">
        {card.type === "audio" && card.sub ? t(`item.audioSub.${card.sub}`) : t(`item.types.${card.type}`)}
        {card.bpm ? ` · ${card.bpm} ${t("item.bpm")}` : ""}
      </span>
      {/* A package's discontinued member is shown as such, without a price (issue 18, point 11). */}
      {card.discontinued ? <span className="card-discontinued">{t("item.discontinued")}</span> : <PriceTag card={card} locale={locale} />}
    </li>
  );
}

/** A font card's sample: the font's name set in the font itself (a WOFF2 subset of just those letters). */
function FontSample({ code, family }: { code: string; family: string }) {
  const face = `card-${code}`;
  return (
    <span className="font-sample" aria-hidden="true">
      <style
        // Raw text: React would escape the quotes, and a browser does not decode entities inside <style>.
        // biome-ignore lint/security/noDangerouslySetInnerHtml: the code is the catalog's and the text is URL-encoded
        dangerouslySetInnerHTML={{
          __html: `@font-face{font-family:"${face}";src:url("${subsetUrl(code, family)}") format("woff2");font-display:block}`,
        }}
      />
      <span style={{ fontFamily: `"${face}", "${family}", sans-serif` }}>{family}</span>
    </span>
  );
}

/** A grid of cards; `row` lays out a landing's row (4 or 8 best sellers) in columns it fills at every width. */
export function CardGrid({ cards, locale, label, row = false }: { cards: Card[]; locale: Locale; label: string; row?: boolean }) {
  return (
    <ul className={row ? "card-grid card-row" : "card-grid"} aria-label={label}>
      {cards.map((c) => (
        <ContentCard key={c.id} card={c} locale={locale} />
      ))}
    </ul>
  );
}
