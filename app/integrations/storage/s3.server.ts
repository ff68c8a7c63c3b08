import { Readable } from "node:stream";
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { streamToBuffer } from "./local.server";
import { checkKey, isMissing, type ListedFile, type Storage } from "./storage";

/** Where an S3-compatible store is: parsed from STORAGE_URL by app/utils/env.server.ts. */
export interface S3Location {
  bucket: string;
  /** Put before every key ("" or ending with "/"), so several shops or environments can share a bucket. */
  prefix: string;
  /** An S3-compatible server's address (MinIO, R2, s3rver...); unset: AWS itself. */
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
}

/** Streams above this go up as a multipart upload (@aws-sdk/lib-storage), in parts of this size. */
const PART_BYTES = 8 * 1024 * 1024;

/**
 * An S3-compatible object store through the AWS SDK v3. Credentials come from the SDK's usual chain
 * (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, a profile, an instance role). Checksums are sent and checked only
 * where the protocol requires them, so stores that predate S3's 2025 default checksums keep working.
 */
export function createS3Storage(location: S3Location, client?: S3Client): Storage & { client: S3Client } {
  const s3 =
    client ??
    new S3Client({
      region: location.region,
      endpoint: location.endpoint,
      forcePathStyle: location.forcePathStyle,
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
  const Bucket = location.bucket;
  const keyOf = (key: string) => `${location.prefix}${checkKey(key)}`;
  const missingToNull = <T>(error: unknown): T | null => {
    if (isMissing(error)) return null;
    throw error;
  };
  const storage: Storage & { client: S3Client } = {
    kind: "s3",
    client: s3,
    async put(key, body, options) {
      const ContentType = options?.contentType;
      if (body instanceof Uint8Array) {
        await s3.send(new PutObjectCommand({ Bucket, Key: keyOf(key), Body: body, ContentType, ContentLength: body.length }));
        return;
      }
      const upload = new Upload({
        client: s3,
        params: { Bucket, Key: keyOf(key), Body: body, ContentType },
        partSize: PART_BYTES,
        queueSize: 2,
      });
      await upload.done();
    },
    async get(key, range) {
      try {
        const out = await s3.send(
          new GetObjectCommand({ Bucket, Key: keyOf(key), Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
        );
        return out.Body instanceof Readable ? out.Body : Readable.fromWeb(out.Body as never);
      } catch (error) {
        return missingToNull(error);
      }
    },
    async read(key) {
      const stream = await storage.get(key);
      return stream ? streamToBuffer(stream) : null;
    },
    async stat(key) {
      try {
        const head = await s3.send(new HeadObjectCommand({ Bucket, Key: keyOf(key) }));
        return {
          size: head.ContentLength ?? 0,
          etag: head.ETag ?? `"${head.LastModified?.getTime() ?? 0}"`,
          modified: head.LastModified ?? new Date(0),
        };
      } catch (error) {
        return missingToNull(error);
      }
    },
    async delete(key) {
      await s3.send(new DeleteObjectCommand({ Bucket, Key: keyOf(key) }));
    },
    async move(from, to) {
      const source = keyOf(from)
        .split("/")
        .map((part) => encodeURIComponent(part))
        .join("/");
      await s3.send(new CopyObjectCommand({ Bucket, Key: keyOf(to), CopySource: `${Bucket}/${source}` }));
      await s3.send(new DeleteObjectCommand({ Bucket, Key: keyOf(from) }));
    },
    async list(prefix) {
      if (!prefix.endsWith("/")) throw new Error("a prefix ends with /");
      checkKey(prefix.slice(0, -1));
      const out: ListedFile[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await s3.send(new ListObjectsV2Command({ Bucket, Prefix: `${location.prefix}${prefix}`, ContinuationToken }));
        for (const o of page.Contents ?? []) {
          if (o.Key) out.push({ key: o.Key.slice(location.prefix.length), size: o.Size ?? 0, modified: o.LastModified ?? new Date(0) });
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },
    async presignedGet(key, options) {
      const disposition = options.filename ? `attachment; filename="${options.filename.replace(/[^\w.-]/g, "_")}"` : undefined;
      return getSignedUrl(s3, new GetObjectCommand({ Bucket, Key: keyOf(key), ResponseContentDisposition: disposition }), {
        expiresIn: options.expiresInS,
      });
    },
  };
  return storage;
}
