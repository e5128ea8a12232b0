import { z } from 'zod';

/**
 * An environment variable the server reads: its zod schema (type, bounds, default), and what
 * the README's configuration table says of it. The root schema (config-schema.ts) and each
 * channel's configuration fragment (channels/<name>/<name>.config.ts) declare theirs with
 * these helpers.
 */
export interface EnvVar<T> {
  schema: z.ZodType<T>;
  /** Its type and bounds, as the table shows them. */
  type: string;
  /** Its default, as the table shows it. */
  shown: string;
  meaning: string;
  /** Its issues' own messages say more than its type (an unknown engine's name). */
  explains?: true;
  /** Never echoed in an error (a key). */
  secret?: true;
}

/** Unset and blank are the same: the default. */
export const given = (raw: unknown) =>
  typeof raw === 'string' && raw.trim() !== '' ? raw.trim() : undefined;

export function integer(
  min: number,
  max: number,
  fallback: number,
  meaning: string,
): EnvVar<number> {
  return {
    schema: z.preprocess(given, z.coerce.number().int().min(min).max(max).default(fallback)),
    type: `an integer from ${min} to ${max}`,
    shown: String(fallback),
    meaning,
  };
}

/** Fractions allowed. */
export function decimal(
  min: number,
  max: number,
  fallback: number,
  meaning: string,
): EnvVar<number> {
  return {
    schema: z.preprocess(given, z.coerce.number().min(min).max(max).default(fallback)),
    type: `a number from ${min} to ${max}`,
    shown: String(fallback),
    meaning,
  };
}

export function oneOf<const V extends string>(
  values: readonly [V, ...V[]],
  fallback: V,
  meaning: string,
): EnvVar<V> {
  return {
    schema: z.preprocess(given, z.enum(values).default(fallback)) as z.ZodType<V>,
    type: `one of ${values.join(', ')}`,
    shown: fallback,
    meaning,
  };
}

/** Free text, `fallback` when unset. */
export function textOr(fallback: string, meaning: string): EnvVar<string> {
  return {
    schema: z.preprocess(given, z.string().default(fallback)),
    type: 'text',
    shown: fallback,
    meaning,
  };
}

/** Free text; null when unset. */
export function text(meaning: string, opts: { minLength?: number; shown?: string } = {}) {
  const inner = opts.minLength ? z.string().min(opts.minLength) : z.string();
  return {
    schema: z.preprocess(given, inner.nullable().default(null)),
    type: opts.minLength ? `at least ${opts.minLength} characters` : 'text',
    shown: opts.shown ?? 'unset',
    meaning,
    ...(opts.minLength ? { secret: true as const } : {}),
  } satisfies EnvVar<string | null>;
}

/** A URL of these schemes (trailing slashes dropped); null when unset. */
/** One origin of a list setting (scheme://host[:port]), as URL.origin writes it. */
export function origin(example: string) {
  return z.string().transform((raw, ctx) => {
    let url: URL | null = null;
    try {
      url = new URL(raw);
    } catch {
      // not a URL
    }
    if (!url || !/^https?:$/.test(url.protocol) || url.pathname !== '/' || url.search) {
      ctx.addIssue({
        code: 'custom',
        message: `is not an origin (scheme://host[:port], e.g. ${example})`,
      });
      return z.NEVER;
    }
    return url.origin;
  });
}

export function url(schemes: readonly string[], meaning: string, shown = 'unset') {
  return {
    schema: z.preprocess(
      given,
      z
        .url({ protocol: new RegExp(`^(${schemes.join('|')})$`) })
        .transform((u) => u.replace(/\/+$/, ''))
        .nullable()
        .default(null),
    ),
    type: `a ${schemes.map((x) => `${x}://`).join(' or ')} URL`,
    shown,
    meaning,
  } satisfies EnvVar<string | null>;
}

/** A comma-separated list of host names (lower case); `fallback` when unset. */
export function hostList(fallback: string[], meaning: string): EnvVar<string[]> {
  return {
    schema: z.preprocess(
      (raw) =>
        given(raw)
          ?.split(',')
          .map((h) => h.trim().toLowerCase())
          .filter(Boolean),
      z.array(z.string().regex(/^[a-z0-9.-]+$/, 'is not a host name')).default(fallback),
    ),
    type: 'a comma-separated list of host names',
    shown: fallback.length > 0 ? fallback.join(',') : 'unset',
    meaning,
  };
}

/** `on`/`1`/`true`, `off`/`0`/`false` or `auto` (unset). */
export function onOffAuto(meaning: string): EnvVar<'auto' | 'on' | 'off'> {
  const words: Record<string, 'auto' | 'on' | 'off'> = {
    auto: 'auto',
    on: 'on',
    '1': 'on',
    true: 'on',
    off: 'off',
    '0': 'off',
    false: 'off',
  };
  return {
    schema: z.preprocess(
      (raw) => given(raw)?.toLowerCase(),
      z
        .enum(Object.keys(words) as [string, ...string[]])
        .default('auto')
        .transform((w) => words[w]!),
    ),
    type: 'on (1, true), off (0, false) or auto',
    shown: 'auto',
    meaning,
  };
}

/** The parsed values of a set of variables. */
export type EnvValuesOf<E> = { [K in keyof E]: E[K] extends EnvVar<infer T> ? T : never };
