// Makes the demo catalog's preview clips once (ffmpeg), into the per-machine cache every seed copies them from, so
// the test lanes that seed side by side do not each make them (scripts/test.sh).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { writeMediaPool } from "../app/db/seed/media.server";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "market-media-warm-"));
try {
  const { clips, ms } = await writeMediaPool(dir);
  console.log(`demo media ready in ${ms} ms (${clips ? "with" : "without"} video clips)`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
