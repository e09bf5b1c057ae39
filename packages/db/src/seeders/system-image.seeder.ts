// What a room's browser can start as.
import type { EntityManager } from '@mikro-orm/core';
import { Seeder } from '@mikro-orm/seeder';
import { SystemImage } from '../entities/system-image.entity';
import { insertMissing } from './insert-missing';

export class SystemImageSeeder extends Seeder {
  override async run(em: EntityManager): Promise<void> {
    await insertMissing(em, SystemImage, [
      {
        code: 'chromium-blank',
        name: 'Chromium',
        description: 'Chromium on a blank page; type an address to go anywhere.',
        kind: 'blank',
        startUrl: 'about:blank',
        sortOrder: 0,
      },
      {
        code: 'chromium-video',
        name: 'Chromium · YouTube',
        description: 'Chromium opening YouTube, to watch videos together.',
        kind: 'video',
        startUrl: 'https://www.youtube.com',
        sortOrder: 1,
      },
      {
        code: 'chromium-url',
        name: 'Chromium · your start page',
        description: 'Chromium opening the address you choose for the room.',
        kind: 'url',
        startUrl: null,
        sortOrder: 2,
      },
    ]);
  }
}
