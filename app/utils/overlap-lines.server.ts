import type { OverlapLine } from "../components/overlap-notice";
import type { Locale } from "../i18n/config";
import type { Overlap } from "../market/downloads/overlap.server";
import { seoulText } from "./dates";

/**
 * The overlap notice's lines from the domain's answer: titles from the page's own lines (`titleOf`), the id the
 * removal form sends (`idOf`: a cart line or the content itself), dates spelled in the page's language.
 */
export function overlapLines(
  overlaps: Overlap[],
  locale: Locale,
  titleOf: (contentId: number) => string | undefined,
  idOf: (contentId: number) => number | undefined = (id) => id,
): OverlapLine[] {
  return overlaps.flatMap((o) => {
    const title = titleOf(o.contentId);
    const id = idOf(o.contentId);
    if (title === undefined || id === undefined) return [];
    return [
      {
        id,
        title,
        source: o.source,
        until: o.until ? seoulText(o.until, locale, "until") : "",
        requestNo: o.requestNo,
        serial: o.serial,
      },
    ];
  });
}
