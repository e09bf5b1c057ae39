// The self-hosted captcha's wire format: a signed proof-of-work challenge and its solution (in the manner of
// ALTCHA). The descriptions are the protocol's documentation: the OpenAPI document is generated from them, and a
// third-party client must be able to solve a challenge from it alone.
import { z } from 'zod';

const FAILED = { error: 'verification failed' };

const HEX_SHA256 = /^[0-9a-f]{64}$/;

/** The longest salt the server issues is far below this; the bound only keeps junk input cheap to refuse. */
const MAX_SALT_LENGTH = 256;

const captchaId = z
  .string(FAILED)
  .min(1, FAILED)
  .max(128, FAILED)
  .meta({
    description:
      'Identifies the self-hosted captcha. Copy it unchanged from the challenge into the solution; the server ' +
      'also returns it as the captcha_id of the five captcha fields.',
    examples: ['self-hosted'],
  });

const salt = z
  .string(FAILED)
  .min(1, FAILED)
  .max(MAX_SALT_LENGTH, FAILED)
  .meta({
    description:
      'Random text chosen by the server, ending in "?expires=<unix seconds>". Opaque to the client: hash it ' +
      'exactly as given and send it back unchanged. Because it is part of the hashed text, the expiry cannot be ' +
      'altered without invalidating the challenge.',
    examples: ['5c0e3f9a2b7d41e8a6f0c3d2?expires=1767225600'],
  });

const challenge = z
  .string(FAILED)
  .regex(HEX_SHA256, FAILED)
  .meta({
    description:
      'The target hash: lowercase hexadecimal SHA-256 (64 characters) of the UTF-8 bytes of salt followed by ' +
      'the secret number written in decimal without sign, leading zeros or separators.',
    examples: ['a3b1c8e5f0d2947b6c1e8f3a5d7b9c0e2f4a6b8d0c1e3f5a7b9d1c3e5f7a9b0c'],
  });

const signature = z
  .string(FAILED)
  .regex(HEX_SHA256, FAILED)
  .meta({
    description:
      "The server's HMAC-SHA-256 of the challenge (lowercase hexadecimal). Opaque to the client: send it back " +
      'unchanged so the server can recognise its own challenge without storing it.',
    examples: ['0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0'],
  });

export const ZCaptchaChallenge = z
  .object({
    captcha_id: captchaId,
    algorithm: z.literal('SHA-256', FAILED).meta({
      description: 'The hash function of the proof of work. Always "SHA-256".',
    }),
    salt,
    challenge,
    maxnumber: z
      .number(FAILED)
      .int(FAILED)
      .positive(FAILED)
      .meta({
        description:
          'The largest number to try. The secret number is an integer in [0, maxnumber], both ends included; ' +
          'try 0, 1, 2, … in order, and a solution is always found by maxnumber.',
        examples: [50000],
      }),
    signature,
    expires_at: z
      .number(FAILED)
      .int(FAILED)
      .nonnegative(FAILED)
      .meta({
        description:
          'When the challenge stops being accepted, in unix seconds (the same instant the salt ends with). ' +
          'Solve and redeem it before then, or ask for a new one.',
        examples: [1767225600],
      }),
  })
  .meta({
    description:
      'A proof-of-work challenge. To solve it, find the integer n in [0, maxnumber] for which ' +
      'lowercase-hex(SHA-256(UTF-8(salt + decimal(n)))) equals challenge, then redeem ' +
      '{ captcha_id, salt, challenge, signature, number: n } for the five captcha fields. ' +
      'Each challenge can be redeemed once.',
  });

export type TCaptchaChallenge = z.infer<typeof ZCaptchaChallenge>;

export const ZCaptchaSolution = z
  .object({
    captcha_id: captchaId,
    salt,
    challenge,
    signature,
    number: z
      .number(FAILED)
      .int(FAILED)
      .nonnegative(FAILED)
      .max(Number.MAX_SAFE_INTEGER, FAILED)
      .meta({
        description:
          'The number found: the integer n in [0, maxnumber] whose SHA-256 of salt + decimal(n) equals challenge.',
        examples: [27183],
      }),
  })
  .meta({
    description:
      'A solved challenge: the challenge fields copied unchanged (salt, challenge, signature, captcha_id) and ' +
      'the number found. Redeeming it returns lot_number, captcha_output, pass_token, gen_time and captcha_id, ' +
      'to be sent once with the protected call (login, registration, password reset).',
  });

export type TCaptchaSolution = z.infer<typeof ZCaptchaSolution>;
