// Splits the end-to-end spec files into lanes of about equal running time, for scripts/test.sh's side-by-side runs:
//   node --import tsx scripts/e2e-lanes.ts LANE LANES     -> the spec files of lane LANE (1-based), one per line
// Each file's seconds come from tests/e2e/durations.json (a run's figures on the 2-core machine; a file it does not
// name counts as the median). Longest first, each to the lane with the least so far; Playwright's own --shard cuts
// by test count instead, which left one half minutes behind the other (the suite's files differ tenfold in length).
import fs from "node:fs";
import path from "node:path";

const [lane, lanes] = process.argv.slice(2).map(Number);
if (!Number.isInteger(lane) || !Number.isInteger(lanes) || lane < 1 || lane > lanes) {
  console.error("usage: scripts/e2e-lanes.ts LANE LANES");
  process.exit(2);
}
const dir = path.join(import.meta.dirname, "..", "tests", "e2e");
const recorded: Record<string, number> = JSON.parse(fs.readFileSync(path.join(dir, "durations.json"), "utf8"));
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith(".spec.ts"))
  .sort();
const known = Object.values(recorded).sort((a, b) => a - b);
const median = known.length ? known[Math.floor(known.length / 2)] : 1;
const seconds = (f: string) => recorded[f] ?? median;
const loads = Array.from({ length: lanes }, () => ({ total: 0, files: [] as string[] }));
for (const f of [...files].sort((a, b) => seconds(b) - seconds(a) || a.localeCompare(b))) {
  const least = loads.reduce((min, l) => (l.total < min.total ? l : min));
  least.total += seconds(f);
  least.files.push(f);
}
for (const f of loads[lane - 1].files.sort()) console.log(`tests/e2e/${f}`);
