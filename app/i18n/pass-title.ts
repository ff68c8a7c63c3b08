import type { TFunction } from "./translate";

/** How a pass is named everywhere (cart, checkout, payments): "<group> pass, <count> items". */
export const passTitle = (t: TFunction, group: string, count: number) => t("pay.passTitle", { group: t(`price.group.${group}`), count });
