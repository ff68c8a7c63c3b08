import type { Env } from "../../utils/env.server";
import { createLocalStorage } from "./local.server";
import { createS3Storage } from "./s3.server";
import type { Storage } from "./storage";

export { createLocalStorage, streamToBuffer } from "./local.server";
export { createS3Storage } from "./s3.server";
export type { ByteRange, ListedFile, Storage, StoredFile } from "./storage";
export { checkKey, isSafeKey, storageKey, storagePrefix } from "./storage";

/** The store's storage from the environment: STORAGE_URL's object store, or the local disk under DATA_DIR. */
export function createStorage(env: Pick<Env, "DATA_DIR" | "STORAGE_URL">): Storage {
  return env.STORAGE_URL ? createS3Storage(env.STORAGE_URL) : createLocalStorage(env.DATA_DIR);
}
