import { describe, expect, it } from 'vitest';
import { ZUpdateRoomShareRequest } from './share.types';

describe('the owner’s share settings request', () => {
  it('keeps the password when it is absent: listing or unlisting a room is a separate setting', () => {
    expect(ZUpdateRoomShareRequest.parse({ id: 'r', isPublic: true })).toEqual({ id: 'r', isPublic: true });
    expect(ZUpdateRoomShareRequest.parse({ id: 'r', isPublic: false, password: undefined }).password).toBe(
      undefined,
    );
  });

  it('clears it when empty or null, and checks a new one', () => {
    expect(ZUpdateRoomShareRequest.parse({ id: 'r', password: '' })).toEqual({ id: 'r', password: null });
    expect(ZUpdateRoomShareRequest.parse({ id: 'r', password: null })).toEqual({ id: 'r', password: null });
    expect(ZUpdateRoomShareRequest.parse({ id: 'r', password: ' sesame ' })).toEqual({
      id: 'r',
      password: 'sesame',
    });
    expect(ZUpdateRoomShareRequest.safeParse({ id: 'r', password: 'abc' }).error?.issues[0]?.message).toBe(
      'The room password must have at least 4 characters',
    );
  });
});
