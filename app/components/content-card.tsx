import { Link } from "@remix-run/react";
import { useState } from "react";
import type { Locale } from "../i18n/config";
import { useTranslation } from "../i18n/react";
import type { ContentCard as Card } from "../market/catalog/cards.server";
import { formatMoney, withVat } from "../market/money";

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
          ) : card.type === "font" ? (
            <span className="font-sample" aria-hidden="true">
              Aa 가나
            </span>
          ) : (
            <span className="audio-glyph" aria-hidden="true">
              ♪
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

export function CardGrid({ cards, locale, label }: { cards: Card[]; locale: Locale; label: string }) {
  return (
    <ul className="card-grid" aria-label={label}>
      {cards.map((c) => (
        <ContentCard key={c.id} card={c} locale={locale} />
      ))}
    </ul>
  );
}
