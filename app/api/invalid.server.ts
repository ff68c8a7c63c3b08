import type { z } from "zod";
import type { Locale } from "../i18n/config";
import { fixedT } from "../i18n/i18n.server";
import { storeStrings } from "../i18n/resources";
import { apiErrors, apiMessage } from "./messages.server";

/** Whether `key` (e.g. "request.error.emailInvalid") names a message of the pages' common strings. */
function isPageMessage(language: Locale, key: string): boolean {
  if (!/^[a-zA-Z]\w*(\.\w+)+$/.test(key)) return false;
  let at: unknown = storeStrings[language];
  for (const part of key.split(".")) at = at && typeof at === "object" ? (at as Record<string, unknown>)[part] : undefined;
  return typeof at === "string";
}

/**
 * A validation refusal's message: the words the pages show for the same field when the schema names them (the
 * purchase-request form's, spec section 5: 'Enter a valid email address'...), else the schema's own `apiError` entry
 * with the field, else a generic one naming the field.
 */
export function invalidMessage(language: Locale, issue: z.ZodIssue): string {
  const field = issue.path.join(".") || "request";
  const own = issue.message.startsWith("apiError.") ? issue.message.slice("apiError.".length) : null;
  if (own && own in apiErrors(language)) return `${field}: ${apiMessage(language, own)}`;
  if (isPageMessage(language, issue.message)) return fixedT(language)(issue.message);
  return apiMessage(language, "INVALID_REQUEST", { field });
}
