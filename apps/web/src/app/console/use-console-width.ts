import { useMediaQuery } from '@mantine/hooks';

/** Where the console folds (console-page.module.css has the same widths). */
export const WIDE_MIN_PX = 1200;
export const PHONE_MAX_PX = 767;

export type ConsoleWidth = 'wide' | 'narrow' | 'phone';

/**
 * wide: groups | list | chat; narrow: the groups in a drawer, list | chat; phone: the groups
 * in a drawer, the list and the chat as two screens.
 */
export function useConsoleWidth(): ConsoleWidth {
  const opts = { getInitialValueInEffect: false };
  const wide = useMediaQuery(`(min-width: ${WIDE_MIN_PX}px)`, undefined, opts);
  const phone = useMediaQuery(`(max-width: ${PHONE_MAX_PX}px)`, undefined, opts);
  return wide ? 'wide' : phone ? 'phone' : 'narrow';
}
