import { MockActivityEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMcpConfig } from '../../src/activities/mcp/load-mcp-config';
import { createMcpTools, type McpTools } from '../../src/activities/mcp/mcp-tools';
import { createRedactor } from '../../src/tools/redact-secrets';
import { createToolActivities } from '../../src/activities/tool-activities';
import type { ToolInvocation, ToolOutput } from '../../src/domain';
import { z } from 'zod';
import { defineTool } from '../../src/tools/define-tool';
import { ToolError } from '../../src/tools/tool-error';
import { createToolRegistry } from '../../src/tools/tool-registry';
import { sampleFolder, startEverythingHttp, stdioConfig, type HttpServer } from './mcp-test-servers';

const invocation = (
  toolName: string,
  args: Record<string, unknown> = {},
  extra: Partial<ToolInvocation> = {},
): ToolInvocation => ({
  toolName,
  arguments: args,
  idempotencyKey: 'wf:1',
  maxResultChars: 4_000,
  ...extra,
});
const context = () => ({ signal: new AbortController().signal, heartbeat: () => undefined });

describe('MCP servers as tools, against the reference servers from npm', () => {
  const dir = sampleFolder();
  let http: HttpServer;
  let mcp: McpTools;

  beforeAll(async () => {
    http = await startEverythingHttp();
    const config = stdioConfig(dir, {
      // The worker's policy over what the server says: echo claims to be read-only; this worker says it needs approval.
      everything: { thoughtline: { tools: { echo: { readOnly: false, approval: 'always' } } } },
    });
    config.mcpServers['web'] = { url: http.url, thoughtline: { allowTools: ['echo', 'get-sum'] } };
    mcp = createMcpTools(parseMcpConfig(config));
  }, 30_000);
  afterAll(async () => {
    await mcp?.close();
    await http?.stop();
  });

  it('lists every tool as <server>__<tool>, with defaults from the annotations and the worker policy over them', async () => {
    const specs = await mcp.allSpecs();
    const byName = new Map(specs.map((s) => [s.name, s]));
    expect(byName.get('fs__read_text_file')).toMatchObject({ type: 'external', readOnly: true });
    expect(byName.get('fs__read_text_file')?.approval).toBeUndefined();
    expect(byName.get('fs__write_file')).toMatchObject({ readOnly: false, approval: 'always' });
    expect(byName.get('everything__get-sum')?.inputSchema).toMatchObject({
      type: 'object',
      properties: { a: expect.any(Object), b: expect.any(Object) },
    });
    // The server marks echo read-only; the worker's policy wins.
    expect(byName.get('everything__echo')).toMatchObject({ readOnly: false, approval: 'always' });
    // Streamable HTTP, filtered by the server's allow-list.
    expect(
      specs
        .filter((s) => s.name.startsWith('web__'))
        .map((s) => s.name)
        .sort(),
    ).toEqual(['web__echo', 'web__get-sum']);
  });

  it('resolves a run’s names in order, a whole server as server__*, and refuses a tool the server does not offer', async () => {
    const [one, all] = await mcp.resolve(['everything__get-sum', 'web__*']);
    expect(one!.map((s) => s.name)).toEqual(['everything__get-sum']);
    expect(all!.map((s) => s.name).sort()).toEqual(['web__echo', 'web__get-sum']);
    await expect(mcp.resolve(['web__get-env'])).rejects.toThrow(/offers no tool "get-env".*web__echo/);
  });

  it('refuses a run whose tools would name one tool twice (a worker tool shadowing an MCP tool)', async () => {
    const shadow = defineTool({
      name: 'web__echo',
      description: 'Not the server’s echo',
      input: z.object({}),
      execute: () => 'mine',
    });
    const activities = createToolActivities({ tools: createToolRegistry([shadow]), redact: createRedactor([]), mcp });
    const listing = new MockActivityEnvironment().run(activities.describeTools, ['web__echo', 'web__*']);
    await expect(listing).rejects.toMatchObject({
      nonRetryable: true,
      message: expect.stringContaining('The tool "web__echo" is named twice'),
    });
  });

  it('calls tools over stdio and HTTP: text, structured content, and images as references', async () => {
    expect(await mcp.call(invocation('fs__read_text_file', { path: `${dir}/notes.txt` }), context())).toEqual({
      result: { text: 'The launch is on Tuesday.\n', structuredContent: { content: 'The launch is on Tuesday.\n' } },
    });
    expect(await mcp.call(invocation('web__get-sum', { a: 2, b: 3 }), context())).toEqual({
      result: 'The sum of 2 and 3 is 5.',
    });
    const image = await mcp.call(invocation('everything__get-tiny-image'), context());
    expect(image).toEqual({
      result: {
        text: expect.any(String),
        content: [{ type: 'image', mimeType: 'image/png', bytes: expect.any(Number) }],
      },
    });
    expect(JSON.stringify(image)).not.toMatch(/iVBORw0KGgo/);
  });

  it('turns an error result into a final tool error the model reads', async () => {
    const call = mcp.call(invocation('fs__read_text_file', { path: '/etc/passwd' }), context());
    await expect(call).rejects.toThrow(ToolError);
    await expect(call).rejects.toMatchObject({
      retryable: false,
      message: expect.stringMatching(/outside allowed directories/i),
    });
  });

  it('refuses a tool outside the server allow-list even when called by name', async () => {
    await expect(mcp.call(invocation('web__get-env'), context())).rejects.toMatchObject({
      retryable: false,
      message: expect.stringContaining('not allowed'),
    });
  });

  it('cuts a 5 MB result before it leaves the activity', async () => {
    const activities = createToolActivities({ tools: createToolRegistry([]), redact: createRedactor([]), mcp });
    const huge = 'x'.repeat(5 * 1024 * 1024);
    const out: ToolOutput = await new MockActivityEnvironment().run(
      activities.runTool,
      invocation('everything__echo', { message: huge }, { maxResultChars: 10_000 }),
    );
    expect(out.truncated).toBe(true);
    expect(JSON.stringify(out.result).length).toBeLessThan(12_000);
  }, 30_000);

  it('asks for input instead of answering for the user, then answers with what a person said', async () => {
    const first = await mcp.call(invocation('everything__trigger-elicitation-request'), context());
    expect(first).toEqual({
      needsInput: expect.objectContaining({
        server: 'everything',
        tool: 'everything__trigger-elicitation-request',
        key: expect.stringMatching(/^[0-9a-f]{64}$/),
      }),
    });
    if (!('needsInput' in first)) throw new Error('expected a question');
    const { key } = first.needsInput;
    // Fields that do not fit the form: asked again, with the reason.
    const misfit = await mcp.call(
      invocation(
        'everything__trigger-elicitation-request',
        {},
        { elicitation: [{ key, action: 'accept', content: { check: true }, by: 'ana' }] },
      ),
      context(),
    );
    expect(misfit).toEqual({ needsInput: expect.objectContaining({ key, problem: 'missing name' }) });
    const answered = await mcp.call(
      invocation(
        'everything__trigger-elicitation-request',
        {},
        { elicitation: [{ key, action: 'accept', content: { name: 'Ana Lima', check: true }, by: 'ana' }] },
      ),
      context(),
    );
    expect(JSON.stringify(answered)).toContain('Ana Lima');
    const declined = await mcp.call(
      invocation(
        'everything__trigger-elicitation-request',
        {},
        { elicitation: [{ key, action: 'decline', by: 'ana' }] },
      ),
      context(),
    );
    expect(JSON.stringify(declined)).toMatch(/decline/i);
  }, 30_000);

  it('returns the question from runTool as needsInput, with the run’s redaction applied', async () => {
    const activities = createToolActivities({
      tools: createToolRegistry([]),
      redact: createRedactor(['Please provide']),
      mcp,
    });
    const out: ToolOutput = await new MockActivityEnvironment().run(
      activities.runTool,
      invocation('everything__trigger-elicitation-request'),
    );
    expect(out.result).toBeNull();
    expect(out.needsInput?.message).not.toContain('Please provide');
    expect(out.needsInput?.server).toBe('everything');
  });
});
