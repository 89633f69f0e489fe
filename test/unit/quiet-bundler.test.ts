import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { DefaultLogger, NativeConnection, Runtime, type LogEntry } from '@temporalio/worker';
import { describe, expect, inject, it } from 'vitest';
import { quietBundlerLogger } from '../../src/quiet-bundler';
import { createAgentWorker } from '../../src/worker';

// First in this process: the worker logs through it, at INFO, as a project's own worker.ts does by default.
const entries: LogEntry[] = [];
Runtime.install({ logger: new DefaultLogger('INFO', (entry) => entries.push(entry)) });

describe('the workflow bundler, quiet', () => {
  it('drops INFO and below, and passes warnings and errors on', () => {
    const seen: string[] = [];
    const logger = quietBundlerLogger({ warn: (m) => seen.push(`warn ${m}`), error: (m) => seen.push(`error ${m}`) });
    logger.info('asset workflow-bundle.js 1.2 MiB [emitted]');
    logger.debug('debug');
    logger.log('INFO', 'webpack compiled successfully');
    logger.warn('a disallowed module');
    logger.log('ERROR', 'Webpack finished with errors');
    expect(seen).toEqual(['warn a disallowed module', 'error Webpack finished with errors']);
  });

  it("keeps webpack's module report off the log when createAgentWorker bundles the workflows", async () => {
    const connection = await NativeConnection.connect({ address: inject('temporalAddress') });
    try {
      const worker = await createAgentWorker({
        connection,
        namespace: inject('temporalNamespace'),
        taskQueue: `quiet-bundle-${randomUUID()}`,
        tools: [],
        models: {},
        cacheFile: path.join(os.tmpdir(), `quiet-bundle-${randomUUID()}.sqlite`),
      });
      const running = worker.run();
      worker.shutdown();
      await running;
      const messages = entries.map((e) => e.message);
      // The worker logged at INFO (its state changes), so a report at INFO would have been seen.
      expect(
        entries.some((e) => e.level === 'INFO'),
        messages.join('\n'),
      ).toBe(true);
      expect(
        messages.filter((m) => /webpack|compiled successfully|Workflow bundle created|modules by path/i.test(m)),
      ).toEqual([]);
    } finally {
      await connection.close();
    }
  }, 120_000);
});
