/**
 * A real S3-compatible server for sync's tests: @20minutes/s3rver (npm; the maintained fork of s3rver, which checks SigV4 signatures), on 127.0.0.1, checking SigV4
 * signatures against its one account (S3RVER / S3RVER), its objects in a fresh folder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from '@20minutes/s3rver';

export interface S3Server {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  files: string;
  close(): Promise<void>;
}

export async function startS3Server(bucket = 'sync-bucket'): Promise<S3Server> {
  const files = mkdtempSync(join(tmpdir(), 'gateway-chat-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: files, configureBuckets: [{ name: bucket }], allowMismatchedSignatures: false });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    files,
    close: async () => {
      await server.close();
      rmSync(files, { recursive: true, force: true });
    },
  };
}
