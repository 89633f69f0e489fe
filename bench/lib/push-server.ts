import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@temporalio/client';
import { connectClient } from '../../src/connection';
import { AgentClient } from '../../src/client/agent-client';
import { createTokenFileAuthenticator } from '../../src/server/auth/token-file-authenticator';
import { addToken } from '../../src/server/auth/token-file-store';
import { createServer } from '../../src/server/create-server';
import { registerViewerRoute } from '../../src/server/routes/viewer-route';
import { STREAMS_PER_PERSON } from './push-caps';

/** What the parent passes, as JSON in argv[2]. */
export interface PushServerSpec {
  address: string;
  namespace: string;
  taskQueue: string;
  /** The repository's viewer/ folder (the compiled bench lives elsewhere). */
  viewerDir: string;
  /** Idle streams the figure opens: they are spread over enough people to stay under `serve`'s per-person cap. */
  idleStreams: number;
}

/** Messages to the parent over IPC. */
export type PushServerMessage =
  | { type: 'ready'; url: string; watcherToken: string; publisherToken: string; idleTokens: string[] }
  | { type: 'memory'; rssBytes: number; heapUsedBytes: number; watchers: number; runs: number };

const send = (message: PushServerMessage): void => void process.send?.(message);

/**
 * Entry of the push figure's server process: `thoughtline serve`'s own server (createServer with
 * a token file, the memory bus its ingest route feeds, and the viewer), alone in its process so
 * its memory is its own. Answers 'memory' with RSS and heap after a full GC (node --expose-gc).
 */
async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2] ?? '{}') as PushServerSpec;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-bench-push-'));
  const tokenFile = path.join(dir, 'tokens.json');
  const watcherToken = addToken(tokenFile, { id: 'watcher', roles: ['developer'] });
  const publisherToken = addToken(tokenFile, { id: 'bench-worker', roles: ['publisher'] });
  const idleTokens = Array.from({ length: Math.ceil(spec.idleStreams / STREAMS_PER_PERSON) }, (_, i) =>
    addToken(tokenFile, { id: `idle-watcher-${i + 1}`, roles: ['developer'] }),
  );
  // As `thoughtline serve` connects: a query refused for a full buffer is retried in milliseconds.
  const connection = await connectClient({ address: spec.address });
  const agents = new AgentClient({
    client: new Client({ connection, namespace: spec.namespace }),
    taskQueue: spec.taskQueue,
  });
  const server = await createServer({
    agents,
    auth: createTokenFileAuthenticator({ file: tokenFile }),
    port: 0,
    extend: (app) => registerViewerRoute(app, spec.viewerDir),
  });
  process.on('message', (message) => {
    if (message === 'memory') {
      (globalThis as { gc?: () => void }).gc?.();
      const { rss, heapUsed } = process.memoryUsage();
      const { watchers, runs } = server.openStreams();
      send({ type: 'memory', rssBytes: rss, heapUsedBytes: heapUsed, watchers, runs });
    }
    if (message === 'stop') {
      void server
        .close()
        .then(() => connection.close())
        .finally(() => {
          fs.rmSync(dir, { recursive: true, force: true });
          process.exit(0);
        });
    }
  });
  process.once('disconnect', () => process.exit(0));
  send({ type: 'ready', url: server.url, watcherToken, publisherToken, idleTokens });
}

main().catch((err: unknown) => {
  console.error('push server failed:', err);
  process.exit(1);
});
