import type { z } from 'zod';

/** One call of a registry (`CALLS`, and any other registry of the same shape). */
export interface RegistryCall {
  request: z.ZodType;
  response: z.ZodType;
  auth: boolean;
  summary: string;
  spec?: boolean;
}

export interface CallRegistryInfo {
  /** The export's name (`CALLS`, `ADMIN_CALLS`, ...). */
  name: string;
  /** The path's area after `/v1/` (`seat`, `admin`, ...): the tag and the token's scheme. */
  area: string;
  calls: Record<string, RegistryCall>;
}

/** A zod 4 schema, whichever copy of zod made it (no `instanceof` across copies). */
const isSchema = (value: unknown): value is z.ZodType =>
  typeof value === 'object' && value !== null && '_zod' in value;

function isCall(value: unknown): value is RegistryCall {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<RegistryCall>;
  return (
    isSchema(v.request) &&
    isSchema(v.response) &&
    typeof v.auth === 'boolean' &&
    typeof v.summary === 'string'
  );
}

/**
 * Every call registry a module exports: an object whose keys are all `/v1/<area>/...` paths of
 * one area and whose values are calls. A registry added to the protocol (the administrator's
 * calls, ...) is found here and documented with no further work.
 */
export function findCallRegistries(exports: Record<string, unknown>): CallRegistryInfo[] {
  const found: CallRegistryInfo[] = [];
  for (const [name, value] of Object.entries(exports)) {
    if (typeof value !== 'object' || value === null || isSchema(value)) continue;
    const entries = Object.entries(value);
    if (entries.length === 0) continue;
    const areas = new Set(entries.map(([path]) => /^\/v1\/([a-z]+)\//.exec(path)?.[1]));
    const [area] = [...areas];
    if (areas.size !== 1 || !area) continue;
    if (!entries.every(([, call]) => isCall(call))) continue;
    found.push({ name, area, calls: value as Record<string, RegistryCall> });
  }
  return found;
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * The operation id of a path: its segments after `/v1/` in camelCase, without the seat's
 * `seat/chat` prefix (`/v1/seat/chat/getGroupInfo` -> `getGroupInfo`,
 * `/v1/seat/chat/translate/text_v2` -> `translateTextV2`, `/v1/admin/seats/list` ->
 * `adminSeatsList`).
 */
export function operationId(path: string): string {
  const segments = path.split('/').filter(Boolean).slice(1);
  if (segments[0] === 'seat') segments.shift();
  if (segments[0] === 'chat') segments.shift();
  const words = segments.flatMap((s) => s.split('_')).filter(Boolean);
  return words.map((w, i) => (i === 0 ? w : capitalize(w))).join('');
}

export const componentName = (path: string) => capitalize(operationId(path));
