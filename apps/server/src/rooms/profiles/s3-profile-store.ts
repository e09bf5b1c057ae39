// Keep-data profiles in S3-compatible object storage, so a room starts with its profile on whichever machine runs
// it. Every save is a new object under a key of its own (the room, the run's epoch, a unique suffix), so an upload
// never replaces the saved profile in place; what makes it the room's profile is the row in `room_profiles`, written
// behind the epoch fence (./profile-records.ts), and a restore reads only the object that row names. A refused
// upload (a run the room has moved on from) deletes its own object; a committed one the object it replaced.
//
// The browser works on a local copy (<roomsDataDir>/<roomId>/profile). Beside it, profile.json says what that copy
// is: the committed archive it started from (`base`), the epoch of the run that used it, and whether it is exactly
// that archive (`clean`: saved at the run's stop). A start reuses the local copy instead of downloading when it is
// a clean copy of the committed archive, or the same run's own copy (its browser crashed, or the server was killed
// before the stop's save) with nothing committed since; otherwise it downloads the committed archive.
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { silentLogger, type TRoomLogger } from '../room-logger';
import { extractProfile, gzipFile, tarProfile } from './profile-archive';
import { commitProfile, committedProfile, forgetProfile, isProfileStale } from './profile-records';
import type { ProfileStore, THold, TProfileRun, TProfileSave } from './profile-store';

export interface TS3ProfileStoreOptions {
  bucket: string;
  /** An S3-compatible service's address; unset: AWS S3 in `region`. */
  endpoint?: string;
  region: string;
  /** Unset: the SDK's own credential chain. */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Prepended to every key, e.g. `room-profiles/`. */
  prefix: string;
  orm: MikroORM;
  /** Milliseconds between saves of a running room's profile; null saves on stop only. */
  checkpointMs: number | null;
  logger?: TRoomLogger;
}

/** What profile.json says of the local copy beside it. */
interface TLocalCopy {
  base: string | null;
  epoch: number;
  clean: boolean;
}

const UPLOAD_ATTEMPTS = 3;

export class S3ProfileStore implements ProfileStore {
  readonly checkpointMs: number | null;
  private readonly client: S3Client;
  private readonly logger: TRoomLogger;

  constructor(private readonly options: TS3ProfileStoreOptions) {
    this.checkpointMs = options.checkpointMs;
    this.logger = options.logger ?? silentLogger;
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      // Other services than AWS mostly serve buckets by path, not by host name.
      forcePathStyle: options.endpoint !== undefined,
      credentials: options.credentials,
      // Checksums only where S3 demands them: S3-compatible services do not all take the SDK's default ones.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async restore(run: TProfileRun, dir: string): Promise<void> {
    try {
      await this.restoreOnce(run, dir);
    } catch (error) {
      // The archive was replaced (and swept) between reading the row and downloading it: the row names the new one.
      if (!(error instanceof NoSuchKey)) throw error;
      await this.restoreOnce(run, dir);
    }
  }

  private async restoreOnce(run: TProfileRun, dir: string): Promise<void> {
    const committed = await committedProfile(this.em(), run.roomId);
    const local = await this.readLocalCopy(dir);
    const base = committed?.key ?? null;
    const reuse = local
      ? local.base === base && (local.clean || local.epoch === run.epoch)
      : // Kept on this disk before the bucket was configured, or a new room: nothing newer exists anywhere.
        committed === null;
    if (!reuse) {
      if (committed) await this.download(committed.key, dir);
      else await this.replaceWithEmpty(dir);
    }
    await this.writeLocalCopy(dir, { base, epoch: run.epoch, clean: false });
    this.logger.info(
      { roomId: run.roomId, epoch: run.epoch, key: base, downloaded: !reuse && committed !== null },
      'room profile restored',
    );
  }

  async checkpoint(run: TProfileRun, dir: string, hold: THold): Promise<TProfileSave> {
    return this.saveFrom(run, dir, false, (tarPath) => hold(() => tarProfile(dir, tarPath)));
  }

  async save(run: TProfileRun, dir: string): Promise<TProfileSave> {
    return this.saveFrom(run, dir, true, (tarPath) => tarProfile(dir, tarPath));
  }

