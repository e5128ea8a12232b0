import { createStore, useStore } from '../lib/create-store';
import { readItem, writeItem, type SizeSetting } from '../lib/storage';

interface Settings {
  size: SizeSetting;
}

const stored = readItem('size');
export const settingsStore = createStore<Settings>({
  size: stored === 'sm' || stored === 'lg' ? stored : 'md',
});

export function useSettings<S>(select: (s: Settings) => S): S {
  return useStore(settingsStore, select);
}

/** UI density, stored under `size`. */
export function setSize(size: SizeSetting): void {
  writeItem('size', size);
  settingsStore.set({ size });
}

export const SIZE_SCALE: Record<SizeSetting, number> = { sm: 0.92, md: 1, lg: 1.1 };
