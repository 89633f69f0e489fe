import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AgentClient } from '../../src/client/agent-client';
import { createTokenFileAuthenticator } from '../../src/server/auth/token-file-authenticator';
import { createServer, type CreateServerOptions, type RunningServer } from '../../src/server/create-server';
import type { TestEnv } from '../helpers/temporal-env';
import { writeTokenFile, type Person } from './server-harness';
import { inMemorySigner } from '../../src/server/signing/keyring-signer';

/** The server without a worker, for what needs none: authentication, errors, the document. */
export async function startLightServer(
  env: TestEnv,
  options: Partial<CreateServerOptions> = {},
): Promise<{ server: RunningServer; tokens: Record<Person, string>; logs: string[]; close(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-server-'));
  const { file, tokens } = writeTokenFile(dir);
  const logs: string[] = [];
  const server = await createServer({
    agents: new AgentClient({ client: env.client }),
    signer: inMemorySigner(),
    auth: createTokenFileAuthenticator({ file, log: (l) => logs.push(l) }),
    port: 0,
    log: (l) => logs.push(l),
    ...options,
  });
  return {
    server,
    tokens,
    logs,
    close: async () => {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
