import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";

/** s3rver's fixed credentials (any request signed with others is refused). */
export const S3RVER_CREDENTIALS = { AWS_ACCESS_KEY_ID: "S3RVER", AWS_SECRET_ACCESS_KEY: "S3RVER" };

/**
 * An S3-compatible server for one test file: s3rver in this process on 127.0.0.1 and a free port, over a temporary
 * folder, with one bucket. `url` is the STORAGE_URL to give the store (under `prefix`); the SDK's credentials are
 * set in this process's environment (and in `env`, for a spawned server).
 */
export async function startS3(options: { bucket?: string; prefix?: string } = {}) {
  const bucket = options.bucket ?? "market-test";
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "s3rver-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  Object.assign(process.env, S3RVER_CREDENTIALS);
  const endpoint = `http://127.0.0.1:${port}`;
  const prefix = options.prefix ?? "";
  return {
    bucket,
    endpoint,
    directory,
    url: `s3://${bucket}${prefix ? `/${prefix}` : ""}?endpoint=${encodeURIComponent(endpoint)}&region=us-east-1&force_path_style=1`,
    env: { ...S3RVER_CREDENTIALS },
    close: async () => {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
