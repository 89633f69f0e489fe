import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_TASK_BYTES } from '../../src/domain/run/payload-size';
import { A2A_BODY_LIMIT_BYTES } from '../../src/server/a2a/register-a2a-routes';
import { MAX_MESSAGE_ID_CHARS } from '../../src/server/a2a/tasks/message-input';
import { useTestEnv } from '../helpers/temporal-env';
import { startLightServer } from '../server/light-server';

/** The A2A endpoint's refusals: none needs a worker. */
const env = useTestEnv();
let light: Awaited<ReturnType<typeof startLightServer>>;

beforeAll(async () => {
  light = await startLightServer(env, { queryTimeoutMs: 500 });
});
afterAll(async () => light?.close());

async function rpc(
  body: unknown,
  options: { agent?: string; version?: string | null; contentType?: string } = {},
): Promise<{ status: number; json: any }> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${light.tokens.dev}`,
    'content-type': options.contentType ?? 'application/json',
  };
  if (options.version !== null) headers['a2a-version'] = options.version ?? '1.0';
  const response = await fetch(`${light.server.url}/a2a/${options.agent ?? 'agent'}`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

const sendParams = (text: string, messageId = `m-${Math.random().toString(36).slice(2)}`) => ({
  message: { messageId, role: 'ROLE_USER', parts: [{ text }] },
  configuration: { returnImmediately: true },
});

describe('A2A endpoint edges', () => {
  it('answers an unknown agent 404, bad JSON, an unknown method and a wrong content type in JSON-RPC form', async () => {
    const unknown = await rpc({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } }, { agent: 'nobody' });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.message).toContain('No agent named "nobody"');

    const garbled = await rpc('{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(garbled).toMatchObject({ status: 400, json: { jsonrpc: '2.0', error: { code: -32700 } } });

    const method = await rpc({ jsonrpc: '2.0', id: 2, method: 'DeleteEverything', params: {} });
    expect(method.json).toMatchObject({ id: 2, error: { code: -32601 } });

    const text = await rpc('hello', { contentType: 'text/plain' });
    expect(text).toMatchObject({ status: 415, json: { error: { code: -32005 } } });

    const version = await rpc({ jsonrpc: '2.0', id: 3, method: 'GetTask', params: { id: 'x' } }, { version: '9.9' });
    expect(version.json.error).toMatchObject({ code: -32009, message: expect.stringContaining('1.0 or 0.3') });
  });

  it('refuses a body over the limit with 413 and says the limit; takes one just under it to the transport', async () => {
    const padding = (n: number) => ({
      jsonrpc: '2.0',
      id: 4,
      method: 'GetTask',
      params: { id: 'x', pad: 'p'.repeat(n) },
    });
    const overhead = JSON.stringify(padding(0)).length;
    const over = await rpc(padding(A2A_BODY_LIMIT_BYTES - overhead + 1));
    expect(over.status).toBe(413);
    expect(over.json.error.message).toContain(`${A2A_BODY_LIMIT_BYTES} bytes`);
    const at = await rpc(padding(A2A_BODY_LIMIT_BYTES - overhead));
    expect(at.status).toBe(200);
    expect(at.json.error.code).toBe(-32001);
  });

  it('bounds the message: text over a run’s task limit, a message id too long, no parts, file parts', async () => {
    const big = await rpc({
      jsonrpc: '2.0',
      id: 5,
      method: 'SendMessage',
      params: sendParams('x'.repeat(MAX_TASK_BYTES + 1)),
    });
    expect(big.json.error).toMatchObject({ code: -32602, message: expect.stringContaining(`${MAX_TASK_BYTES} bytes`) });

    const longId = await rpc({
      jsonrpc: '2.0',
      id: 6,
      method: 'SendMessage',
      params: sendParams('hi', 'i'.repeat(MAX_MESSAGE_ID_CHARS + 1)),
    });
    expect(longId.json.error).toMatchObject({ code: -32602, message: expect.stringContaining('messageId') });

    const empty = await rpc({
      jsonrpc: '2.0',
      id: 7,
      method: 'SendMessage',
      params: { message: { messageId: 'm-empty', role: 'ROLE_USER', parts: [] } },
    });
    expect(empty.json.error.code).toBe(-32602);

    const file = await rpc({
      jsonrpc: '2.0',
      id: 8,
      method: 'SendMessage',
      params: { message: { messageId: 'm-file', role: 'ROLE_USER', parts: [{ url: 'https://example.com/a.pdf' }] } },
    });
    expect(file.json.error).toMatchObject({ code: -32602, message: expect.stringContaining('text and data parts') });
  });

  it('speaks v0.3 to a request without A2A-Version: tasks/get of an unknown task is its TaskNotFound', async () => {
    const legacy = await rpc(
      { jsonrpc: '2.0', id: 9, method: 'tasks/get', params: { id: 'no-such-task' } },
      { version: null },
    );
    expect(legacy.json).toMatchObject({ id: 9, error: { code: -32001 } });
    const v1Name = await rpc({ jsonrpc: '2.0', id: 10, method: 'GetTask', params: { id: 'x' } }, { version: null });
    expect(v1Name.json.error.code).toBe(-32601);
  });

  it('refuses a task id longer than a run id as InvalidParams, with no stack', async () => {
    const odd = await rpc({ jsonrpc: '2.0', id: 11, method: 'GetTask', params: { id: 'y'.repeat(1_001) } });
    expect(odd.json.error.code).toBe(-32602);
    expect(JSON.stringify(odd.json)).not.toMatch(/at .*\.ts:\d+/);
  });
});

describe('A2A nesting', () => {
  it('refuses a data part nested past the bound as InvalidParams (not an internal error), v1.0 and v0.3', async () => {
    // Built as text: the test's own JSON.stringify would overflow its stack on it.
    const deep = `${'{"d":'.repeat(20_000)}"bottom"${'}'.repeat(20_000)}`;
    const body = (id: number, method: string, part: string) =>
      `{"jsonrpc":"2.0","id":${id},"method":"${method}","params":{"message":${part}}}`;
    const sent = await rpc(
      body(21, 'SendMessage', `{"messageId":"m-deep","role":"ROLE_USER","parts":[{"data":${deep}}]}`),
    );
    expect(sent.status).toBe(200);
    expect(sent.json.error).toMatchObject({ code: -32602, message: expect.stringContaining('nested') });
    const legacy = await rpc(
      body(
        22,
        'message/send',
        `{"messageId":"m-deep3","role":"user","kind":"message","parts":[{"kind":"data","data":${deep}}]}`,
      ),
      { version: null },
    );
    expect(legacy.status).toBe(200);
    expect(legacy.json.error).toMatchObject({ code: -32602 });
  });
});
