import fs from "node:fs/promises";
import path from "node:path";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { outboxDir } from "../integrations/mail/transport.server";
import { outboxVisible } from "../market/mail/outbox.server";
import { positiveId } from "../utils/input.server";

/** Test mode: the .eml file the outbox transport wrote for a delivered mail. */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const id = positiveId.safeParse(params.id);
  if (!outboxVisible(context.env, context.clientIp) || !id.success) return new Response(null, { status: 404 });
  const body = await fs.readFile(path.join(outboxDir(context.env.DATA_DIR), `${id.data}.eml`)).catch(() => null);
  if (!body) return new Response(null, { status: 404 });
  return new Response(body, {
    headers: {
      "Content-Type": "message/rfc822",
      "Content-Disposition": `attachment; filename="${id.data}.eml"`,
      "Cache-Control": "private, no-store",
    },
  });
}
