// Keyset pagination for the admin lists: a page ends at a (sort value, id) pair, and the next page starts strictly
// after it in the same newest-first order. Unlike an offset, rows added in front of the list while someone reads it
// neither repeat nor vanish. The cursor is opaque to clients (base64url JSON) and checked on the way back in.
import { z } from 'zod';
import { AppError } from '../../errors';

export interface TKeyset {
  cursor?: string;
  limit: number;
}

const ZCursorBody = z.tuple([z.union([z.string(), z.null()]), z.uuid()]);

function decode(cursor: string): [Date | null, string] {
  try {
    const [value, id] = ZCursorBody.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    const at = value === null ? null : new Date(value);
    if (at && Number.isNaN(at.getTime())) throw new Error('bad date');
    return [at, id];
  } catch {
    throw new AppError('BAD_INPUT', { message: 'The page cursor is not valid; start from the first page' });
  }
}

/**
 * The condition "after the cursor" in the order `field desc nulls last, id desc`. Rows whose field is null come
 * last, so a cursor on a null value continues among the nulls by id.
 */
export function keysetWhere(cursor: string | undefined, field: string): Record<string, unknown> | null {
  if (!cursor) return null;
  const [at, id] = decode(cursor);
  if (at === null) return { [field]: null, id: { $lt: id } };
  return {
    $or: [{ [field]: { $lt: at } }, { [field]: at, id: { $lt: id } }, { [field]: null }],
  };
}

/** Takes `limit + 1` rows and returns the page and the cursor of its last row when more follow. */
export function keysetPage<T extends { id: string }>(
  rows: T[],
  limit: number,
  sortValue: (row: T) => Date | null,
): { items: T[]; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  if (rows.length <= limit || !last) return { items, nextCursor: null };
  const value = sortValue(last);
  const body = JSON.stringify([value ? value.toISOString() : null, last.id]);
  return { items, nextCursor: Buffer.from(body, 'utf8').toString('base64url') };
}
