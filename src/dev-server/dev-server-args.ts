import { SEARCH_ATTRIBUTES } from '../domain/run/search-attributes';
import { devServerTuningArgs } from './dev-server-tuning';

/**
 * Full argv (after the binary) for `temporal server start-dev`. Pure.
 * Binds to 127.0.0.1 only; without `dbFile` the server keeps its state in memory. Its own
 * throttles are lifted (see dev-server-tuning.ts).
 * Re-registering the same search attributes on a persistent db at restart is accepted (checked with CLI 1.9.1).
 */
export function devServerArgs(opts: { port: number; uiPort: number; dbFile?: string; namespace: string }): string[] {
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(opts.port),
    '--ui-port',
    String(opts.uiPort),
  ];
  args.push('--namespace', opts.namespace);
  if (opts.dbFile !== undefined) args.push('--db-filename', opts.dbFile);
  args.push(...devServerTuningArgs(opts));
  args.push('--log-level', 'warn');
  for (const { name, cliType } of SEARCH_ATTRIBUTES) args.push('--search-attribute', `${name}=${cliType}`);
  return args;
}
