/**
 * What the console publishes, per storefront page (plain module: the console's forms and lists read it too). The
 * pages are the home page and the category sub-mains; the API's banners/{id}, keyvisuals/{id} and keywords/{id}
 * take the same names.
 */
export const PUBLISHING_PAGES = ["home", "video", "icon", "audio", "package", "benefit", "font"] as const;
export type PublishingPage = (typeof PUBLISHING_PAGES)[number];
export const BANNER_KINDS = ["keyvisual", "banner"] as const;
export type BannerKind = (typeof BANNER_KINDS)[number];

/** The storefront address of a page (where its banners and keywords show). */
export const pageAddress = (page: PublishingPage) => (page === "home" ? "/" : `/${page}`);

/**
 * Where a banner may lead: a path of this store ("/price", "/event/3") or an https address. Never "//host",
 * a backslash or a script address.
 */
export function bannerLinkOk(link: string): boolean {
  if (link.length > 500 || /[\s\\]/.test(link)) return false;
  if (link.startsWith("/")) return !link.startsWith("//");
  try {
    return new URL(link).protocol === "https:";
  } catch {
    return false;
  }
}

/** A public image the console may point at: one under /media (uploaded or seeded), nothing else. */
export const MEDIA_PATH = /^\/media\/[a-z0-9][a-z0-9/_-]{0,120}\.(png|jpg|jpeg|svg|webp)$/;
