import { createHash } from "node:crypto";
import type { Storage } from "../../integrations/storage/storage";
import { MarketError } from "../errors";
import { imageKind } from "../support.server";

/** The largest image the console publishes (a banner or an event's picture). */
export const PUBLISHING_IMAGE_MAX_BYTES = 2 * 1024 * 1024;

/**
 * Stores an image for the storefront (PNG or JPEG by its first bytes, up to 2 MB; else IMAGE_REFUSED) under
 * media/publishing/ in the store's storage, named by its content, and answers its public path (/media/publishing/<hash>.<kind>).
 * The same picture is stored once. A file written for a preview is only published when a saved row names it.
 */
export async function storePublicImage(storage: Storage, bytes: Uint8Array): Promise<string> {
  const kind = imageKind(bytes);
  if (!kind) throw new MarketError("IMAGE_REFUSED", 400, "The image must be a PNG or JPEG file");
  if (bytes.length > PUBLISHING_IMAGE_MAX_BYTES) throw new MarketError("IMAGE_TOO_LARGE", 400, "The image is over 2 MB");
  const name = `${createHash("sha256").update(bytes).digest("hex").slice(0, 32)}.${kind}`;
  const key = `media/publishing/${name}`;
  // Named by its content: a picture already there is the same picture.
  if (!(await storage.stat(key))) await storage.put(key, bytes, { contentType: kind === "png" ? "image/png" : "image/jpeg" });
  return `/media/publishing/${name}`;
}
