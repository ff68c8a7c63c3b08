/** Pass (subscription) groups, shared by the pricing pages and the domain core. */
export const PASS_GROUPS = ["video", "audio_se", "audio_bgm", "audio_ai", "image", "font"] as const;
export type PassGroup = (typeof PASS_GROUPS)[number];

/**
 * Spec section 3: contents_flag 1 image, 2 video, 4 audio, anything else font; audio split by
 * contents_type_sub 3001 sound effect, 3002 background music, 3003 AI background music.
 */
export function passGroupOf(contentsFlag: number, contentsTypeSub: number | null): PassGroup {
  if (contentsFlag === 1) return "image";
  if (contentsFlag === 2) return "video";
  if (contentsFlag === 4) {
    if (contentsTypeSub === 3001) return "audio_se";
    if (contentsTypeSub === 3003) return "audio_ai";
    return "audio_bgm";
  }
  return "font";
}

/** The pricing pages' order and addresses: /price/{slug}. */
export const PRICE_PAGES = [
  { slug: "video", group: "video" },
  { slug: "icon", group: "image" },
  { slug: "audio-bgm", group: "audio_bgm" },
  { slug: "audio-se", group: "audio_se" },
  { slug: "audio-ai", group: "audio_ai" },
  { slug: "font", group: "font" },
] as const satisfies readonly { slug: string; group: PassGroup }[];

export type PriceSlug = (typeof PRICE_PAGES)[number]["slug"];
export const groupOfSlug = (slug: string): PassGroup | null => PRICE_PAGES.find((p) => p.slug === slug)?.group ?? null;
