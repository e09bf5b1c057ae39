// Rooms created before share passwords were hashed kept them in plain text. On every start, any such row is
// hashed and sealed for its owner's view; after the first start of this version none is left (a row written
// straight into the database later is still checked as plain text until the next start).
import type { MikroORM } from '@mikro-orm/postgresql';
import { isPasswordHash, type TServices } from '@rooms/api';
import { Room } from '@rooms/db';

export async function hashPlainSharePasswords(
  orm: MikroORM,
  services: Pick<TServices, 'passwords' | 'secretBox'>,
): Promise<number> {
  const em = orm.em.fork();
  // Hashes start with '$argon2'; anything else is the plain text of an older row.
  const rooms = await em.find(Room, { password: { $ne: null }, $not: { password: { $like: '$argon2%' } } });
  const plain = rooms.filter((room) => room.password && !isPasswordHash(room.password));
  for (const room of plain) {
    const password = room.password as string;
    room.passwordSealed = services.secretBox.seal(password);
    room.password = await services.passwords.hash(password);
  }
  await em.flush();
  return plain.length;
}
