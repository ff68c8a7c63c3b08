import type { LoaderFunctionArgs } from "@remix-run/node";
import { webStream } from "../../integrations/storage/serve.server";
import { inquiryAttachmentForOperator } from "../../market/support.server";
import { actorOf, requireOperator } from "../guard.server";
import { positiveIdSchema } from "./forms.server";

/**
 * /admin/inquiries/:id/attachment: an inquiry's attachment streamed from private storage (the same files
 * support.server.ts writes) to an operator whose role reaches inquiries; never stored by a cache. No such
 * inquiry, none attached or a file that is gone: 404. Each GET is a line of the audit log.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const op = await requireOperator(request, context, "inquiries");
  const id = positiveIdSchema.safeParse(params.id);
  const viewer = request.method === "HEAD" ? null : actorOf(op, context);
  const found = id.success ? await inquiryAttachmentForOperator(context.db, context.storage, id.data, viewer) : null;
  if (!found || !id.success) return new Response("Not found", { status: 404, headers: { "Cache-Control": "private, no-store" } });
  const headers = new Headers({
    "Content-Type": found.type,
    "Content-Disposition": `inline; filename="inquiry-${id.data}.${found.type === "image/png" ? "png" : "jpg"}"`,
    "Cache-Control": "private, no-store",
    "Content-Length": String(found.size),
    "X-Content-Type-Options": "nosniff",
  });
  if (request.method === "HEAD") return new Response(null, { headers });
  const body = await context.storage.get(found.key);
  if (!body) return new Response("Not found", { status: 404, headers: { "Cache-Control": "private, no-store" } });
  return new Response(webStream(body), { headers });
}
