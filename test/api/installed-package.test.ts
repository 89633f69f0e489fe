/**
 * The package as a user installs it: `npm pack`, installed from the tarball with zod and tsx in a
 * new project outside the checkout, so only what package.json's dependencies bring resolves (issue
 * 62: `yaml` was a devDependency, and an install inside the checkout hid it). Reached only through
 * `exports`, its entry points load from ES modules and from CommonJS with the same names, every
 * ```ts block of the docs compiles both ways against it, `npx thoughtline --help` and an offline
 * `npx thoughtline run` work, and README's first agent (tools.ts, worker.ts, client.ts) runs
 * offline against the suite's dev server. Slow (the install): in the slow stage.
 */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { bundleWorkflowCode } from '@temporalio/worker';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createScriptedModel, say, useTool } from '../../src/activities/models/scripted-model';
import { OPTIONAL_PEERS } from '../../src/packaging/optional-peers';
import type { ToolDefinition } from '../../src/tools/define-tool';
import {
  asCommonJsExcerpt,
  describeDiagnostic,
  diagnosticsOf,
  readPages,
  ROOT,
  snippetsOf,
  type Snippet,
} from '../docs/doc-snippets';
import { cliEnv } from '../helpers/cli-process';
import { createHarness, useTestEnv } from '../helpers/temporal-env';
import {
  diskUsage,
  installedWeight,
  installFloorProject,
  installPackedPackage,
  type InstalledPackage,
} from './installed-package';

const run = promisify(execFile);
const env = useTestEnv();
let pkg: InstalledPackage;
/** Left out of a default install: the optional peers (issue 80: pg, redis, MCP, OpenTelemetry…) and devDependencies. */
const OPTIONAL_PEER_NAMES = [
  'node-llama-cpp',
  '@temporalio/testing',
  ...Object.keys(OPTIONAL_PEERS),
  'node-sql-parser',
  'vitest',
  'typescript',
];
const devDependencies = (
  JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }
).devDependencies;

let floor: ReturnType<typeof installFloorProject> | undefined;
beforeAll(() => {
  // What README's first agent installs, and the AG-UI client docs/ag-ui.md has its reader install.
  pkg = installPackedPackage(['zod@4', 'tsx', `@ag-ui/client@${devDependencies['@ag-ui/client']}`]);
}, 15 * 60_000);
afterAll(() => {
  pkg?.remove();
  floor?.remove();
});

/**
 * The entry points Node loads. `thoughtline/react` is browser code over React, a peer dependency a
 * front end installs beside it: test/react/react-hooks-browser.test.ts bundles and runs it.
 */
function entryPoints(): string[] {
  return Object.keys(pkg.packageJson.exports)
    .filter((entry) => entry !== './package.json' && entry !== './react')
    .map((entry) => path.posix.join('thoughtline', entry));
}

/** Runs an ES module in the installed project; its stdout, parsed as JSON. */
async function probe(name: string, code: string): Promise<unknown> {
  const file = path.join(pkg.dir, name);
  fs.writeFileSync(file, code);
  const { stdout } = await run(process.execPath, [file], { cwd: pkg.dir, timeout: 60_000 });
  return JSON.parse(stdout);
}

