/**
 * npm run newsletter -- --subject-ko "..." --subject-en "..." --body-ko "..." --body-en "..."
 * Queues a newsletter to every member who agreed to marketing mail, in each member's language, each with its
 * one-click unsubscribe link (RFC 8058). The server's mail worker delivers it (MAIL_TRANSPORT). Reads DATABASE_URL,
 * DATA_DIR and SESSION_SECRET as the server does, so the unsubscribe links verify.
 */
import { parseArgs } from "node:util";
import { createDb } from "../app/db/db.server";
import { queueNewsletter } from "../app/market/mail/unsubscribe.server";
import { sessionSecret } from "../app/utils/cookies.server";
import { parseEnv } from "../app/utils/env.server";

const { values } = parseArgs({
  options: {
    "subject-ko": { type: "string" },
    "subject-en": { type: "string" },
    "body-ko": { type: "string" },
    "body-en": { type: "string" },
  },
});
const need = ["subject-ko", "subject-en", "body-ko", "body-en"] as const;
if (need.some((k) => !values[k]?.trim())) {
  console.error('usage: npm run newsletter -- --subject-ko "…" --subject-en "…" --body-ko "…" --body-en "…"');
  process.exit(2);
}
const env = parseEnv();
const db = createDb(env.DATABASE_URL);
try {
  const count = await queueNewsletter(
    db,
    {
      subject: { ko: values["subject-ko"] as string, en: values["subject-en"] as string },
      body: { ko: values["body-ko"] as string, en: values["body-en"] as string },
    },
    sessionSecret(env),
  );
  console.log(JSON.stringify({ queued: count }));
} finally {
  await db.destroy();
}
