import { describe, expect, it } from 'vitest';
import { redactQuerySecrets, serializeError } from './log-redaction';

describe('redactQuerySecrets', () => {
  it('hides tokens, tickets and passwords in any position and keeps the rest', () => {
    expect(redactQuerySecrets('/ws/room/1?token=abc&x=1')).toBe('/ws/room/1?token=[redacted]&x=1');
    expect(redactQuerySecrets('/ws/room/1?x=1&ticket=t.s.g#frag')).toBe(
      '/ws/room/1?x=1&ticket=[redacted]#frag',
    );
    expect(redactQuerySecrets('/api/room/getRoomInfo_share?name=a&PASSWORD=secret')).toBe(
      '/api/room/getRoomInfo_share?name=a&PASSWORD=[redacted]',
    );
    expect(redactQuerySecrets('/api/user/userinfo')).toBe('/api/user/userinfo');
  });

  it('hides the token of an administrator’s sign-in link, which travels in the path', () => {
    expect(redactQuerySecrets('/admintologinuser/AbC123_-xyz?lang=en')).toBe(
      '/admintologinuser/[redacted]?lang=en',
    );
  });

  it('hides them inside the JSON input of tRPC queries', () => {
    const input = encodeURIComponent(JSON.stringify({ json: { id: 'r1', password: 'se"c ret' } }));
    const logged = redactQuerySecrets(`/trpc/room.getRoomInfo_share?input=${input}`);
    expect(logged).not.toContain('ret');
    expect(decodeURIComponent(logged)).toBe(
      '/trpc/room.getRoomInfo_share?input={"json":{"id":"r1","password":"[redacted]"}}',
    );
    const plain = `/trpc/room.getRoomList?input=${encodeURIComponent('{"json":{}}')}`;
    expect(redactQuerySecrets(plain)).toBe(plain);
    expect(redactQuerySecrets('/trpc/x?input=%E0%A4%A')).toBe('/trpc/x?input=[redacted]');
  });
});

describe('redactQuerySecrets, every kind of secret', () => {
  it('hides codes, pass tokens, captcha proofs and passwords by any name, in the query and in tRPC input', () => {
    expect(
      redactQuerySecrets(
        '/api/user/resetPassword?email=a%40b.c&code=123456&pass_token=pt&captcha_output=co&lot_number=ln&newPassword=np&old_password=op',
      ),
    ).toBe(
      '/api/user/resetPassword?email=a%40b.c&code=[redacted]&pass_token=[redacted]&captcha_output=[redacted]&lot_number=ln&newPassword=[redacted]&old_password=[redacted]',
    );
    const input = encodeURIComponent(JSON.stringify({ json: { code: 123456, pass_token: 'pt', name: 'n' } }));
    expect(decodeURIComponent(redactQuerySecrets(`/trpc/x?input=${input}`))).toBe(
      '/trpc/x?input={"json":{"code":"[redacted]","pass_token":"[redacted]","name":"n"}}',
    );
  });
});

describe('serializeError', () => {
  it('keeps what tells the error apart and leaves out the database client a pg error carries', () => {
    const error = Object.assign(new Error('Connection terminated unexpectedly'), {
      code: 'ECONNRESET',
      client: { connectionParameters: { host: '127.0.0.1', database: 'rooms' }, _queryQueue: [] },
    });
    const logged = serializeError(error);
    expect(logged).toMatchObject({
      type: 'Error',
      message: 'Connection terminated unexpectedly',
      code: 'ECONNRESET',
    });
    expect(logged.stack).toContain('Connection terminated unexpectedly');
    expect(logged).not.toHaveProperty('client');
  });
});