describe('the installed package', () => {
  it('gives ES modules every name CommonJS gets, on each entry point, with its types', async () => {
    const names = (await probe(
      'names.mjs',
      `import { createRequire } from 'node:module';
       const require = createRequire(import.meta.url);
       const out = {};
       for (const spec of ${JSON.stringify(entryPoints())}) {
         const esm = await import(spec);
         const cjs = Object.keys(require(spec)).filter((k) => k !== '__esModule');
         out[spec] = { cjs, notInEsm: cjs.filter((k) => !(k in esm)) };
       }
       console.log(JSON.stringify(out));`,
    )) as Record<string, { cjs: string[]; notInEsm: string[] }>;

    expect(Object.keys(names)).toEqual([
      'thoughtline',
      'thoughtline/workflow',
      'thoughtline/testing',
      'thoughtline/tools',
    ]);
    for (const { notInEsm } of Object.values(names)) expect(notInEsm).toEqual([]);
    // What the docs import from each.
    expect(names['thoughtline']!.cjs).toEqual(
      expect.arrayContaining([
        'AgentClient',
        'defineTool',
        'createAgentWorker',
        'NativeConnection',
        'createDataConverter',
        'parseEncryptionKeys',
        'UpdateRefusedError',
        'FAILURE_CONVERTER_PATH',
        'loadMcpConfig',
      ]),
    );
    expect(names['thoughtline/workflow']!.cjs).toEqual(
      expect.arrayContaining(['runAgent', 'anyOf', 'hasToolCall', 'isIterationCount']),
    );
    expect(names['thoughtline/testing']!.cjs).toEqual(
      expect.arrayContaining(['startFakeMessagesServer', 'httpError', 'text', 'toolUse', 'openai']),
    );
    expect(names['thoughtline/tools']!.cjs).toEqual(
      expect.arrayContaining([
        'createFileTools',
        'createHttpTool',
        'createSqliteQueryTool',
        'createPostgresQueryTool',
        'createLlmTool',
        'createCodeRunTool',
      ]),
    );
    for (const target of Object.values(pkg.packageJson.exports)) {
      if (typeof target === 'string') continue;
      expect(fs.existsSync(path.join(pkg.packageDir, target.types)), target.types).toBe(true);
    }
  });

  it('resolves nothing outside its exports (no deep dist/ imports), and keeps its bin', async () => {
    const deep = (await probe(
      'deep.mjs',
      `import { createRequire } from 'node:module';
       const require = createRequire(import.meta.url);
       const code = (f) => { try { f(); return 'resolved'; } catch (e) { return e.code; } };
       let esm = 'resolved';
       await import('thoughtline/dist/codec/data-converter.js').catch((e) => { esm = e.code; });
       console.log(JSON.stringify({ esm, cjs: code(() => require('thoughtline/dist/codec/data-converter')) }));`,
    )) as { esm: string; cjs: string };
    expect(deep).toEqual({ esm: 'ERR_PACKAGE_PATH_NOT_EXPORTED', cjs: 'ERR_PACKAGE_PATH_NOT_EXPORTED' });

    const bin = path.join(pkg.packageDir, pkg.packageJson.bin['thoughtline']!);
    expect(fs.readFileSync(bin, 'utf8').startsWith('#!/usr/bin/env node')).toBe(true);
    const { stdout } = await run('npx', ['thoughtline', '--help'], { cwd: pkg.dir, env: pkg.env, timeout: 60_000 });
    expect(stdout).toMatch(/Usage:[\s\S]*\n  run  /);
  });

  it('installs its runtime dependencies and leaves out the optional peers and every devDependency; the SQLite tool runs', async () => {
    const resolved = (await probe(
      'resolve.mjs',
      `import { createRequire } from 'node:module';
       const require = createRequire(new URL('./node_modules/thoughtline/package.json', import.meta.url));
       const where = (name) => { try { return require.resolve(name + '/package.json'); } catch (e) { return e.code; } };
       console.log(JSON.stringify(Object.fromEntries(${JSON.stringify(['yaml', ...OPTIONAL_PEER_NAMES, 'vitest', 'typescript'])}.map((n) => [n, where(n)]))));`,
    )) as Record<string, string>;
    expect(resolved['yaml']).toBe(path.join(pkg.dir, 'node_modules/yaml/package.json'));
    for (const absent of [...OPTIONAL_PEER_NAMES, 'vitest', 'typescript'])
      expect(resolved[absent], absent).toBe('MODULE_NOT_FOUND');
    expect(fs.existsSync(path.join(pkg.dir, 'node_modules/@node-llama-cpp'))).toBe(false);
    // The SQLite tool needs nothing installed beside it (node:sqlite; issue 80).
    const sqlite = await probe(
      'sqlite.mjs',
      `import { DatabaseSync } from 'node:sqlite';
       import { createSqliteQueryTool } from 'thoughtline/tools';
       const file = new URL('./notes.db', import.meta.url).pathname;
       const db = new DatabaseSync(file);
       db.exec('DROP TABLE IF EXISTS n; CREATE TABLE n (x); INSERT INTO n VALUES (7);');
       db.close();
       const context = { idempotencyKey: 'k', signal: new AbortController().signal, heartbeat() {}, narrowVisibility() {}, progress() {} };
       console.log(JSON.stringify(await createSqliteQueryTool({ file }).execute({ sql: 'SELECT x FROM n' }, context)));`,
    );
    expect(sqlite).toEqual({ columns: ['x'], rows: [{ x: 7 }], rowCount: 1 });
  });

  it(
    'installs near its floor: at most 1.15x the node_modules of Temporal, the Anthropic SDK and zod alone (issue 80)',
    () => {
      floor = installFloorProject();
      // What thoughtline brings itself, README's extras (zod@4, tsx, the AG-UI client) beside it left out.
      const ours = installedWeight(pkg.dir, 'thoughtline');
      const floorBytes = diskUsage(path.join(floor.dir, 'node_modules'));
      const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
      const ratio = ours / floorBytes;
      console.log(
        `installed package: ${mb(ours)} MiB of node_modules, floor ${mb(floorBytes)} MiB, ratio ${ratio.toFixed(3)}`,
      );
      expect(ratio).toBeLessThanOrEqual(1.15);
    },
    15 * 60_000,
  );

  it('refuses OpenTelemetry export, configured but not installed, naming the npm install command (an optional peer)', async () => {
    const traced = projectEnv({
      THOUGHTLINE_TASK_QUEUE: `installed-otel-${process.pid}-${Date.now()}`,
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
    });
    const refused = await run('npx', ['thoughtline', 'run', 'Say hello'], {
      cwd: pkg.dir,
      env: traced,
      timeout: 120_000,
    }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
    );
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('OpenTelemetry export (the OTEL_* variables) needs @opentelemetry/resources');
    expect(refused.stderr).toContain(
      'npm install @opentelemetry/resources@^1.30.1 @opentelemetry/sdk-metrics@^1.30.1 @opentelemetry/sdk-trace-base@^1.30.1 ' +
        '@opentelemetry/sdk-trace-node@^1.30.1 @temporalio/interceptors-opentelemetry@1.24.0 @opentelemetry/exporter-trace-otlp-proto@^0.57.2 ' +
        '@opentelemetry/exporter-metrics-otlp-proto@^0.57.2',
    );
    const redis = (await probe(
      'redis.mjs',
      `import { createEventBus } from 'thoughtline';
       try { createEventBus('redis://127.0.0.1:1'); console.log(JSON.stringify({})); }
       catch (e) { console.log(JSON.stringify({ name: e.name, installCommand: e.installCommand })); }`,
    )) as { name?: string; installCommand?: string };
    expect(redis).toEqual({ name: 'OptionalPeerMissingError', installCommand: 'npm install redis@^6.3.1' });
  }, 180_000);

  it('runs `thoughtline run` offline, and refuses --model local without node-llama-cpp, naming the command', async () => {
    const cli = projectEnv({ THOUGHTLINE_TASK_QUEUE: `installed-run-${process.pid}-${Date.now()}` });
    const done = await run('npx', ['thoughtline', 'run', 'Compare the weather in Paris and Tokyo', '--json'], {
      cwd: pkg.dir,
      env: cli,
      timeout: 180_000,
    });
    const result = JSON.parse(done.stdout) as { terminationReason: string; finalAnswer: string };
    expect(result.terminationReason, done.stderr).toBe('success');
    expect(result.finalAnswer).toMatch(/^\[offline model\][\s\S]*Paris[\s\S]*Tokyo/);

    const local = await run('npx', ['thoughtline', 'run', '--model', 'local', 'Say hello'], {
      cwd: pkg.dir,
      env: cli,
      timeout: 120_000,
    }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
    );
    expect(local.code).toBe(1);
    expect(local.stderr).toContain('the local model needs node-llama-cpp, which is not installed');
    expect(local.stderr).toContain(`npm install node-llama-cpp@${devDependencies['node-llama-cpp']}`);
    // Refused before the weights' download.
    expect(fs.existsSync(path.join(pkg.dir, '.thoughtline/models'))).toBe(false);
  }, 360_000);

  it("runs README's first agent offline as written (npx tsx worker.ts, npx tsx client.ts), against the dev server", async () => {
    const blocks = Object.fromEntries(
      snippetsOf('README.md', fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'), pkg.dir).map((s) => [
        path.basename(s.file),
        s.code,
      ]),
    );
    const queue = `first-agent-${process.pid}-${Date.now()}`;
    const place = (code: string) =>
      code
        .replace("'localhost:7233'", JSON.stringify(inject('temporalAddress')))
        .replace("'my-agent'", JSON.stringify(queue));
    const worker = place(withOfflineFallback(blocks['worker.ts']!));
    const client = place(blocks['client.ts']!);
    for (const code of [worker, client]) expect(code).not.toMatch(/'localhost:7233'|'my-agent'/);
    expect(worker).toContain('createOfflineModel()');
    fs.writeFileSync(path.join(pkg.dir, 'tools.ts'), blocks['tools.ts']!);
    fs.writeFileSync(path.join(pkg.dir, 'worker.ts'), worker);
    fs.writeFileSync(path.join(pkg.dir, 'client.ts'), client);

    const offline = projectEnv(); // no ANTHROPIC_API_KEY
    const workerProcess = spawn('npx', ['tsx', 'worker.ts'], {
      cwd: pkg.dir,
      env: offline,
      detached: true,
      stdio: 'pipe',
    });
    let workerOutput = '';
    workerProcess.stdout.on('data', (d: Buffer) => (workerOutput += d.toString()));
    workerProcess.stderr.on('data', (d: Buffer) => (workerOutput += d.toString()));
    try {
      const { stdout } = await run('npx', ['tsx', 'client.ts'], { cwd: pkg.dir, env: offline, timeout: 180_000 });
      const lines = stdout.split('\n');
      expect(lines[0], stdout).toMatch(/^Started agent-\S+$/);
      // The result's line, then its usage object (console.log prints it over several lines).
      const end = lines.findIndex((l) => l.startsWith('success '));
      // The library's offline model is the CLI's: both cities looked up with README's tool, then compared.
      expect(lines[end], `${stdout}\n${workerOutput}`).toMatch(/^success \[offline model\] .*Paris.*Tokyo/);
      const steps = lines.slice(1, end);
      for (const step of steps) expect(step, stdout).toMatch(/^\d+ [a-z_]+$/);
      // The offline model called README's tool, and its result came back.
      expect(steps.map((l) => l.split(' ')[1])).toEqual(expect.arrayContaining(['tool_call', 'tool_result']));
    } finally {
      process.kill(-workerProcess.pid!, 'SIGTERM');
    }
  }, 300_000);

  it('compiles every ts block of README.md and docs/ as ES modules and as CommonJS, and fails wrong ones (controls)', () => {
    const modes = (['esm', 'cjs'] as const).map((mode) => {
      const dir = path.join(pkg.dir, mode);
      const snippets = readPages()
        .flatMap(({ page, markdown }) => snippetsOf(page, markdown, dir))
        .map((s) => (mode === 'cjs' ? asCommonJsExcerpt(s) : s));
      return { mode, dir, snippets, controls: snippetsOf('controls.md', CONTROLS, dir) };
    });
    // One program: each file is an ES module or CommonJS by its folder's package.json, as Node decides.
    const diagnostics = compileOnDisk(
      modes.map(({ mode, dir, snippets, controls }) => ({ mode, dir, snippets: [...snippets, ...controls] })),
    );

    for (const { mode, snippets, controls } of modes) {
      expect(
        snippets.flatMap((s) => diagnostics.get(s.file)!.map((d) => describeDiagnostic(s, d))),
        mode,
      ).toEqual([]);
      const controlErrors = controls.map((s) => diagnostics.get(s.file)!.map((d) => describeDiagnostic(s, d)));
      expect(controlErrors[0], mode).toEqual([
        expect.stringMatching(/^controls\.md:3 TS2322: Type '"finished"' is not assignable/),
      ]);
      expect(controlErrors[1], mode).toEqual([
        expect.stringMatching(/^controls\.md:7 TS2307: Cannot find module 'thoughtline\/dist\/codec\/data-converter'/),
      ]);
      // A whole file that awaits at its top is an ES module only.
      expect(controlErrors[2], mode).toEqual(
        mode === 'esm'
          ? []
          : [
              expect.stringMatching(
                /^controls\.md:12 TS1309: The current file is a CommonJS module and cannot use 'await' at the top level/,
              ),
            ],
      );
    }
  }, 180_000);

  it("bundles the docs' workflow files through thoughtline/workflow with Temporal's bundler (sandbox-safe)", async () => {
    const workflows = readPages()
      .flatMap(({ page, markdown }) => snippetsOf(page, markdown, path.join(pkg.dir, 'workflows')))
      .filter((s) => s.code.includes("from 'thoughtline/workflow'"));
    expect(workflows.map((s) => s.page)).toContain('docs/concepts.md');
    for (const s of workflows) {
      fs.mkdirSync(path.dirname(s.file), { recursive: true });
      fs.writeFileSync(s.file, s.code);
      const { code } = await bundleWorkflowCode({ workflowsPath: s.file, logger: quietLogger });
      expect(code, `${s.page}:${s.line}`).toContain('runAgent');
    }
  }, 180_000);

  it("runs README's client.ts against the dev server, with README's tool, as an ES module and as CommonJS", async () => {
    expect(inject('temporalNamespace')).toBe('default'); // the snippet connects to the default namespace
    const blocks = Object.fromEntries(
      snippetsOf('README.md', fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'), pkg.dir).map((s) => [
        path.basename(s.file),
        s.code,
      ]),
    );
    const dir = path.join(pkg.dir, 'readme-run');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'tools.cjs'), transpile(blocks['tools.ts']!, ts.ModuleKind.CommonJS));
    const { getWeather } = createRequire(path.join(dir, 'tools.cjs'))('./tools.cjs') as { getWeather: ToolDefinition };
    const weatherTurns = [
      {
        content: [
          say('Both cities are asked about; look both up at once.'),
          useTool('get_weather', { location: 'Paris' }),
          useTool('get_weather', { location: 'Tokyo' }),
        ],
      },
      { content: [say('Paris and Tokyo: both 18 °C and sunny.')] },
    ];
    const model = createScriptedModel([...weatherTurns, ...weatherTurns]);
    const h = await createHarness(env, { tools: [getWeather], models: { anthropic: model } });
    const client = blocks['client.ts']!.replace("'localhost:7233'", JSON.stringify(inject('temporalAddress'))).replace(
      "'my-agent'",
      JSON.stringify(h.taskQueue),
    );
    expect(client).not.toMatch(/'localhost:7233'|'my-agent'/);

    await h.worker.runUntil(async () => {
      for (const [file, kind] of [
        ['client.mjs', ts.ModuleKind.ES2022],
        ['client.cjs', ts.ModuleKind.CommonJS],
      ] as const) {
        fs.writeFileSync(path.join(dir, file), transpile(client, kind));
        const { stdout } = await run(process.execPath, [file], { cwd: dir, timeout: 60_000 });
        const lines = stdout.split('\n');
        const workflowId = /^Started (agent-\S+)$/.exec(lines[0]!)?.[1];
        expect(workflowId, stdout).toBeDefined();
        const end = lines.findIndex((l) => l.startsWith('success '));
        expect(lines[end], stdout).toMatch(/^success Paris and Tokyo: both 18 °C and sunny\. \{/);
        const chain = await h.agents.chain(workflowId!);
        // The steps the client printed as they landed: every step of the chain, in order.
        expect(lines.slice(1, end), file).toEqual(chain.steps.map((s) => `${s.stepNumber} ${s.type}`));
        const weatherCalls = chain.steps.flatMap((s) =>
          s.type === 'tool_call' && s.toolCall.toolName === 'get_weather' ? [s.toolCall.correlationId] : [],
        );
        const results = chain.steps.flatMap((s) =>
          s.type === 'tool_result' && weatherCalls.includes(s.toolResult.correlationId) ? [s.toolResult.result] : [],
        );
        // The two calls run in parallel: their results land in whichever order they finish.
        const byLocation = [...results].sort((a, b) =>
          String((a as { location?: string }).location).localeCompare(String((b as { location?: string }).location)),
        );
        expect(byLocation, file).toEqual([
          expect.objectContaining({ location: 'Paris', units: 'celsius', temperature: 18, conditions: 'sunny' }),
          expect.objectContaining({ location: 'Tokyo', units: 'celsius', temperature: 18, conditions: 'sunny' }),
        ]);
      }
    });
    model.verify();
  }, 180_000);
});

