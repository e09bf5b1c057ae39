// The rooms this process runs: how many, the browser and how it streams, the sandbox around each room, and where
// keep-data profiles are saved.
import { availableParallelism, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import type { TEnv } from '../env';
import { REPO_ROOT } from '../paths';
import { commaList, optionalString } from './variable';

export const roomVariables = {
  ROOMS_DATA_DIR: optionalString.transform((dir) => (dir ? resolve(REPO_ROOT, dir) : undefined)),
  CHROMIUM_PATH: optionalString,
  ROOM_CAPACITY: optionalString.pipe(z.coerce.number<string | undefined>().int().min(1).max(1000).optional()),
  /**
   * Room browsers kept started ahead (sandbox, display, sound, browser on a fresh profile) so that a room starts
   * at once; each holds a capacity slot until a room takes it or needs the slot. 0 keeps none; unset, the
   * machine's capacity decides (defaultWarmPool).
   */
  ROOM_WARM_POOL: optionalString.pipe(z.coerce.number<string | undefined>().int().min(0).max(100).optional()),
  /**
   * How rooms stream: `auto` uses H.264 + Opus when Xvfb, pulseaudio and ffmpeg are present and the CDP
   * screencast otherwise; `h264` and `screencast` force one path (tests, benchmarks).
   */
  ROOM_MEDIA: z.enum(['auto', 'h264', 'screencast']).default('auto'),
  /**
   * Room isolation (rooms/sandbox): `auto` isolates rooms where the machine allows it and says at start-up what
   * is missing otherwise, `on` refuses to run rooms without it, `off` runs them as the server's own processes.
   */
  ROOM_SANDBOX: z.enum(['auto', 'on', 'off']).default('auto'),
  /** The unprivileged user every room process runs as (setup creates it). */
  ROOM_SANDBOX_USER: z
    .string()
    .regex(/^[a-z_][a-z0-9_-]{0,31}$/, 'must be a user name')
    .default('room-sandbox'),
  /** A room's memory ceiling: a room over it is killed alone, its neighbours keep running. */
  ROOM_MEMORY_MB: z.coerce.number().int().min(256).max(65536).default(2048),
  /** A room's ceiling on processes and threads together. */
  ROOM_PIDS: z.coerce.number().int().min(64).max(65536).default(2048),
  /** The disk a keep-data room's profile may fill: its own filesystem of this size (where the server is root). */
  ROOM_PROFILE_DISK_MB: z.coerce.number().int().min(64).max(1048576).default(2048),
  /**
   * Keep-data room profiles in S3-compatible object storage, so a room starts with its profile on whichever
   * machine runs it; unset, they stay on this machine's disk (ROOMS_DATA_DIR). Without the two keys the SDK's
   * own credential chain applies (instance role, AWS_* variables).
   */
  PROFILE_S3_BUCKET: optionalString,
  /** Another S3-compatible service (MinIO, R2, a local test server); path-style addressing is used with it. */
  PROFILE_S3_ENDPOINT: optionalString.pipe(z.url().optional()),
  PROFILE_S3_REGION: z.string().trim().min(1).default('us-east-1'),
  PROFILE_S3_ACCESS_KEY_ID: optionalString,
  PROFILE_S3_SECRET_ACCESS_KEY: optionalString,
  /** Prepended to every object key, for a bucket shared with other data. */
  PROFILE_S3_PREFIX: z.string().default('room-profiles/'),
  /** How often a running keep-data room's profile is saved besides its stop; 0 saves only on stop. */
  PROFILE_CHECKPOINT_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  /** Comma-separated host:port exceptions to the egress guard, for tests that serve pages on loopback. */
  ROOM_EGRESS_ALLOW: z.string().default('').transform(commaList),
};

/**
 * Rooms this machine can carry by default. A room repainting its whole 720p page every frame keeps about a core
 * busy and takes 300–450 MB (bench/stream.ts); most pages repaint far less, so two per core, bounded by one per
 * 1.5 GB of memory. ROOM_CAPACITY overrides it.
 */
export function defaultRoomCapacity(cores = availableParallelism(), memoryBytes = totalmem()): number {
  return Math.max(1, Math.min(cores * 2, Math.floor(memoryBytes / (1.5 * 1024 ** 3))));
}

/**
 * Warm browsers kept by default: one per four room slots, at least one, at most four. Starts come in bursts (a
 * group opening rooms together, a morning), and a refill waits for the room just started and takes a browser
 * launch, so a larger machine keeps more than one; each costs what an idle room does (~380 MB, ~5 % of a core,
 * bench/README.md) and gives its slot up to a room that needs it.
 */
export function defaultWarmPool(capacity: number): number {
  return Math.min(4, Math.max(1, Math.ceil(capacity / 4)));
}

/** Where keep-data profiles are saved: object storage with a bucket, this machine's disk without. */
function profilesOf(env: TEnv) {
  return {
    s3: env.PROFILE_S3_BUCKET
      ? {
          bucket: env.PROFILE_S3_BUCKET,
          endpoint: env.PROFILE_S3_ENDPOINT,
          region: env.PROFILE_S3_REGION,
          credentials:
            env.PROFILE_S3_ACCESS_KEY_ID && env.PROFILE_S3_SECRET_ACCESS_KEY
              ? {
                  accessKeyId: env.PROFILE_S3_ACCESS_KEY_ID,
                  secretAccessKey: env.PROFILE_S3_SECRET_ACCESS_KEY,
                }
              : undefined,
          prefix: env.PROFILE_S3_PREFIX,
        }
      : null,
    /** Seconds between saves of a running room's profile; 0 saves only on stop. */
    checkpointSeconds: env.PROFILE_CHECKPOINT_SECONDS,
  };
}

export function roomsConfig(env: TEnv) {
  const capacity = env.ROOM_CAPACITY ?? defaultRoomCapacity();
  const dataDir = env.ROOMS_DATA_DIR ?? join(env.DATA_DIR, 'rooms');
  return {
    /** Kept room profiles and the fresh profiles of running rooms. */
    dataDir,
    chromiumPath: env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    /** The most rooms this server runs at once. */
    capacity,
    /** Room browsers kept started ahead (at most `capacity`). */
    warmPool: env.ROOM_WARM_POOL ?? defaultWarmPool(capacity),
    /** host:port targets the room browsers may reach despite the egress guard (tests only). */
    egressAllow: env.ROOM_EGRESS_ALLOW,
    profiles: profilesOf(env),
    media: env.ROOM_MEDIA,
    sandbox: {
      mode: env.ROOM_SANDBOX,
      user: env.ROOM_SANDBOX_USER,
      /** The server's directories a room must not see: its data (secrets, database) and its code. */
      hide: [env.DATA_DIR, dataDir, REPO_ROOT],
      limits: { memoryMb: env.ROOM_MEMORY_MB, pids: env.ROOM_PIDS },
      /** The size of a keep-data room's own filesystem, which holds its kept profile. */
      profileDiskMb: env.ROOM_PROFILE_DISK_MB,
    },
  };
}
