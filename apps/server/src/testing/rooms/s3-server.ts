// An S3-compatible server on loopback for the profile tests: @20minutes/s3rver, objects kept in a temporary
// directory, one bucket made ahead, the fixed credentials it accepts.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from '@20minutes/s3rver';

export interface TTestS3 {
  endpoint: string;
  bucket: string;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  close(): Promise<void>;
}

export async function startTestS3(bucket = 'room-profiles-test'): Promise<TTestS3> {
  const directory = await mkdtemp(join(tmpdir(), 'rooms-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
    // It signs a bucket's listing for `/bucket` where the SDK signs `/bucket/`; every other request is checked.
    allowMismatchedSignatures: true,
  });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
