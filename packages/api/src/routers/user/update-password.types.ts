import { z } from 'zod';
import { ZPassword } from '../../schemas/common';

const empty = 'The password cannot be empty';

export const ZUpdatePasswordRequest = z.object({
  oldPassword: z.string({ error: empty }).min(1, { error: empty }).max(128, { error: 'Incorrect password' }),
  newPassword: z.string({ error: empty }).min(1, { error: empty }).pipe(ZPassword),
});
export type TUpdatePasswordRequest = z.infer<typeof ZUpdatePasswordRequest>;