/**
 * The installed project's environment (npm's, see installPackedPackage) pointed at the suite's dev
 * server, without the developer's API key or Temporal settings (cliEnv).
 */
function projectEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = cliEnv(extra);
  for (const name of Object.keys(env)) if (/^npm_(config|package)_/i.test(name) && !(name in pkg.env)) delete env[name];
  return { ...env, PATH: pkg.env.PATH };
}

/**
 * README's worker.ts with the offline model when no key is set. When README's own worker already
 * falls back to createOfflineModel, it runs as written.
 */
function withOfflineFallback(code: string): string {
  if (code.includes('createOfflineModel')) return code;
  const fallback = code
    .replace(
      "import { createAgentWorker, createAnthropicProvider, NativeConnection } from 'thoughtline';",
      "import { createAgentWorker, createAnthropicProvider, createOfflineModel, NativeConnection } from 'thoughtline';",
    )
    .replace(
      'models: { anthropic: createAnthropicProvider({ apiKey: process.env.ANTHROPIC_API_KEY }) },',
      'models: { anthropic: process.env.ANTHROPIC_API_KEY ? createAnthropicProvider({ apiKey: process.env.ANTHROPIC_API_KEY }) : createOfflineModel() },',
    );
  expect(fallback).not.toBe(code);
  return fallback;
}

