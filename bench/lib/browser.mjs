import { chromium } from 'playwright-core';

/** Debian's Chromium (never a downloaded build); PARLEY_CHROMIUM points elsewhere. */
export const CHROMIUM = process.env.PARLEY_CHROMIUM ?? '/usr/bin/chromium';

/** Headless Chromium with the flags the benchmarks and browser tests use, plus `extraArgs`. */
export function launchChromium(extraArgs = []) {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
}
