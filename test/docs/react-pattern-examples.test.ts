/**
 * docs/react-pattern.md's examples (seed 001 §5), run as written: its TypeScript blocks are
 * written to files and imported, with the package's names resolved to the sources (as the docs
 * compile check does). A real Temporal server, the real file tools on a real directory, and a
 * fake of the Anthropic API over HTTP for the model.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { createAnthropicProvider } from '../../src/activities/models/anthropic/anthropic-provider';
import { AgentClient } from '../../src/client/agent-client';
import type { AgentResult } from '../../src/domain';
import { message, startFakeMessagesServer, text, textBlock, toolUseBlock } from '../../src/testing';
import { createFileTools } from '../../src/tools';
import { createHarness, useTestEnv } from '../helpers/temporal-env';
import { fencedBlocks } from './markdown-blocks';
import { ROOT } from './doc-snippets';

const env = useTestEnv();
const PAGE = fs.readFileSync(path.join(ROOT, 'docs/react-pattern.md'), 'utf8');
const DIR = path.join(ROOT, `.thoughtline/tmp/react-pattern-${process.pid}`);
afterAll(() => fs.rmSync(DIR, { recursive: true, force: true }));

/** The package's entry points → their sources, from package.json's `exports`. */
function entrySources(): Array<[string, string]> {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { default: string }>;
  };
  return Object.entries(pkg.exports).flatMap(([entry, target]) => {
    const built = typeof target === 'string' ? target : target.default;
    if (!built.endsWith('.js')) return [];
    const source = path.join(ROOT, built.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'));
    return [[path.posix.join('thoughtline', entry), source] as [string, string]];
  });
}

/** The page's block that names `file`, written out; or, for an excerpt, `code` wrapped as `main(agents)`. */
function writeBlock(file: string, code?: string): string {
  const text =
    code ??
    fencedBlocks(PAGE).find((b) => b.lang === 'ts' && b.code.startsWith(`// ${file}\n`))?.code ??
    expect.fail(`docs/react-pattern.md has no block named ${file}`);
  let resolved = text;
  for (const [name, source] of entrySources()) resolved = resolved.split(`'${name}'`).join(`'${source}'`);
  fs.mkdirSync(DIR, { recursive: true });
  const out = path.join(DIR, file);
  fs.writeFileSync(out, resolved);
  return out;
}

/** A small codebase for the agent to read. */
function codebase(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'react-pattern-'));
  fs.mkdirSync(path.join(root, 'src'));
  fs.writeFileSync(
    path.join(root, 'src/auth.ts'),
    'export function login(user: string, password: string) {\n  return checkPassword(user, password);\n}\n' +
      'function checkPassword(user: string, password: string) {\n  return password.length > 0;\n}\n',
  );
  fs.writeFileSync(
    path.join(root, 'src/config.ts'),
    '// FOUND: sessionTimeout\nexport const sessionTimeout = 30 * 60;\n',
  );
  return root;
}

