// The zones rooms can be created in.
import type { EntityManager } from '@mikro-orm/core';
import { Seeder } from '@mikro-orm/seeder';
import { Region } from '../entities/region.entity';
import { insertMissing } from './insert-missing';

/** The zone this server itself serves; more nodes add their own rows. */
export const LOCAL_REGION_CODE = 'local';

export class RegionSeeder extends Seeder {
  override async run(em: EntityManager): Promise<void> {
    await insertMissing(em, Region, [
      {
        code: LOCAL_REGION_CODE,
        name: 'Local',
        description: 'Rooms run on this server.',
        enabled: true,
        sortOrder: 0,
      },
    ]);
  }
}
