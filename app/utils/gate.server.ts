/**
 * An admission gate: at most `limit` tasks run at once, the others wait their turn in arrival order. The server puts
 * every Remix render behind one (RENDER_CONCURRENCY): on a machine with few cores, 32 renders at once finish no
 * sooner than 8 do, but each holds its loaders' data, its React tree and its output at the same time, which is
 * what drove a cold server's resident memory past its target (docs/performance.md). A full queue answers at once
 * instead of waiting (`GateFull`), so a flood is refused rather than held in memory.
 */
export class GateFull extends Error {
  constructor() {
    super("too many requests waiting");
    this.name = "GateFull";
  }
}

export interface Gate {
  run<T>(task: () => Promise<T>): Promise<T>;
  readonly running: number;
  readonly waiting: number;
}

export function createGate(limit: number, maxWaiting = Number.POSITIVE_INFINITY): Gate {
  let running = 0;
  const queue: (() => void)[] = [];
  const release = () => {
    const next = queue.shift();
    if (next) next();
    else running--;
  };
  return {
    get running() {
      return running;
    },
    get waiting() {
      return queue.length;
    },
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (running < limit) running++;
      else {
        if (queue.length >= maxWaiting) throw new GateFull();
        // The slot is handed over by release() (running stays the same).
        await new Promise<void>((resolve) => queue.push(resolve));
      }
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}
