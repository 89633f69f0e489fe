import { describe, expect, it } from 'vitest';
import { InvalidMcpConfigError, parseMcpConfig } from '../../src/activities/mcp/load-mcp-config';
import { contentProblem, decideElicitation, elicitationKey } from '../../src/activities/mcp/mcp-elicitation';
import { mcpObservation } from '../../src/activities/mcp/mcp-result';
import { MAX_MCP_SCHEMA_CHARS, McpSchemaError, mcpToolSpec } from '../../src/activities/mcp/mcp-tool-spec';
import { MAX_ELICITATION_MESSAGE_CHARS, MAX_ELICITATION_SCHEMA_CHARS } from '../../src/domain';
import { mcpSecrets, splitMcpName } from '../../src/domain/tools/mcp-config';

const stdio = { command: 'node', args: [], env: {} };
const tool = (extra: Record<string, unknown> = {}) => ({
  name: 'search',
  inputSchema: { type: 'object' as const, properties: { q: { type: 'string' } } },
  ...extra,
});

describe('MCP config', () => {
  it('takes the desktop-client format and names every problem with its path', () => {
    const config = parseMcpConfig({
      mcpServers: {
        fs: { command: 'npx', args: ['-y', 'x'], env: { TOKEN: 'secret-token-1' } },
        web: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer abcdefgh' } },
      },
    });
    expect(Object.keys(config.mcpServers)).toEqual(['fs', 'web']);
    expect(mcpSecrets(config).sort()).toEqual(['Bearer abcdefgh', 'secret-token-1']);
    expect(() => parseMcpConfig({ mcpServers: { a__b: stdio } })).toThrow(InvalidMcpConfigError);
    expect(() => parseMcpConfig({ mcpServers: { web: { url: 'https://x', headres: {} } } })).toThrow(/mcpServers\.web/);
    expect(() => parseMcpConfig({ mcpServers: { web: { url: 'file:///etc/passwd' } } })).toThrow(InvalidMcpConfigError);
    expect(() =>
      parseMcpConfig({ mcpServers: { fs: { ...stdio, thoughtline: { tools: { x: { approval: 'sometimes' } } } } } }),
    ).toThrow(InvalidMcpConfigError);
  });

  it('splits a tool name at the first separator', () => {
    expect(splitMcpName('fs__read__file')).toEqual({ server: 'fs', tool: 'read__file' });
    expect(splitMcpName('lookup')).toBeUndefined();
    expect(splitMcpName('__x')).toBeUndefined();
  });
});

describe('mcpToolSpec', () => {
  it('reads no annotations as MCP defines them: destructive, so approval always', () => {
    expect(mcpToolSpec('s', stdio, tool())).toMatchObject({
      name: 's__search',
      readOnly: false,
      approval: 'always',
      type: 'external',
      timeoutMs: 60_000,
    });
    expect(mcpToolSpec('s', stdio, tool({ annotations: { destructiveHint: false } })).approval).toBeUndefined();
    expect(mcpToolSpec('s', stdio, tool({ annotations: { readOnlyHint: true, destructiveHint: true } }))).toMatchObject(
      { readOnly: true },
    );
  });

  it('lets the worker policy win, `*` first and the tool’s own entry over it', () => {
    const settings = {
      ...stdio,
      timeoutMs: 5_000,
      thoughtline: {
        type: 'database' as const,
        tools: {
          '*': { approval: 'never' as const, visibility: 'summary' as const },
          search: { requiredRoles: ['analyst'], maxResultChars: 900 },
        },
      },
    };
    expect(mcpToolSpec('db', settings, tool({ annotations: { readOnlyHint: false } }))).toMatchObject({
      type: 'database',
      visibility: 'summary',
      requiredRoles: ['analyst'],
      maxResultChars: 900,
      timeoutMs: 5_000,
    });
    expect(mcpToolSpec('db', settings, tool()).approval).toBeUndefined();
  });

  it('refuses a schema no run can record or read', () => {
    const big = {
      type: 'object' as const,
      properties: { q: { type: 'string', description: 'x'.repeat(MAX_MCP_SCHEMA_CHARS) } },
    };
    expect(() => mcpToolSpec('s', stdio, tool({ inputSchema: big }))).toThrow(McpSchemaError);
    expect(() =>
      mcpToolSpec('s', stdio, tool({ inputSchema: { type: 'object', properties: { q: { type: 'no-such-type' } } } })),
    ).toThrow(/cannot be read/);
  });
});

