import { spawn } from "node:child_process";
import { createReadStream } from "node:fs";
import path from "node:path";
import type { FileProblem } from "./media-files.server";
import { MEDIA_LIMITS } from "./media-limits";

/**
 * ffmpeg and ffprobe as the media job runs them on an upload (issue 25, point 1):
 * - the input's format is forced from what its bytes were checked to be (`-f mp3`, `-f wav`, `-f mov`), so no
 *   probing can turn it into a playlist, concat script, SDP or image sequence;
 * - the input is the one file: MP3 and WAV are fed on stdin with only the `pipe` protocol allowed; an MP4 (whose
 *   index may sit after its data, so it needs seeking) is opened by its name in the scratch folder with only the
 *   `file` protocol and the MOV demuxer's external data references off (`-enable_drefs 0`). No network protocol is
 *   ever allowed;
 * - each run is in the job's scratch folder (its working directory), with a bare environment, `-nostdin`, a wall-time
 *   limit (killed), and CPU-time and address-space limits set by the shell (`ulimit -t`, `ulimit -v`) before exec.
 */

export type InputKind = "mp3" | "wav" | "mp4";

/** A refusal the operator can act on (its code is an admin.catalog.problems message). */
export class MediaRefusal extends Error {
  constructor(
    readonly problem: FileProblem,
    detail = "",
  ) {
    super(detail ? `${problem}: ${detail}` : problem);
  }
}

export interface ToolInput {
  /** Input options, ending with `-i <input>`. */
  args: string[];
  /** A file to feed on stdin, if the input is `pipe:0`. */
  stdin?: string;
}

/** The input options for the upload `file` (in the scratch folder) of a checked kind. */
export function toolInput(kind: InputKind, file: string): ToolInput {
  if (kind === "mp4")
    return { args: ["-protocol_whitelist", "file", "-f", "mov", "-enable_drefs", "0", "-i", `file:${path.basename(file)}`] };
  return { args: ["-protocol_whitelist", "pipe", "-f", kind, "-i", "pipe:0"], stdin: file };
}

export interface ToolOptions {
  /** The scratch folder: the working directory, holding the input and the outputs. */
  cwd: string;
  stdin?: string;
  /** Each chunk of stdout; answer false to stop the tool (it is killed, the run rejects with `stopped`). */
  onStdout?: (chunk: Buffer) => boolean | undefined;
  limits?: Partial<Record<keyof (typeof MEDIA_LIMITS)["tool"], number>>;
}

export class ToolFailure extends Error {
  constructor(
    message: string,
    /** Killed for its wall time, or ended by its CPU-time or memory limit. */
    readonly overLimit: boolean,
    readonly stopped = false,
  ) {
    super(message);
  }
}

/** Only what finding the tools needs: no proxy settings, credentials or anything else of the server's. */
function bareEnv(): NodeJS.ProcessEnv {
  return { NODE_ENV: process.env.NODE_ENV, PATH: process.env.PATH ?? "/usr/bin:/bin", LC_ALL: "C" };
}

/** Runs ffmpeg or ffprobe under the limits; answers its stdout when not streamed (onStdout). */
export function runTool(tool: "ffmpeg" | "ffprobe", args: string[], options: ToolOptions): Promise<string> {
  const limits = { ...MEDIA_LIMITS.tool, ...options.limits };
  const common = ["-hide_banner", "-loglevel", "error", "-max_alloc", String(limits.maxAllocBytes)];
  const argv = tool === "ffmpeg" ? ["-nostdin", ...common, ...args] : [...common, ...args];
  return new Promise((resolve, reject) => {
    const child = spawn(
      "/bin/sh",
      [
        "-c",
        'ulimit -v "$1" && ulimit -t "$2" && shift 2 && exec "$@"',
        "media-tool",
        String(limits.memoryMb * 1024),
        String(limits.cpuSeconds),
        tool,
        ...argv,
      ],
      { cwd: options.cwd, env: bareEnv(), stdio: ["pipe", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    let stopped = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, limits.timeoutMs);
    // The tool may stop reading early (a preview of the first minute): that ends the pipe, and is no error.
    child.stdin.on("error", () => {});
    if (options.stdin) {
      const input = createReadStream(options.stdin);
      child.stdin.on("error", () => input.destroy());
      input.on("error", () => child.stdin.destroy());
      input.pipe(child.stdin);
    } else child.stdin.end();
    child.stdout.on("data", (chunk: Buffer) => {
      if (stopped) return;
      if (options.onStdout) {
        if (options.onStdout(chunk) === false) {
          stopped = true;
          child.kill("SIGKILL");
        }
      } else if (stdout.length < 4 * 1024 * 1024) stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0 && !stopped) return resolve(stdout);
      const last = stderr.trim().split("\n").slice(-2).join(" ");
      if (stopped) return reject(new ToolFailure(`${tool}: stopped`, false, true));
      // SIGXCPU: the CPU-time limit; an allocation refused under the address-space limit ends in ENOMEM messages.
      const overLimit =
        timedOut ||
        signal === "SIGXCPU" ||
        signal === "SIGKILL" ||
        /Cannot allocate memory|out of memory|ENOMEM|failed to map/i.test(stderr);
      reject(new ToolFailure(`${tool}: ${timedOut ? "took too long" : last || `exit ${code ?? signal}`}`, overLimit));
    });
  });
}
