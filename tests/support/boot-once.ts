// Boots the database from the environment as server.ts does, in a process of its own (tests/integration/boot.test.ts
// runs it as another user to meet folders it may not write). Prints "booted", or the error's name and message.
import { bootDatabase } from "../../app/db/boot.server";
import { parseEnv } from "../../app/utils/env.server";

try {
  const db = await bootDatabase(parseEnv(), () => {});
  await db.destroy();
  console.log("booted");
} catch (error) {
  console.log(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
  process.exitCode = 1;
}
