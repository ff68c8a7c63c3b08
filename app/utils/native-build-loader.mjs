// A module-loading hook (node:module register) that loads the Remix server build (build/index.js) as Node loads
// any ES module, before tsx's hooks see it. tsx transformed the 1.5 MB bundle and kept its output, an inline source
// map and the map's decoded mappings in every process: some 14 MB of strings per worker, and more resident memory
// while loading. The build is plain JavaScript for Node and needs no transform. Registered by server.ts.
import fs from "node:fs";

export async function load(url, context, nextLoad) {
  if (url.startsWith("file:") && new URL(url).pathname.endsWith("/build/index.js"))
    return { format: "module", source: fs.readFileSync(new URL(url)), shortCircuit: true };
  return nextLoad(url, context);
}
