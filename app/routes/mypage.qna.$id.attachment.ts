import type { LoaderFunctionArgs } from "@remix-run/node";
import { webStream } from "../integrations/storage/serve.server";
import { inquiryAttachment } from "../market/support.server";
import { requireViewer } from "../utils/auth.server";
import { positiveId } from "../utils/input.server";

/**
 * /mypage/qna/{id}/attachment: an inquiry's attachment, streamed from private storage to the member who sent it
 * (signed in by cookie, or by the API's authorizationToken), never from a public path. Anyone else, an inquiry
 * without one, or a file that is gone: 404. The file's name changes when it is replaced, so it is the ETag
 * (helmet's nosniff keeps browsers to the declared type).
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const id = positiveId.safeParse(params.id);
  const found = id.success ? await inquiryAttachment(context.db, context.storage, viewer.id, id.data) : null;
  if (!found) return new Response("Not found", { status: 404, headers: { "Cache-Control": "private, no-store" } });
  const headers = new Headers({
    "Content-Type": found.type,
    "Content-Disposition": `inline; filename="inquiry-${id.data}.${found.type === "image/png" ? "png" : "jpg"}"`,
    "Cache-Control": "private, no-cache",
    ETag: found.etag,
  });
  if (request.headers.get("if-none-match") === found.etag) return new Response(null, { status: 304, headers });
  headers.set("Content-Length", String(found.size));
  if (request.method === "HEAD") return new Response(null, { headers });
  const body = await context.storage.get(found.key);
  if (!body) return new Response("Not found", { status: 404, headers: { "Cache-Control": "private, no-store" } });
  return new Response(webStream(body), { headers });
}
