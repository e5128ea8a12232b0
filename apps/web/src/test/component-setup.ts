import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// What jsdom lacks and Mantine reads: the media query list (colour scheme, breakpoints) and the
// observers its popovers, scroll areas and charts start. Inert versions: jsdom lays nothing out.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

class InertObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
  takeRecords(): [] {
    return [];
  }
}
globalThis.ResizeObserver ??= InertObserver as unknown as typeof ResizeObserver;
globalThis.IntersectionObserver ??= InertObserver as unknown as typeof IntersectionObserver;
Element.prototype.scrollIntoView ??= () => undefined;

// findBy and waitFor wait up to 10 s: the machine is shared, and a wait ends as soon as it holds.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
});