  async delete(roomId: string, dir: string): Promise<void> {
    const prefix = this.roomPrefix(roomId);
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.options.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      // One by one: DeleteObjects needs a checksum header that not every S3-compatible service takes.
      for (const object of page.Contents ?? []) {
        if (object.Key) await this.deleteObject(object.Key);
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    await forgetProfile(this.em(), roomId);
    await rm(dirname(dir), { recursive: true, force: true });
  }

  /** Closes the client's connections. */
  close(): void {
    this.client.destroy();
  }

  private async saveFrom(
    run: TProfileRun,
    dir: string,
    final: boolean,
    archive: (tarPath: string) => Promise<void>,
  ): Promise<TProfileSave> {
    // A run the room has moved on from uploads nothing (the commit below refuses it anyway).
    if (await isProfileStale(this.em(), run.roomId, run.epoch)) return this.refused(run, dir, final, 'stale');
    const work = join(dirname(dir), `.save-${randomUUID()}`);
    const key = `${this.roomPrefix(run.roomId)}${run.epoch}-${Date.now()}-${randomUUID().slice(0, 8)}.tar.gz`;
    const began = performance.now();
    try {
      await archive(`${work}.tar`);
      const archivedMs = Math.round(performance.now() - began);
      await gzipFile(`${work}.tar`, `${work}.tar.gz`);
      await rm(`${work}.tar`, { force: true });
      const { size } = await stat(`${work}.tar.gz`);
      await this.upload(key, `${work}.tar.gz`, size);
      const commit = await commitProfile(this.em(), run.roomId, run.epoch, key, new Date());
      if (!commit.ok) {
        await this.deleteObject(key).catch(() => {});
        return this.refused(run, dir, final, commit.reason);
      }
      await this.sweep(run, key).catch((error) =>
        this.logger.warn({ err: error, roomId: run.roomId }, 'old room profiles were not deleted'),
      );
      await this.writeLocalCopy(dir, { base: key, epoch: run.epoch, clean: final });
      this.logger.info(
        {
          roomId: run.roomId,
          epoch: run.epoch,
          key,
          bytes: size,
          final,
          // For a checkpoint, how long the browser was held still.
          archivedMs,
          savedMs: Math.round(performance.now() - began),
        },
        final ? 'room profile saved' : 'room profile checkpoint saved',
      );
      return { saved: true, key };
    } finally {
      await rm(`${work}.tar`, { force: true });
      await rm(`${work}.tar.gz`, { force: true });
    }
  }

  /** A save the fence refused: at the stop, the local copy is dropped too (it is not the room's any more). */
  private async refused(
    run: TProfileRun,
    dir: string,
    final: boolean,
    reason: 'stale' | 'gone',
  ): Promise<TProfileSave> {
    this.logger.warn(
      { roomId: run.roomId, epoch: run.epoch, reason, final },
      'room profile not saved: the room has a newer run',
    );
    if (final) await rm(dirname(dir), { recursive: true, force: true });
    return { saved: false, reason };
  }

  /**
   * Deletes the room's objects this commit made obsolete: the one it replaced, and any a run left behind when it
   * died between its upload and its commit, or could not delete after a refusal. Only of this run's epoch or
   * older: an object of a newer epoch may be that run's upload on its way to its commit.
   */
  private async sweep(run: TProfileRun, committed: string): Promise<void> {
    const prefix = this.roomPrefix(run.roomId);
    const listed = await this.client.send(
      new ListObjectsV2Command({ Bucket: this.options.bucket, Prefix: prefix }),
    );
    for (const object of listed.Contents ?? []) {
      const key = object.Key;
      if (!key || key === committed) continue;
      const epoch = Number(key.slice(prefix.length).split('-')[0]);
      if (Number.isInteger(epoch) && epoch <= run.epoch) await this.deleteObject(key);
    }
  }

  /** PutObject from the file, tried again on failure with a fresh stream (the SDK cannot replay a stream). */
  private async upload(key: string, path: string, size: number): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.client.send(
          new PutObjectCommand({
            Bucket: this.options.bucket,
            Key: key,
            Body: createReadStream(path),
            ContentLength: size,
            ContentType: 'application/gzip',
          }),
        );
        return;
      } catch (error) {
        if (attempt >= UPLOAD_ATTEMPTS) throw error;
        this.logger.warn({ err: error, key, attempt }, 'room profile upload failed: trying again');
        await new Promise((resolve) => setTimeout(resolve, 500 * 2 ** attempt));
      }
    }
  }

  /** The archive under `key` extracted into `dir`, which it replaces whole once the extraction is through. */
  private async download(key: string, dir: string): Promise<void> {
    const work = join(dirname(dir), `.restore-${randomUUID()}`);
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: key }));
      if (!(object.Body instanceof Readable)) throw new Error(`no body for ${key}`);
      await pipeline(object.Body, createWriteStream(`${work}.tar.gz`));
      await mkdir(work, { mode: 0o700 });
      await extractProfile(`${work}.tar.gz`, work);
      await rm(dir, { recursive: true, force: true });
      await rename(work, dir);
    } finally {
      await rm(`${work}.tar.gz`, { force: true });
      await rm(work, { recursive: true, force: true });
    }
  }

  private async replaceWithEmpty(dir: string): Promise<void> {
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
  }

  private async deleteObject(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: key }));
  }

  private roomPrefix(roomId: string): string {
    return `${this.options.prefix}${roomId}/`;
  }

  private localCopyFile(dir: string): string {
    return join(dirname(dir), 'profile.json');
  }

  private async readLocalCopy(dir: string): Promise<TLocalCopy | null> {
    try {
      await stat(dir);
      return JSON.parse(await readFile(this.localCopyFile(dir), 'utf8')) as TLocalCopy;
    } catch {
      return null;
    }
  }

  private async writeLocalCopy(dir: string, copy: TLocalCopy): Promise<void> {
    await writeFile(this.localCopyFile(dir), JSON.stringify(copy));
  }

  private em(): EntityManager {
    return this.options.orm.em.fork();
  }
}