const quietLogger = { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} };

/** One wrong type (line 3), one deep import (line 7), one whole file awaiting at its top (line 12). */
const CONTROLS = [
  '<!-- snippet-declare: declare const result: import("thoughtline").AgentResult; -->',
  '```ts',
  "const reason: typeof result.terminationReason = 'finished';",
  '```',
  '',
  '```ts',
  "import { createDataConverter } from 'thoughtline/dist/codec/data-converter';",
  '```',
  '',
  '```ts',
  '// control-file.ts',
  'await Promise.resolve();',
  '```',
].join('\n');

/** Compiles snippets as files on disk, each folder's package.json making its files ES modules or CommonJS. */
function compileOnDisk(
  folders: ReadonlyArray<{ mode: 'esm' | 'cjs'; dir: string; snippets: readonly Snippet[] }>,
): Map<string, readonly ts.Diagnostic[]> {
  for (const { mode, dir, snippets } of folders) {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: mode === 'esm' ? 'module' : 'commonjs' }));
    for (const s of snippets) {
      fs.mkdirSync(path.dirname(s.file), { recursive: true });
      fs.writeFileSync(s.file, s.text);
    }
  }
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2022.d.ts'],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    esModuleInterop: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
    typeRoots: [path.join(ROOT, 'node_modules/@types')],
  };
  const snippets = folders.flatMap((f) => f.snippets);
  return diagnosticsOf(
    ts.createProgram(
      snippets.map((s) => s.file),
      options,
    ),
    snippets,
  );
}

function transpile(code: string, module: ts.ModuleKind): string {
  return ts.transpileModule(code, {
    compilerOptions: { module, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
  }).outputText;
}