describe('mcpObservation', () => {
  it('keeps text as text and references for what is not text', () => {
    expect(
      mcpObservation(
        {
          content: [
            { type: 'text', text: 'a' },
            { type: 'text', text: 'b' },
          ],
        },
        100,
      ),
    ).toBe('a\nb');
    expect(
      mcpObservation(
        {
          content: [
            { type: 'resource', resource: { uri: 'file:///x.bin', blob: 'AAAA' } },
            { type: 'resource_link', uri: 'file:///y', name: 'y' },
          ],
        },
        100,
      ),
    ).toEqual({
      content: [
        { type: 'resource', uri: 'file:///x.bin', bytes: 3 },
        { type: 'resource_link', uri: 'file:///y', name: 'y' },
      ],
    });
  });

  it('keeps sizes, not base64, of blobs and media echoed in structured content', () => {
    const structuredContent = {
      content: [
        { type: 'resource', resource: { uri: 'file:///n', blob: 'AAAAAAAA' } },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      ],
      note: { blob: 7 },
    };
    expect(mcpObservation({ content: [], structuredContent }, 100)).toEqual({
      structuredContent: {
        content: [
          { type: 'resource', resource: { uri: 'file:///n', blobBytes: 6 } },
          { type: 'image', dataBytes: 3, mimeType: 'image/png' },
        ],
        note: { blob: 7 },
      },
    });
  });

  it('cuts each text just past the limit, so the activity marks it truncated', () => {
    expect(mcpObservation({ content: [{ type: 'text', text: 'x'.repeat(1_000) }] }, 10)).toBe('x'.repeat(11));
  });

  it('makes an error result a final tool error', () => {
    expect(() => mcpObservation({ isError: true, content: [{ type: 'text', text: 'no such row' }] }, 100)).toThrow(
      'no such row',
    );
    expect(() => mcpObservation({ isError: true, content: [] }, 100)).toThrow(/without a message/);
  });
});

describe('elicitation in the activity', () => {
  const form = {
    type: 'object',
    properties: { name: { type: 'string' }, age: { type: 'integer' }, pet: { type: 'string', enum: ['cat', 'dog'] } },
    required: ['name'],
  };

  it('keys a question by server, message and schema', () => {
    expect(elicitationKey('a', 'm', form)).toBe(elicitationKey('a', 'm', form));
    expect(elicitationKey('a', 'm', form)).not.toBe(elicitationKey('b', 'm', form));
  });

  it('asks when nobody has answered, answers with the answer for its key, refuses URL mode and huge forms', () => {
    const params = { message: 'Who?', requestedSchema: form } as never;
    const asked = decideElicitation('s', 's__t', params, []);
    expect(asked).toMatchObject({ kind: 'ask', request: { server: 's', tool: 's__t', message: 'Who?' } });
    const key = asked.kind === 'ask' ? asked.request.key : '';
    expect(
      decideElicitation('s', 's__t', params, [
        { key, action: 'accept', content: { name: 'Ana', pet: 'cat' }, by: 'p' },
      ]),
    ).toEqual({ kind: 'answer', result: { action: 'accept', content: { name: 'Ana', pet: 'cat' } } });
    expect(decideElicitation('s', 's__t', params, [{ key: 'other', action: 'decline', by: 'p' }]).kind).toBe('ask');
    expect(
      decideElicitation('s', 's__t', { mode: 'url', message: 'Go', url: 'https://x', elicitationId: '1' } as never, [])
        .kind,
    ).toBe('refuse');
    const huge = {
      type: 'object',
      properties: { a: { type: 'string', description: 'x'.repeat(MAX_ELICITATION_SCHEMA_CHARS) } },
    };
    expect(decideElicitation('s', 's__t', { message: 'x', requestedSchema: huge } as never, []).kind).toBe('refuse');
    const long = decideElicitation(
      's',
      's__t',
      { message: 'y'.repeat(MAX_ELICITATION_MESSAGE_CHARS + 50), requestedSchema: form } as never,
      [],
    );
    expect(long.kind === 'ask' && long.request.message.length).toBe(MAX_ELICITATION_MESSAGE_CHARS);
  });

  it('checks fields against the form: required, types, choices, no unknown fields', () => {
    expect(contentProblem(form, { name: 'Ana', age: 3 })).toBeUndefined();
    expect(contentProblem(form, { age: 3 })).toBe('missing name');
    expect(contentProblem(form, { name: 'Ana', age: 3.5 })).toBe('"age" must be a whole number');
    expect(contentProblem(form, { name: 'Ana', pet: 'fish' })).toBe('"pet" must be one of cat, dog');
    expect(contentProblem(form, { name: 'Ana', shoe: 'x' })).toBe('"shoe" is not a field of this form');
    expect(contentProblem(form, { name: 7 })).toBe('"name" must be text');
  });
});
