import type { MikroORM } from '@mikro-orm/postgresql';
import type { TConfig } from '../../env';
import type { TRoomLogger } from '../room-logger';
import { LocalProfileStore, type ProfileStore } from './profile-store';
import { S3ProfileStore } from './s3-profile-store';

/** Object storage when a bucket is configured, this machine's disk otherwise; `close` lets go of its connections. */
export function createProfileStore(
  config: TConfig['rooms']['profiles'],
  deps: { orm: MikroORM; logger: TRoomLogger },
): ProfileStore & { close(): void } {
  if (!config.s3) return Object.assign(new LocalProfileStore(), { close() {} });
  const checkpointMs = config.checkpointSeconds > 0 ? config.checkpointSeconds * 1000 : null;
  return new S3ProfileStore({ ...config.s3, orm: deps.orm, checkpointMs, logger: deps.logger });
}
