import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import type { AgentClient } from '../../src/client/agent-client';
import type { defineTool } from '../../src/tools/define-tool';
import type { createAgentWorker } from '../../src/worker';
import { PROJECT_ROOT } from './cli-process';

/** A commit of main whose runs a deploy of today's code may inherit, and why it is one. */
export interface EarlierRelease {
  commit: string;
  name: string;
  /** Patches it lacked that its runs must take once today's worker goes on with them (a handover, a model call). */
  takenAfter: string[];
}

export const EARLIER_RELEASES: readonly EarlierRelease[] = [
  // The last commit before issue 18 changed workflow code (chain segments, model calls by reference, flat awaits, …).
  { commit: '426086c3902e67b97634629806973b43059d7b9f', name: 'the release before issue 18', takenAfter: ['model-call-by-reference', 'chain-segments'] },
  // The last commit before a handover's first model call named the carried conversation.
  { commit: '2fcf766b44dfee540f056ced60cf1b59b5f89f3d', name: 'the release before carried conversations went by reference', takenAfter: ['carried-conversation-by-reference'] },
];


/**
 * That commit's `src/`, read from git into `.thoughtline/releases/<commit>/` (once; inside the
 * project so its imports resolve to today's node_modules, which it shares: the same SDK). A clone
 * without the commit fails here with what to do, never skips.
 */
export function earlierReleaseSource(commit: string): string {
  const root = path.join(PROJECT_ROOT, '.thoughtline', 'releases', commit);
  if (fs.existsSync(path.join(root, 'src'))) return root;
  const partial = `${root}.partial-${process.pid}`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.mkdirSync(partial, { recursive: true });
  let archive: Buffer;
  try {
    archive = execFileSync('git', ['archive', '--format=tar', commit, 'src'], { cwd: PROJECT_ROOT, maxBuffer: 64 * 1024 * 1024 });
  } catch (err) {
    throw new Error(`This test runs workflow code of commit ${commit} from git history and could not read it (${(err as Error).message.split('\n')[0]}). Run it in a full git clone (not --depth 1).`);
  }
  execFileSync('tar', ['-x', '-C', partial], { input: archive });
  try {
    fs.renameSync(partial, root);
  } catch (err) {
    // Another process put it there first: theirs is the same commit's tree.
    fs.rmSync(partial, { recursive: true, force: true });
    if (!fs.existsSync(path.join(root, 'src'))) throw err;
  }
  return root;
}

/** The `patched()` ids a tree's workflow code uses (every `…_PATCH = '<id>'` under src/workflows). */
export function patchIdsOf(root: string): Set<string> {
  const ids = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith('.ts')) for (const m of fs.readFileSync(file, 'utf8').matchAll(/_PATCH = '([^']+)'/g)) ids.add(m[1]!);
    }
  };
  walk(path.join(root, 'src', 'workflows'));
  return ids;
}

/** That commit's workflow bundle, built the way its worker built it (no bundler options then), cached beside its source. */
export async function earlierReleaseBundle(commit: string): Promise<string> {
  const root = earlierReleaseSource(commit);
  const codePath = path.join(root, 'workflow-bundle.js');
  if (fs.existsSync(codePath)) return codePath;
  const quiet = { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} };
  const { code } = await bundleWorkflowCode({ workflowsPath: path.join(root, 'src', 'workflows'), logger: quiet });
  const partial = `${codePath}.partial-${process.pid}`;
  fs.writeFileSync(partial, code);
  fs.renameSync(partial, codePath);
  return codePath;
}

/** A release's worker, tools and client (its own createAgentWorker, defineTool and AgentClient, from its tree) and its bundle. */
export interface LoadedRelease {
  createAgentWorker: typeof createAgentWorker;
  defineTool: typeof defineTool;
  AgentClient: typeof AgentClient;
  bundlePath: string;
  /** The patches today's code has and the release had not. */
  newerPatches: string[];
}

/** Loads a release's code (vitest compiles its TypeScript like ours) and builds its bundle. */
export async function loadRelease({ commit }: EarlierRelease): Promise<LoadedRelease> {
  const root = earlierReleaseSource(commit);
  const src = (file: string) => path.join(root, 'src', file);
  const had = patchIdsOf(root);
  return {
    createAgentWorker: ((await import(src('worker.ts'))) as { createAgentWorker: typeof createAgentWorker }).createAgentWorker,
    defineTool: ((await import(src('tools/define-tool.ts'))) as { defineTool: typeof defineTool }).defineTool,
    AgentClient: ((await import(src('client/agent-client.ts'))) as { AgentClient: typeof AgentClient }).AgentClient,
    bundlePath: await earlierReleaseBundle(commit),
    newerPatches: [...patchIdsOf(PROJECT_ROOT)].filter((id) => !had.has(id)),
  };
}
