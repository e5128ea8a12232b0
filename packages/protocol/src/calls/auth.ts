import { z } from 'zod';
import { userInfo } from '../entities.js';
import { ACCOUNT_MAX } from '../limits.js';

export const loginRequest = z.object({
  account: z.string().trim().min(1, 'required').max(ACCOUNT_MAX),
  password: z.string().min(1, 'required').max(256),
});
export const loginResponse = userInfo;

export const tokenLoginRequest = z.object({ token: z.string().trim().min(1, 'required').max(256) });
export const tokenLoginResponse = userInfo;

/** Ends the login of the token sent, or with `all_devices` every login of the seat. */
export const logoutRequest = z.object({ all_devices: z.boolean().default(false) });
/** How many logins ended (the token sent included). */
export const logoutResponse = z.object({ revoked: z.number().int().nonnegative() });
