import { z } from 'zod';

export const ZUserInfo = z.object({
  username: z.string(),
  avatar: z.string(),
  email: z.string(),
  level: z.number().int().describe('Above 1 means VIP.'),
  role: z.enum(['user', 'admin']),
  balance: z.number().describe('Prepaid balance in dollars.'),
  lastLoginIp: z
    .string()
    .nullable()
    .describe('Where the sign-in before the current one came from; null until there has been one.'),
  lastLoginTime: z
    .date()
    .nullable()
    .describe(
      'When the sign-in before the current one was (ISO 8601 over REST); null until there has been one.',
    ),
  createdAt: z.date(),
  impersonation: z
    .object({ adminEmail: z.string(), adminName: z.string(), expiresAt: z.date() })
    .nullable()
    .describe('Set when an administrator opened this session through a sign-in link.'),
});
export type TUserInfo = z.infer<typeof ZUserInfo>;
