// @vitest-environment jsdom
import { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import { describe, expect, it } from "vitest";

/**
 * React 18's streaming renderer flushed its whole 2 KB buffer when a multi-byte character did not fit at its end,
 * zeros included: Korean pages carried NUL bytes ("기\0\0한"). react-dom is patched to flush only what was written
 * (patches/react-dom+18.3.1.patch, applied by patch-package at install; react#26228 fixed it in React 19 only).
 */
function render(node: React.ReactNode): Promise<Buffer> {
  const parts: Buffer[] = [];
  return new Promise((resolve, reject) => {
    const sink = new Writable({
      write(chunk, _e, done) {
        parts.push(Buffer.from(chunk));
        done();
      },
      final(done) {
        resolve(Buffer.concat(parts));
        done();
      },
    });
    const { pipe } = renderToPipeableStream(node, { onShellReady: () => pipe(sink), onShellError: reject });
  });
}

describe("react-dom's streaming renderer (patched)", () => {
  it("writes Korean text split across its buffer's end without NUL bytes, whatever the offset", async () => {
    for (let shift = 0; shift < 3; shift++) {
      const html = await render(
        <div>
          {Array.from({ length: 400 }, (_, i) => (
            <p key={i}>{`${"x".repeat((i + shift) % 3)}결제 가능 기한 ${i}`}</p>
          ))}
        </div>,
      );
      expect(html.includes(0), `NUL bytes with shift ${shift}`).toBe(false);
      const text = html.toString("utf8");
      expect(text).not.toContain("\uFFFD");
      for (let i = 0; i < 400; i++) expect(text).toContain(`결제 가능 기한 ${i}`);
    }
  });

  it("runs the patched build in production too (the server's NODE_ENV)", async () => {
    const fs = await import("node:fs");
    const path = await import("node:path");
    const dir = path.resolve("node_modules/react-dom/cjs");
    const min = fs.readFileSync(path.join(dir, "react-dom-server.node.production.min.js"), "utf8");
    expect(min).toContain("d<b.length&&(t(a,k.subarray(0,l))");
    const dev = fs.readFileSync(path.join(dir, "react-dom-server.node.development.js"), "utf8");
    expect(dev).toContain("writeToDestination(destination, currentView.subarray(0, writtenBytes));");
  });
});
