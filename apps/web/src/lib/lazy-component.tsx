import { lazy, Suspense, type ComponentType } from 'react';
import { retrying } from './retrying-import';
import { useOpenedOnce } from './use-opened-once';

/** A component fetched on demand, whose code can also be fetched ahead (`preload`). */
export type LazyComponent<P> = ComponentType<P> & { preload: () => void };

/**
 * A component whose code is fetched when it first renders (a dialog mounted while open, a
 * media player): the console's first download leaves out what an operator opens rarely.
 * Nothing shows while the code is on its way (a dialog appears a moment later); a download
 * that fails is tried again (lib/retrying-import.ts).
 */
export function lazyComponent<P extends object>(
  load: () => Promise<ComponentType<P>>,
): LazyComponent<P> {
  const loadOnce = retrying(load);
  const Loaded = lazy(async () => ({ default: await loadOnce() }));
  function Lazy(props: P) {
    return (
      <Suspense fallback={null}>
        <Loaded {...props} />
      </Suspense>
    );
  }
  return Object.assign(Lazy, { preload: () => void loadOnce() });
}

/**
 * A dialog that is always rendered with an `opened` prop: its code is fetched the first time
 * it opens, and it stays mounted after (its state, its closing transition).
 */
export function lazyDialog<P extends { opened: boolean }>(
  load: () => Promise<ComponentType<P>>,
): LazyComponent<P> {
  const Dialog = lazyComponent(load);
  function LazyDialog(props: P) {
    const mounted = useOpenedOnce(props.opened);
    return mounted ? <Dialog {...props} /> : null;
  }
  return Object.assign(LazyDialog, { preload: Dialog.preload });
}
