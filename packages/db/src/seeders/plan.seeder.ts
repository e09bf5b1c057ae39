// The Free plan everyone holds and the Pro plans above it, monthly and yearly (the plan limits its holder's rooms).
import type { EntityManager } from '@mikro-orm/core';
import { Seeder } from '@mikro-orm/seeder';
import { Plan } from '../entities/plan.entity';
import { insertMissing } from './insert-missing';
import { LOCAL_REGION_CODE } from './region.seeder';

export class PlanSeeder extends Seeder {
  override async run(em: EntityManager): Promise<void> {
    await insertMissing(em, Plan, [
      {
        code: 'free',
        name: 'Free',
        description: 'Try rooms with modest limits.',
        priceCents: 0,
        durationDays: null,
        inventory: null,
        maxRooms: 2,
        maxConnections: 4,
        maxWidth: 1280,
        maxHeight: 720,
        maxFrameRate: 30,
        maxBitrateKbps: 2500,
        regionCodes: [LOCAL_REGION_CODE],
        timeQuotaMinutes: 120,
        freeTimeQuotaMinutes: 600,
        level: 1,
        canConfigureAutoClose: false,
        persistentStorage: false,
        isDefault: true,
        sortOrder: 0,
      },
      {
        code: 'pro',
        name: 'Pro monthly',
        description: 'More rooms and viewers, 1080p at 60 fps, your own auto-close and kept browser data.',
        priceCents: 999,
        durationDays: 30,
        inventory: null,
        maxRooms: 10,
        maxConnections: 10,
        maxWidth: 1920,
        maxHeight: 1080,
        maxFrameRate: 60,
        maxBitrateKbps: 8000,
        regionCodes: [LOCAL_REGION_CODE],
        timeQuotaMinutes: 6000,
        freeTimeQuotaMinutes: 600,
        level: 2,
        canConfigureAutoClose: true,
        persistentStorage: true,
        isDefault: false,
        sortOrder: 1,
      },
      {
        code: 'pro-yearly',
        name: 'Pro yearly',
        description: 'Everything in Pro for a year, two months free.',
        priceCents: 9900,
        durationDays: 365,
        inventory: null,
        maxRooms: 10,
        maxConnections: 10,
        maxWidth: 1920,
        maxHeight: 1080,
        maxFrameRate: 60,
        maxBitrateKbps: 8000,
        regionCodes: [LOCAL_REGION_CODE],
        timeQuotaMinutes: 72000,
        freeTimeQuotaMinutes: 600,
        level: 2,
        canConfigureAutoClose: true,
        persistentStorage: true,
        isDefault: false,
        sortOrder: 2,
      },
    ]);
  }
}
