import type { Migration } from "kysely";
import * as m0001 from "./0001_initial";

/** Every migration, in order. Imported statically so the server bundle carries them. */
export const migrations: Record<string, Migration> = {
  "0001_initial": m0001,
};
