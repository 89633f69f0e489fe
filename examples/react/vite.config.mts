// examples/react/vite.config.mts
import { defineConfig } from 'vite';

// The page calls /v1 on its own origin; Vite passes it on to `thoughtline serve` (no CORS needed).
const serve = process.env.THOUGHTLINE_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  oxc: { jsx: { runtime: 'automatic' } },
  server: { proxy: { '/v1': serve } },
  preview: { proxy: { '/v1': serve } },
});
