import type { LoaderFunctionArgs } from "@remix-run/node";
import { outboxEml } from "../market/mail/outbox.server";
import { positiveId } from "../utils/input.server";
import { outboxReader } from "../utils/operator-session.server";

/** Test mode, for a signed-in operator: the .eml file the outbox transport wrote for a delivered mail. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const id = positiveId.safeParse(params.id);
  const reader = await outboxReader(request, context);
  if (!reader || !id.success) return new Response(null, { status: 404 });
  const body = await outboxEml(context.db, context.env.DATA_DIR, id.data, reader);
  if (!body) return new Response(null, { status: 404 });
  return new Response(body, {
    headers: {
      "Content-Type": "message/rfc822",
      "Content-Disposition": `attachment; filename="${id.data}.eml"`,
      "Cache-Control": "private, no-store",
    },
  });
}
