/** The fuzzer's samples for this console section: a form body per action route id, a value per dynamic segment. */
export const FORM_SAMPLES: Record<string, Record<string, string | string[]>[]> = {};
export const PARAMS: Record<string, Record<string, string>> = {};
