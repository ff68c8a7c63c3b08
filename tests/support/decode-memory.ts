// Decodes one audio file with the store's decodeAudio in a process of its own and prints, as JSON, the samples it
// counted, the window it kept and the growth of live array-buffer memory during and after the decode (sampled every
// 100 ms after a full collection). Run by tests/integration/hostile-media.test.ts as
//   node --expose-gc --import tsx tests/support/decode-memory.ts <file> <format> <declared seconds> [readrate]
// A process of its own, so the full collections walk this small heap only: inside the test runner, whose module
// graph holds every integration file, each took long enough to starve the decode (64 s for a 4 s decode in CI).
import path from "node:path";
import { decodeAudio } from "../../app/market/catalog/media-previews.server";
import { toolInput } from "../../app/market/catalog/media-tools.server";

const [file, format, declared, readrate] = process.argv.slice(2);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc || !file || !format) {
  console.error("usage: node --expose-gc --import tsx tests/support/decode-memory.ts <file> <format> <seconds> [readrate]");
  process.exit(2);
}
const live = () => {
  gc();
  return process.memoryUsage().arrayBuffers;
};
const input = toolInput(format as Parameters<typeof toolInput>[0], file);
const slowed = readrate ? { ...input, args: ["-readrate", readrate, ...input.args] } : input;
const before = live();
let peak = before;
const timer = setInterval(() => {
  peak = Math.max(peak, live());
}, 100);
const result = await decodeAudio(slowed, path.dirname(file), Number(declared));
clearInterval(timer);
console.log(JSON.stringify({ samples: result.samples, window: result.window.length, growth: peak - before, after: live() - before }));
