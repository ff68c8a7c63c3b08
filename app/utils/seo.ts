import type { MetaDescriptor } from "@remix-run/node";

/** A page's metadata, computed in its loader (translated) and rendered by its `meta` export. */
export interface Seo {
  title: string;
  description: string;
  keywords: string;
  url: string;
  locale: string;
  siteName: string;
  image?: string;
  type?: "website" | "product" | "article";
}

/** Title, description, keywords, canonical url and Open Graph tags for one page. */
export function seoMeta(seo: Seo | undefined): MetaDescriptor[] {
  if (!seo) return [];
  const title = seo.title === seo.siteName ? seo.title : `${seo.title} | ${seo.siteName}`;
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: seo.description },
    { name: "keywords", content: seo.keywords },
    { tagName: "link", rel: "canonical", href: seo.url },
    { property: "og:type", content: seo.type ?? "website" },
    { property: "og:site_name", content: seo.siteName },
    { property: "og:title", content: title },
    { property: "og:description", content: seo.description },
    { property: "og:url", content: seo.url },
    { property: "og:locale", content: seo.locale === "ko" ? "ko_KR" : "en_US" },
  ];
  if (seo.image) tags.push({ property: "og:image", content: seo.image });
  return tags;
}

/**
 * The canonical address of a request: PUBLIC_URL plus the path and only the query parameters that identify the
 * page. The request's own origin (its Host header) never appears: the client chooses it.
 */
export function canonicalUrl(request: Request, publicUrl: string, keep: readonly string[] = []): string {
  const url = new URL(request.url);
  const base = publicUrl.replace(/\/$/, "");
  const params = new URLSearchParams();
  for (const key of keep) {
    const value = url.searchParams.get(key);
    if (value !== null) params.set(key, value);
  }
  const query = params.size ? `?${params}` : "";
  return `${base}${url.pathname}${query}`;
}
