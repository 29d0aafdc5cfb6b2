/**
 * The env file schema. A static `import * as z` lets esbuild tree-shake zod/mini down to
 * what is used; `await import('zod/mini')` would keep all of it (64 locales, ~700 KB).
 */
import * as z from 'zod/mini';

/** `{"dev": {"host": "…"}, "$shared": {…}}`: environments of variables. */
export const envFileSchema = z.record(z.string(), z.record(z.string(), z.unknown()));
