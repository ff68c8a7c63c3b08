import type { AppLoadContext } from "@remix-run/node";
import { fixedT } from "../i18n/i18n.server";
import { canonicalUrl, type Seo } from "./seo";

/**
 * Builds a page's metadata from translation keys. Every storefront loader calls this so the title,
 * description, keywords and canonical url are reset on every navigation.
 */
export async function pageSeo(
  request: Request,
  context: AppLoadContext,
  page: {
    titleKey?: string;
    title?: string;
    descriptionKey?: string;
    description?: string;
    keep?: string[];
    image?: string;
    type?: Seo["type"];
    /** The category the page belongs to: its keywords, and its description unless the page has its own. */
    space?: string;
    /** Words placed before the category's keywords (a detail page's title). */
    keywordsLead?: string;
  },
): Promise<Seo> {
  const t = fixedT(context.locale);
  return {
    siteName: t("brand"),
    title: page.title ?? (page.titleKey ? t(page.titleKey) : t("meta.home")),
    description:
      page.description ??
      (page.descriptionKey ? t(page.descriptionKey) : page.space ? t(`meta.${page.space}Description`) : t("meta.siteDescription")),
    keywords: [page.keywordsLead, page.space ? t(`meta.${page.space}Keywords`) : t("meta.siteKeywords")].filter(Boolean).join(", "),
    url: canonicalUrl(request, context.env.PUBLIC_URL, page.keep),
    locale: context.locale,
    image: page.image,
    type: page.type,
  };
}
