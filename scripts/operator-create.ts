// npm run operator:create -- --email a@b.c --name "Kim" --role admin
// Creates an operator of the console in DATABASE_URL (migrating it first). The password is read from
// OPERATOR_PASSWORD, or asked on the terminal without echo. Production has no operator until this is run.
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { createDb, migrateToLatest } from "../app/db/db.server";
import { createOperator } from "../app/market/operators/accounts.server";
import { OPERATOR_ROLES } from "../app/market/operators/roles";
import { parseEnv } from "../app/utils/env.server";

const { values } = parseArgs({ options: { email: { type: "string" }, name: { type: "string" }, role: { type: "string" } } });
if (!values.email || !values.name || !values.role) {
  console.error(`usage: npm run operator:create -- --email <e-mail> --name <name> --role <${OPERATOR_ROLES.join("|")}>`);
  process.exit(2);
}

async function askPassword(): Promise<string> {
  if (process.env.OPERATOR_PASSWORD) return process.env.OPERATOR_PASSWORD;
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: process.stdin.isTTY });
  const muted = rl as unknown as { _writeToOutput?: (s: string) => void };
  process.stdout.write("Password (10+ characters, a letter, a digit and a symbol): ");
  muted._writeToOutput = () => {};
  const answer = await new Promise<string>((resolve) => rl.question("", resolve));
  rl.close();
  process.stdout.write("\n");
  return answer;
}

const MESSAGES: Record<string, string> = {
  email: "the e-mail address is not valid",
  name: "the name must be 1 to 60 characters",
  role: `the role must be one of ${OPERATOR_ROLES.join(", ")}`,
  length: "the password must be 10 to 128 characters",
  classes: "the password needs a letter, a digit and a symbol",
  email_in_password: "the password must not contain the e-mail's name",
  taken: "an operator with this e-mail already exists",
};

const env = parseEnv();
const db = createDb(env.DATABASE_URL);
try {
  await migrateToLatest(db);
  const result = await createOperator(
    db,
    { email: values.email, name: values.name, role: values.role, password: await askPassword() },
    null,
  );
  if (!result.ok) {
    console.error(`operator not created: ${MESSAGES[result.problem] ?? result.problem}`);
    process.exitCode = 1;
  } else console.log(`operator ${values.email.trim().toLowerCase()} created (${values.role}), id ${result.id}`);
} finally {
  await db.destroy();
}
