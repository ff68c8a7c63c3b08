import { data } from "@remix-run/node";
import type { Storage } from "../../integrations/storage/storage";
import { MarketError } from "../../market/errors";
import { storePublicImage } from "../../market/publishing/images.server";
import { readBoundedForm } from "../../utils/multipart.server";
import { formObject } from "../forms.server";
import { EVENT_FORM_LIMITS, idParam } from "./forms.server";

/**
 * Runs a save; a refusal of the domain that the form can explain (a coupon code taken, a bad period...) comes back
 * as `{ refused: code }` with its status, so the page keeps what was typed. Anything else goes on (to domainCall).
 */
export async function formRefusal<T>(fn: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; code: string; status: number }> {
  try {
    return { ok: true, value: await fn() };
  } catch (error) {
    if (error instanceof MarketError && error.status < 500 && error.status !== 404 && error.status !== 403)
      return {
        ok: false,
        code:
          error.code === "NOTICE_INVALID" || error.code === "EVENT_INVALID" || error.code === "BANNER_INVALID" ? error.message : error.code,
        status: error.status,
      };
    throw error;
  }
}

/** A 400 answer with the values typed and the problem's key. */
export const badInput = <V>(values: V, problem: string, status = 400) =>
  data({ ok: false as const, values, problem, preview: null }, { status });

/** The row an edit page is about, from its address: "new" for a new one (null), a number for one that exists; else 404. */
export function editTarget(raw: string | undefined): number | null {
  if (raw === "new") return null;
  const id = idParam.safeParse(raw ?? "");
  if (!id.success) throw data(null, { status: 404 });
  return id.data;
}

/**
 * A publishing form that may carry a picture (banner, event): read within EVENT_FORM_LIMITS, the typed `fields` kept
 * for the page to show again. A picture sent with this post replaces the one named so far; it is stored now (named
 * by its content) so the preview can show it, and is published only when a saved row names it. Answers the form and
 * the values, or the 4xx answer to return as it is.
 */
export async function readPictureForm<F extends string>(request: Request, storage: Storage, fields: readonly F[]) {
  const { form: raw, oversized, truncated } = await readBoundedForm(request, EVENT_FORM_LIMITS);
  const form = formObject(raw);
  const values = Object.fromEntries(fields.map((f) => [f, form[f] ?? ""])) as Record<F | "image_path", string>;
  const refuse = (problem: string, status?: number) => ({ ok: false as const, answer: badInput(values, problem, status) });
  if (truncated || oversized.some((name) => name !== "image")) return refuse("tooLarge", 413);
  if (oversized.includes("image")) return refuse("IMAGE_TOO_LARGE");
  const file = raw.get("image");
  if (file instanceof File && file.size > 0) {
    const stored = await formRefusal(async () => storePublicImage(storage, new Uint8Array(await file.arrayBuffer())));
    if (!stored.ok) return refuse(stored.code, stored.status);
    values.image_path = stored.value;
  }
  return { ok: true as const, form, values };
}
