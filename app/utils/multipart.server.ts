import { type UploadHandler, unstable_parseMultipartFormData } from "@remix-run/node";

export interface FormLimits {
  /** Largest file part kept; a larger one is read past and named in `oversized`. */
  maxFileBytes: number;
  /** Largest text field kept (default 64 KiB); a larger one is named in `oversized`. */
  maxFieldBytes?: number;
  /** Parts read at most (default 20). */
  maxParts?: number;
  /** Bytes of all parts together read at most; past it reading stops and `truncated` is set. */
  maxBodyBytes: number;
}

export interface BoundedForm {
  /** The fields and files read within the limits. */
  form: FormData;
  /** Fields left out for their size. */
  oversized: string[];
  /** Reading stopped early: the body was over its limit, had too many parts, or was not well formed. */
  truncated: boolean;
}

class Stop extends Error {}

/**
 * Reads a form post, multipart or urlencoded, holding at most the limits in memory. Unlike Remix's memory upload
 * handler, which throws on the first part over its size and so loses the whole form, a too-large file is read
 * past (not kept) and reported, and the fields before and after it are kept: a page can answer "file too large"
 * and show what was typed. Fields come in page order, so when reading stops at `maxBodyBytes` those before the
 * file are still there.
 */
export async function readBoundedForm(request: Request, limits: FormLimits): Promise<BoundedForm> {
  const maxFieldBytes = limits.maxFieldBytes ?? 64 * 1024;
  const maxParts = limits.maxParts ?? 20;
  const form = new FormData();
  const oversized = new Set<string>();
  const type = request.headers.get("content-type") ?? "";
  if (!type.startsWith("multipart/form-data")) {
    const text = await readText(request, limits.maxBodyBytes);
    if (text === null) return { form, oversized: [], truncated: true };
    let parts = 0;
    for (const [name, value] of new URLSearchParams(text)) {
      if (++parts > maxParts) return { form, oversized: [...oversized], truncated: true };
      if (Buffer.byteLength(value) > maxFieldBytes) oversized.add(name);
      else form.append(name, value);
    }
    return { form, oversized: [...oversized], truncated: false };
  }
  let total = 0;
  let parts = 0;
  const handler: UploadHandler = async ({ name, filename, contentType, data }) => {
    if (++parts > maxParts) throw new Stop();
    const isFile = typeof filename === "string";
    const limit = isFile ? limits.maxFileBytes : maxFieldBytes;
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of data) {
      total += chunk.byteLength;
      size += chunk.byteLength;
      if (total > limits.maxBodyBytes) {
        oversized.add(name);
        throw new Stop();
      }
      if (size <= limit) chunks.push(chunk);
      else chunks.length = 0;
    }
    if (size > limit) oversized.add(name);
    else if (isFile) form.append(name, new File(chunks as BlobPart[], filename, { type: contentType }));
    else form.append(name, Buffer.concat(chunks).toString("utf8"));
    return undefined;
  };
  try {
    await unstable_parseMultipartFormData(request, handler);
  } catch {
    // Over a limit (Stop) or malformed: keep what was read.
    return { form, oversized: [...oversized], truncated: true };
  }
  return { form, oversized: [...oversized], truncated: false };
}

/** The body as text, or null when it is longer than `max` bytes (reading stops there). */
async function readText(request: Request, max: number): Promise<string | null> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
