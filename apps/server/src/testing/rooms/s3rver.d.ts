// The part of @20minutes/s3rver (a maintained fork of s3rver, an S3-compatible server on the local disk) that the
// tests use; the package ships no types.
declare module '@20minutes/s3rver' {
  interface TS3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory: string;
    resetOnClose?: boolean;
    allowMismatchedSignatures?: boolean;
    configureBuckets?: { name: string }[];
  }

  export default class S3rver {
    constructor(options: TS3rverOptions);
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
