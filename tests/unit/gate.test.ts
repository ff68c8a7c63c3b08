import { describe, expect, it } from "vitest";
import { createGate, GateFull } from "../../app/utils/gate.server";

const tick = () => new Promise((r) => setTimeout(r, 1));

describe("createGate", () => {
  it("runs at most `limit` tasks at once, the rest in arrival order, and gives every result back", async () => {
    const gate = createGate(3);
    let now = 0;
    let most = 0;
    const order: number[] = [];
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        gate.run(async () => {
          now++;
          most = Math.max(most, now);
          order.push(i);
          await tick();
          now--;
          return i * 2;
        }),
      ),
    );
    expect(most).toBe(3);
    expect(order).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(results).toEqual(Array.from({ length: 20 }, (_, i) => i * 2));
    expect(gate.running).toBe(0);
    expect(gate.waiting).toBe(0);
  });

  it("frees the slot of a task that throws", async () => {
    const gate = createGate(1);
    await expect(gate.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await gate.run(async () => "next")).toBe("next");
    expect(gate.running).toBe(0);
  });

  it("refuses at once when the queue is full", async () => {
    const gate = createGate(1, 2);
    let open: () => void = () => {};
    const first = gate.run(() => new Promise<void>((r) => (open = r)));
    const queued = [gate.run(async () => 1), gate.run(async () => 2)];
    await expect(gate.run(async () => 3)).rejects.toBeInstanceOf(GateFull);
    open();
    await first;
    expect(await Promise.all(queued)).toEqual([1, 2]);
  });
});
