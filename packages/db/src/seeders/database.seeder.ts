import type { EntityManager } from '@mikro-orm/core';
import { Seeder } from '@mikro-orm/seeder';
import { PlanSeeder } from './plan.seeder';
import { RegionSeeder } from './region.seeder';
import { SystemImageSeeder } from './system-image.seeder';

/**
 * Reference data the application needs, run after the migrations at every start, so each
 * per-domain seeder must be idempotent (insert what is missing, never duplicate).
 */
export class DatabaseSeeder extends Seeder {
  private readonly seeders: (new () => Seeder)[] = [RegionSeeder, SystemImageSeeder, PlanSeeder];

  override run(em: EntityManager): Promise<void> {
    return this.call(em, this.seeders);
  }
}
