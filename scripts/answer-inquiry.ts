/**
 * Answers an inquiry through the domain (the same answerInquiry the operator console's /admin/inquiries/:id
 * calls, there with the operator as actor and an audit line): `node --import tsx scripts/answer-inquiry.ts <id>
 * <answer>` with DATABASE_URL set. The inquiry becomes completed and the member's answer mail is queued. A
 * development tool (tests/e2e/qna.spec.ts uses it); it writes no audit line, having no operator.
 */
import { createDb } from "../app/db/db.server";
import { answerInquiry } from "../app/market/support.server";

const [id, answer] = process.argv.slice(2);
const db = createDb(process.env.DATABASE_URL ?? "file:./data/market.sqlite");
try {
  const done = await answerInquiry(db, Number(id), answer ?? "");
  console.log(JSON.stringify({ answered: done.id }));
} finally {
  await db.destroy();
}
