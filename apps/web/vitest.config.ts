import { defineConfig } from 'vitest/config';

/**
 * Two projects: the logic tests (`*.test.ts`) run in Node; the component tests (`*.test.tsx`)
 * render real components into jsdom with Testing Library.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'components',
          environment: 'jsdom',
          include: ['src/**/*.test.tsx'],
          setupFiles: ['src/test/component-setup.ts', 'src/test/server-calls.ts'],
          // Mantine's CSS is not needed to find elements by role and label.
          css: false,
          // Typing and clicking as a user does, on a machine shared with other work.
          testTimeout: 30_000,
        },
      },
    ],
  },
});
