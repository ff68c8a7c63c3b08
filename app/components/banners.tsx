import { Link } from "@remix-run/react";
import type { Banner } from "../market/catalog/landing.server";

/** Key visuals and banners: the image is decoration, the text is real text. */
export function BannerStrip({ banners, label }: { banners: Banner[]; label: string }) {
  if (!banners.length) return null;
  return (
    <section className="banners" aria-label={label}>
      {banners.map((b, i) => (
        <Link key={b.id} to={b.link} className={`banner banner-${b.kind}`}>
          <img
            src={b.image}
            alt=""
            width={1200}
            height={360}
            loading={i === 0 ? "eager" : "lazy"}
            // React 18 does not know fetchPriority yet; the lowercase attribute reaches the DOM as is.
            {...{ fetchpriority: i === 0 ? "high" : "auto" }}
          />
          <span className="banner-text">
            <strong>{b.title}</strong>
            <span>{b.subtitle}</span>
          </span>
        </Link>
      ))}
    </section>
  );
}
