import type { LoaderFunctionArgs } from "@remix-run/node";
import { serveStored } from "../integrations/storage/serve.server";
import { isSafeKey } from "../integrations/storage/storage";
import { contentTypeOf, resolveFileLink } from "../market/downloads/downloads.server";

/**
 * A signed, short-lived download link: the link is checked first (live, a file link), then the file is streamed
 * from the private storage (local disk or object store) with range requests (resumable downloads) and its content
 * type. Nothing but a live link issued after the download checks opens a file.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const link = await resolveFileLink(context.db, params.token ?? "");
  if (!link) return new Response("This download link has expired. Start the download again.", { status: 410 });
  const key = `storage/${link.file}`;
  if (!isSafeKey(key)) return new Response("Not found", { status: 404 });
  const response = await serveStored(context.storage, key, request, {
    "Content-Type": contentTypeOf(link.file),
    "Content-Disposition": `attachment; filename="${link.filename.replace(/[^\w.-]/g, "_")}"`,
    // no-transform: the compression middleware must not touch ranges or lengths.
    "Cache-Control": "private, no-store, no-transform",
  });
  return response ?? new Response("Not found", { status: 404 });
}
