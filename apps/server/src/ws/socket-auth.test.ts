import { describe, expect, it } from 'vitest';
import type { TRelayRoom } from './relay-ports';
import { roomAccess } from './room-access';
import { originAllowed } from './socket-auth';

describe('the Origin check', () => {
  const publicUrl = 'https://rooms.example.com';

  it('accepts our public origin and the host the browser addressed', () => {
    expect(originAllowed('https://rooms.example.com', 'internal:3000', publicUrl)).toBe(true);
    expect(originAllowed('http://localhost:5173', 'localhost:5173', publicUrl)).toBe(true);
  });

  it('refuses other sites, look-alikes and garbage', () => {
    expect(originAllowed('https://evil.example', 'rooms.example.com', publicUrl)).toBe(false);
    expect(originAllowed('http://rooms.example.com', 'other:1', publicUrl)).toBe(false);
    expect(originAllowed('https://rooms.example.com.evil.example', undefined, publicUrl)).toBe(false);
    expect(originAllowed('null', 'rooms.example.com', publicUrl)).toBe(false);
  });
});

describe('who may enter a room', () => {
  const room: TRelayRoom = {
    id: 'r',
    ownerId: 'owner',
    maxConnections: 5,
    password: null,
    isPublic: false,
    maxFrameRate: 30,
  };

  it('lets the owner in always, anyone into a public room', () => {
    expect(roomAccess(room, 'owner', undefined)).toBe('ok');
    expect(roomAccess({ ...room, isPublic: true }, null, undefined)).toBe('ok');
  });

  it('hides a private room without a password from everyone else', () => {
    expect(roomAccess(room, 'someone', undefined)).toBe('ROOM_NOT_FOUND');
    expect(roomAccess(room, null, 'guess')).toBe('ROOM_NOT_FOUND');
  });

  it('asks for the share password', () => {
    const shared = { ...room, password: 'sesame' };
    expect(roomAccess(shared, null, 'sesame')).toBe('ok');
    expect(roomAccess(shared, 'someone', 'Sesame')).toBe('WRONG_PASSWORD');
    expect(roomAccess(shared, null, undefined)).toBe('WRONG_PASSWORD');
  });
});
