import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    // Tests never read the real user's VS Code settings (src/core/vscode-config.ts).
    setupFiles: ['tests/helpers/no-vscode-user-settings.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // E2E tests spawn the built CLI; keep parallelism modest on two cores.
    maxWorkers: 2,
  },
});