/** The SDK reads the key and address from the environment, as a user's worker does. */
function anthropicEnvironment(baseUrl: string): () => void {
  const saved = { url: process.env.ANTHROPIC_BASE_URL, key: process.env.ANTHROPIC_API_KEY };
  process.env.ANTHROPIC_BASE_URL = baseUrl;
  process.env.ANTHROPIC_API_KEY = 'sk-ant-test-react-pattern';
  return () => {
    for (const [name, value] of [
      ['ANTHROPIC_BASE_URL', saved.url],
      ['ANTHROPIC_API_KEY', saved.key],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}

describe('docs/react-pattern.md, as written', () => {
  it('a basic ReAct agent: file tools, the seed’s settings, and its trace printed', async () => {
    const root = codebase();
    const fake = await startFakeMessagesServer({
      script: [
        message([
          textBlock('Authentication code is likely named after login; search for it.'),
          toolUseBlock('files_search', { query: 'login' }),
        ]),
        message([
          textBlock('src/auth.ts has login; read it for the helpers it calls.'),
          toolUseBlock('files_read', { path: 'src/auth.ts' }),
        ]),
        message([
          textBlock('Both functions are in view.'),
          toolUseBlock('finish', { result: 'login and checkPassword in src/auth.ts' }),
        ]),
      ],
    });
    const restore = anthropicEnvironment(fake.baseUrl);
    const printed = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const { codeAnalysisWorker } = (await import(
        writeBlock('code-analysis-worker.ts')
      )) as typeof import('./react-pattern-types');
      const { findAuthenticationCode } = (await import(
        writeBlock('code-analysis.ts')
      )) as typeof import('./react-pattern-types');
      const taskQueue = `react-pattern-${process.pid}-${Date.now()}`;
      const worker = await codeAnalysisWorker(root, {
        connection: env.nativeConnection,
        namespace: inject('temporalNamespace'),
        taskQueue,
        workflowBundle: { codePath: inject('workflowBundlePath') },
      });
      const result = await worker.runUntil(findAuthenticationCode(new AgentClient({ client: env.client, taskQueue })));
      fake.verify();

      expect(result).toMatchObject({
        terminationReason: 'success',
        finalAnswer: 'login and checkPassword in src/auth.ts',
      });
      const first = fake.requests[0]!.body!;
      expect(JSON.stringify(first.system)).toContain('You are a code analysis assistant.');
      expect(first.tools?.map((t) => t.name)).toEqual([
        'files_read',
        'files_list',
        'files_search',
        'finish',
        'give_up',
      ]);
      const lines = printed.mock.calls.map((c) => String(c[0]));
      expect(lines).toContain('Thought: Authentication code is likely named after login; search for it.');
      expect(lines).toContain('Action: files_search {"query":"login","path":".","ignoreCase":false}');
      expect(lines.find((l) => l.startsWith('Observation: ') && l.includes('src/auth.ts'))).toBeDefined();
      expect(lines).toContain('Action: Final Answer');
      expect(lines.filter((l) => l === '---')).toHaveLength(3);
    } finally {
      printed.mockRestore();
      restore();
      await fake.close();
    }
  });

  it('ReAct with custom termination: the run stops with reason custom once an observation says FOUND:', async () => {
    const root = codebase();
    const fake = await startFakeMessagesServer({
      script: [
        message([
          textBlock('The timeout is probably a named constant; search for it.'),
          toolUseBlock('files_search', { query: 'sessionTimeout' }),
        ]),
        text('The session timeout is set in src/config.ts (30 minutes).'),
      ],
    });
    const { code } = await bundleWorkflowCode({
      workflowsPath: writeBlock('found-it-workflow.ts'),
      logger: { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} },
    });
    const bundlePath = path.join(DIR, 'found-it-bundle.js');
    fs.writeFileSync(bundlePath, code);
    const excerpt = fencedBlocks(PAGE).find((b) => b.lang === 'ts' && b.code.includes("start('findingAgent'"));
    const main = writeBlock(
      'start-finding-agent.ts',
      `import type { AgentClient } from 'thoughtline';\nexport async function main(agents: AgentClient) {\n${excerpt?.code}\nreturn result;\n}\n`,
    );
    const h = await createHarness(env, {
      tools: createFileTools({ root }),
      models: { anthropic: createAnthropicProvider({ apiKey: 'sk-ant-test', baseURL: fake.baseUrl }) },
      workflowBundlePath: bundlePath,
    });
    const printed = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const run = (await import(main)) as { main(agents: AgentClient): Promise<AgentResult> };
      const result = await h.worker.runUntil(run.main(new AgentClient({ client: env.client, taskQueue: h.taskQueue })));
      fake.verify();
      expect(result).toMatchObject({
        terminationReason: 'custom',
        finalAnswer: 'The session timeout is set in src/config.ts (30 minutes).',
        iterations: 1,
      });
      expect(printed.mock.calls.map((c) => String(c[0]))).toContain('custom');
      // The closing summary was asked for without tools, naming the predicate.
      expect(JSON.stringify(fake.requests[1]!.body)).toContain('The stop condition foundIt holds.');
    } finally {
      printed.mockRestore();
      await fake.close();
    }
  });
});
