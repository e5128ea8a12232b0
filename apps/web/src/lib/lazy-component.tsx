import { lazy, Suspense, type ComponentType } from 'react';
import { useOpenedOnce } from './use-opened-once';

/**
 * A component whose code is fetched when it first renders (a dialog mounted while open, a
 * media player): the console's first download leaves out what an operator opens rarely.
 * Nothing shows while the code is on its way (a dialog appears a moment later).
 */
export function lazyComponent<P extends object>(
  load: () => Promise<ComponentType<P>>,
): ComponentType<P> {
  const Loaded = lazy(async () => ({ default: await load() }));
  return function LazyComponent(props: P) {
    return (
      <Suspense fallback={null}>
        <Loaded {...props} />
      </Suspense>
    );
  };
}

/**
 * A dialog that is always rendered with an `opened` prop: its code is fetched the first time
 * it opens, and it stays mounted after (its state, its closing transition).
 */
export function lazyDialog<P extends { opened: boolean }>(
  load: () => Promise<ComponentType<P>>,
): ComponentType<P> {
  const Dialog = lazyComponent(load);
  return function LazyDialog(props: P) {
    const mounted = useOpenedOnce(props.opened);
    return mounted ? <Dialog {...props} /> : null;
  };
}
