import type { EntityManager } from '@mikro-orm/core';
import { Seeder } from '@mikro-orm/seeder';

/**
 * Reference data the application needs, run after the migrations at every start, so each
 * per-domain seeder must be idempotent (insert what is missing, never duplicate).
 */
export class DatabaseSeeder extends Seeder {
  // Per-domain seeders (plans, regions, images) are added here as those domains land.
  private readonly seeders: (new () => Seeder)[] = [];

  override run(em: EntityManager): Promise<void> {
    return this.call(em, this.seeders);
  }
}
