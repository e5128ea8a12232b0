import { z } from 'zod';

/*
 * Ids and times, with their ceilings: the scalars every schema builds on, in a file of their
 * own that imports no other (the channels' table and the entities both use them).
 */

export const ID_MAX = 2_147_483_647;
export const EPOCH_MS_MAX = 253_402_300_799_999;
export const id = z.number().int().positive().max(ID_MAX);
export const epochMs = z.number().int().nonnegative().max(EPOCH_MS_MAX);
/** An id in a query string (text coerced to a number), with the same ceiling. */
export const queryId = z.coerce.number().int().positive().max(ID_MAX);
/** A time in a query string, with the same ceiling as epochMs. */
export const queryEpochMs = z.coerce.number().int().nonnegative().max(EPOCH_MS_MAX);
