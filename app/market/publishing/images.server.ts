import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { MarketError } from "../errors";
import { imageKind } from "../support.server";

/** The largest image the console publishes (a banner or an event's picture). */
export const PUBLISHING_IMAGE_MAX_BYTES = 2 * 1024 * 1024;

/**
 * Stores an image for the storefront (PNG or JPEG by its first bytes, up to 2 MB; else IMAGE_REFUSED) under
 * DATA_DIR/media/publishing, named by its content, and answers its public path (/media/publishing/<hash>.<kind>).
 * The same picture is stored once. A file written for a preview is only published when a saved row names it.
 */
export async function storePublicImage(dataDir: string, bytes: Uint8Array): Promise<string> {
  const kind = imageKind(bytes);
  if (!kind) throw new MarketError("IMAGE_REFUSED", 400, "The image must be a PNG or JPEG file");
  if (bytes.length > PUBLISHING_IMAGE_MAX_BYTES) throw new MarketError("IMAGE_TOO_LARGE", 400, "The image is over 2 MB");
  const name = `${createHash("sha256").update(bytes).digest("hex").slice(0, 32)}.${kind}`;
  const dir = path.join(dataDir, "media", "publishing");
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, name);
  try {
    await fs.writeFile(file, bytes, { flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return `/media/publishing/${name}`;
}
