import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { renderToPipeableStream } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { stripNulBytes } from "../../app/utils/strip-nul.server";

async function collect(source: Readable | ((w: Writable) => void)): Promise<Buffer> {
  const parts: Buffer[] = [];
  const sink = new Writable({
    write(chunk, _e, done) {
      parts.push(Buffer.from(chunk));
      done();
    },
  });
  const strip = stripNulBytes();
  if (typeof source === "function") {
    source(strip);
    await pipeline(strip, sink);
  } else await pipeline(source, strip, sink);
  return Buffer.concat(parts);
}

/** Korean text in many small pieces, so some three-byte character meets the end of React's 2 KB buffer. */
function KoreanPage() {
  return (
    <div>
      {Array.from({ length: 400 }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list
        <p key={i}>{`${"x".repeat(i % 3)}결제 가능 기한 ${i}`}</p>
      ))}
    </div>
  );
}

describe("stripNulBytes", () => {
  it("removes NUL bytes anywhere in a chunk and passes other chunks through", async () => {
    const out = await collect(Readable.from([Buffer.from("a\0b\0\0c"), Buffer.from("\0"), Buffer.from("기한")]));
    expect(out.toString("utf8")).toBe("abc기한");
  });

  it("gives back the page React renders, without the NUL padding React 18 leaves at its buffer's end", async () => {
    const html = await collect((w) => {
      const { pipe } = renderToPipeableStream(<KoreanPage />, { onShellReady: () => pipe(w) });
    });
    const text = html.toString("utf8");
    expect(html.includes(0)).toBe(false);
    expect(text).not.toContain("\uFFFD");
    for (let i = 0; i < 400; i++) expect(text).toContain(`결제 가능 기한 ${i}`);
  });
});
