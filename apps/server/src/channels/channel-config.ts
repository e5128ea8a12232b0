import { readdir } from 'node:fs/promises';
import type { EnvVar } from '../lib/env-var.js';

/**
 * Each channel's settings, under its key of Config: a channel's configuration fragment adds its
 * own to this interface (`declare module '../channel-config.js'` in `<name>.config.ts`), so the
 * root Config (config.ts) has them typed without a line per channel.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the fragments
export interface ChannelConfigs {}

/** Every channel's environment variables, each fragment adding its own (as ChannelConfigs). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the fragments
export interface ChannelEnv {}

/**
 * A channel's configuration fragment, `fragment` of `channels/<name>/<name>.config.ts`: its
 * variables with their defaults, and the settings read from them.
 */
export interface ConfigFragment {
  env: Record<string, EnvVar<unknown>>;
  read(values: never): object;
}

/** The channels' folders (src/ under Vitest and the typechecked tests, dist/ built). */
const CHANNELS_DIR = new URL('./', import.meta.url);

/**
 * The fragments, found in the channels' folders: each folder's `<name>.config.ts` (.js once
 * built), so a new channel's settings need no line here. Read once, when the configuration
 * module loads: the settings are parsed before any channel's module is made, and importing the
 * registry here would load every channel and the modules they build on first.
 */
async function findFragments(): Promise<ConfigFragment[]> {
  const fragments: ConfigFragment[] = [];
  const folders = (await readdir(CHANNELS_DIR, { withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  for (const name of folders) {
    const files = await readdir(new URL(`${name}/`, CHANNELS_DIR));
    const file = [`${name}.config.ts`, `${name}.config.js`].find((f) => files.includes(f));
    if (!file) continue;
    const mod = (await import(new URL(`${name}/${file}`, CHANNELS_DIR).href)) as {
      fragment?: ConfigFragment;
    };
    if (!mod.fragment) throw new Error(`channels/${name}/${file} exports no fragment`);
    fragments.push(mod.fragment);
  }
  return fragments;
}

const FRAGMENTS = await findFragments();

/** Every channel's environment variables. */
export const CHANNEL_ENV = Object.assign({}, ...FRAGMENTS.map((f) => f.env)) as ChannelEnv;

/** Every channel's settings, read from the parsed environment by its own fragment. */
export function channelConfigs(values: Record<string, unknown>): ChannelConfigs {
  return Object.assign({}, ...FRAGMENTS.map((f) => f.read(values as never))) as ChannelConfigs;
}

/**
 * Every channel's settings from its variables' defaults, as an unset environment gives them:
 * what a Config built by hand (the tests') starts from, so a new channel needs no line there.
 */
export function channelDefaults(): ChannelConfigs {
  const env = CHANNEL_ENV as unknown as Record<string, EnvVar<unknown>>;
  return channelConfigs(
    Object.fromEntries(Object.entries(env).map(([name, v]) => [name, v.schema.parse(undefined)])),
  );
}
