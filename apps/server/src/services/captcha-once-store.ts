// Single-use captcha tokens, remembered in PostgreSQL so a pass_token stays spent across restarts and nodes.
import { createHash } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { OnceStore } from '@rooms/api';
import { UsedCaptchaToken } from '@rooms/db';

export function createPostgresOnceStore(orm: MikroORM): OnceStore {
  let lastSweep = 0;
  return {
    async claim(key, expiresAt) {
      const em = orm.em.fork();
      const now = new Date();
      if (now.getTime() - lastSweep > 10 * 60_000) {
        lastSweep = now.getTime();
        await em.nativeDelete(UsedCaptchaToken, { expiresAt: { $lt: now } });
      }
      try {
        // Stored hashed: keys are bounded in length and a leaked table holds no usable token.
        const passToken = createHash('sha256').update(key).digest('hex');
        await em.insert(UsedCaptchaToken, { passToken, usedAt: now, expiresAt });
        return true;
      } catch (error) {
        if (error instanceof UniqueConstraintViolationException) return false;
        throw error;
      }
    },
  };
}
