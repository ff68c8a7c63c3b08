import fs from "node:fs";
import path from "node:path";
import * as esbuild from "esbuild";

const entry = path.resolve(process.argv[2]);
const re = new RegExp(`["'\`]((${process.argv[3]})\\.[\\w.]*)["'\`$]`, "g");
const r = await esbuild.build({
  entryPoints: [entry],
  bundle: true,
  write: false,
  platform: "browser",
  format: "esm",
  packages: "external",
  logLevel: "silent",
  loader: { ".css": "empty", ".svg": "empty" },
  metafile: true,
  plugins: [
    {
      name: "s",
      setup(b) {
        b.onResolve({ filter: /\.server(\.[jt]sx?)?$/ }, () => ({ path: "server", namespace: "empty" }));
        b.onLoad({ filter: /.*/, namespace: "empty" }, () => ({ contents: "module.exports = {};", loader: "js" }));
      },
    },
  ],
});
const texts = [["bundle", r.outputFiles[0].text]];
const own = fs.readFileSync(entry, "utf8");
for (const m of own.matchAll(/from\s+["']([^"']+\.server)["']/g)) {
  const t = path.resolve(path.dirname(entry), m[1]);
  for (const ext of [".ts", ".tsx"]) if (fs.existsSync(t + ext)) texts.push([t + ext, fs.readFileSync(t + ext, "utf8")]);
}
for (const [n, text] of texts) {
  const ks = [...new Set([...text.matchAll(re)].map((m) => m[1]))];
  if (ks.length) console.log(n.replace(/.*\/app\//, ""), ks.join(" "));
}
