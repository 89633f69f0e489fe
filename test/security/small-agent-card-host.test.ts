import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentClient } from '../../src/client/agent-client';
import { createTokenFileAuthenticator } from '../../src/server/auth/token-file-authenticator';
import { createServer, type RunningServer } from '../../src/server/create-server';
import { useTestEnv } from '../helpers/temporal-env';
import { writeTokenFile } from '../server/server-harness';

/**
 * The public agent card is cached for five minutes by anyone in between: its interface URL must
 * never come from the request. A forged Host (or X-Forwarded-Host) changes nothing; a server on
 * every interface with no THOUGHTLINE_PUBLIC_URL refuses to guess and says what to set.
 */
const env = useTestEnv();

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-card-host-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function serveOn(host: string, publicUrl?: string): Promise<RunningServer> {
  if (publicUrl) process.env.THOUGHTLINE_PUBLIC_URL = publicUrl;
  else delete process.env.THOUGHTLINE_PUBLIC_URL;
  try {
    return await createServer({
      agents: new AgentClient({ client: env.client, taskQueue: 'card-host-unused' }),
      auth: createTokenFileAuthenticator({ file: writeTokenFile(dir).file }),
      host,
      port: 0,
    });
  } finally {
    delete process.env.THOUGHTLINE_PUBLIC_URL;
  }
}

/** GET with headers fetch will not forge (Host), over a plain socket to the server's port. */
function getCard(server: RunningServer, headers: Record<string, string>): Promise<{ status: number; json: any }> {
  const port = Number(new URL(server.url).port);
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/.well-known/agent-card.json', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(body) }));
    });
    req.on('error', reject);
  });
}

const FORGED = { host: 'evil.example:666', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };
const urlsOf = (card: any): string[] => card.supportedInterfaces.map((i: { url: string }) => i.url);

describe('the agent card names no address the caller wrote', () => {
  it('a forged Host on a loopback server: the card names the address the server listens on', async () => {
    const server = await serveOn('127.0.0.1');
    try {
      const { status, json } = await getCard(server, FORGED);
      expect(status).toBe(200);
      expect(urlsOf(json)).toEqual([`${server.url}/a2a/agent`, `${server.url}/a2a/agent`]);
      expect(JSON.stringify(json)).not.toContain('evil.example');
    } finally {
      await server.close();
    }
  });

  it('on every interface without THOUGHTLINE_PUBLIC_URL: 503 naming the variable, never the forged host', async () => {
    const server = await serveOn('0.0.0.0');
    try {
      const { status, json } = await getCard(server, FORGED);
      expect(status).toBe(503);
      expect(json.error.code).toBe('unavailable');
      expect(json.error.message).toContain('THOUGHTLINE_PUBLIC_URL');
      expect(JSON.stringify(json)).not.toContain('evil.example');
    } finally {
      await server.close();
    }
  });

  it('with THOUGHTLINE_PUBLIC_URL: that URL, whatever the request says', async () => {
    const server = await serveOn('0.0.0.0', 'https://agents.example.com/');
    try {
      const { status, json } = await getCard(server, FORGED);
      expect(status).toBe(200);
      expect(urlsOf(json)[0]).toBe('https://agents.example.com/a2a/agent');
    } finally {
      await server.close();
    }
  });
});
