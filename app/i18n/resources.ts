import enCommon from "./locales/en/common.json";
import koCommon from "./locales/ko/common.json";

/** Every language's strings, for the server and tests (the browser loads one language with loadCommon). */
export const resources = {
  en: { common: enCommon },
  ko: { common: koCommon },
} as const;
