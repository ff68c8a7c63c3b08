// The part of autocannon's API the benchmarks use (the package ships no types).
declare module "autocannon" {
  import type { EventEmitter } from "node:events";

  namespace autocannon {
    interface Request {
      method?: "GET" | "POST" | "PUT" | "DELETE" | "HEAD" | "PATCH";
      path?: string;
      headers?: Record<string, string>;
      body?: string;
      setupRequest?: (request: Request, context: Record<string, unknown>) => Request | null | undefined;
      onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string>) => void;
    }
    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      headers?: Record<string, string>;
      requests?: Request[];
      timeout?: number;
    }
    interface Histogram {
      average: number;
    }
    interface Result {
      duration: number;
      errors: number;
      timeouts: number;
      throughput: Histogram;
    }
    interface Instance extends EventEmitter {
      stop(): void;
    }
  }
  function autocannon(options: autocannon.Options, done: (error: Error | null, result: autocannon.Result) => void): autocannon.Instance;
  export default autocannon;
}
