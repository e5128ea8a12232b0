import type { MantineColorScheme, MantineColorSchemeManager } from '@mantine/core';
import { STORAGE_KEYS } from '@parley/protocol';
import { readItem, removeItem, writeItem, type ThemeSetting } from './storage';

const toMantine = (t: ThemeSetting | null): MantineColorScheme | null =>
  t === 'system' ? 'auto' : t === 'light' || t === 'dark' ? t : null;
const fromMantine = (s: MantineColorScheme): ThemeSetting => (s === 'auto' ? 'system' : s);

/** Keeps Mantine's colour scheme in the spec's `theme` item (JSON: light | dark | system). */
export function themeManager(): MantineColorSchemeManager {
  let handler: ((e: StorageEvent) => void) | undefined;
  return {
    get: (defaultValue) => toMantine(readItem('theme')) ?? defaultValue,
    set: (value) => writeItem('theme', fromMantine(value)),
    subscribe: (onUpdate) => {
      handler = (e) => {
        if (e.key !== STORAGE_KEYS.theme) return;
        const next = toMantine(readItem('theme'));
        if (next) onUpdate(next);
      };
      window.addEventListener('storage', handler);
    },
    unsubscribe: () => {
      if (handler) window.removeEventListener('storage', handler);
    },
    clear: () => removeItem('theme'),
  };
}
