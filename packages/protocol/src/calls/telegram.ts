import { z } from 'zod';
import { id } from '../entities.js';

export const tgUserInfoRequest = z.object({ session_id: id });
export const tgUserInfoResponse = z
  .object({
    username: z.string().nullable(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    photo_url: z.string().nullable(),
  })
  .nullable();
