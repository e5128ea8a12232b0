import type { EnvValuesOf } from '../lib/env-var.js';
import { telegramConfig } from './telegram/telegram.config.js';
import { whatsappConfig } from './whatsapp/whatsapp.config.js';

/**
 * Each channel's configuration fragment (`<name>.config.ts` in its folder: its variables with
 * their defaults, and the settings read from them), one line per channel with settings. The
 * root schema (config-schema.ts) takes their variables, the root Config (config.ts) their
 * settings.
 */
const FRAGMENTS = [telegramConfig, whatsappConfig] as const;

type Fragments = typeof FRAGMENTS;
/** The intersection of a tuple's types. */
type All<T extends readonly unknown[]> = T extends readonly [infer H, ...infer R]
  ? H & All<R>
  : unknown;
type EnvsOf<T extends readonly unknown[]> = {
  [I in keyof T]: T[I] extends { env: infer E } ? E : never;
};
type ReadOf<T extends readonly unknown[]> = {
  [I in keyof T]: T[I] extends { read: (v: never) => infer R } ? R : never;
};
type Envs = All<EnvsOf<Fragments>>;

/** Every channel's environment variables. */
export const CHANNEL_ENV = Object.assign({}, ...FRAGMENTS.map((f) => f.env)) as Envs;

/** Every channel's settings, under its key of Config. */
export type ChannelConfigs = All<ReadOf<Fragments>>;

export function channelConfigs(values: EnvValuesOf<Envs>): ChannelConfigs {
  return Object.assign({}, ...FRAGMENTS.map((f) => f.read(values as never))) as ChannelConfigs;
}

export type { TelegramConfig } from './telegram/telegram.config.js';
export type { WhatsappConfig } from './whatsapp/whatsapp.config.js';
