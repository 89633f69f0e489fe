import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ed25519 } from '@noble/curves/ed25519';
import { afterAll, beforeAll, expect } from 'vitest';
import { useTool } from '../../src/activities/models/scripted-model';
import { auditReport, importBundle, sealAll } from '../../src/audit';
import type { AgentResult, ModelRequest, ReasoningStep } from '../../src/domain';
import { base64UrlEncode } from '../../src/domain/approval/signed-decision';
import { openChainStore } from '../../src/store/open-chain-store';
import type { ChainStore } from '../../src/store/chain-store';
import { defineTool } from '../../src/tools/define-tool';
import { PROJECT_ROOT } from '../helpers/cli-process';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import type { TestEnv } from '../helpers/temporal-env';
import { routedModel, startServerHarness, type ServerHarness } from '../server/server-harness';

export const ORDER = { order: 'A-1234', status: 'shipped', carrier: 'Parcelway' };
export const ANSWER = 'Order A-1234 has shipped with Parcelway.';
const THOUGHT = 'I will look the order up.';

const lookupOrder = defineTool({
  name: 'lookup_order',
  description: 'Looks up an order by its id: its status and carrier',
  input: z.object({ order: z.string() }),
  execute: ({ order }) => ({ ...ORDER, order }),
});

/** One acme run (a thought, lookup_order, finish), exported signed and imported into a SQLite store, with a server in front. */
export interface ImportedOrderRun {
  dir: string;
  s: ServerHarness;
  store: ChainStore;
  storeFile: string;
  task: string;
  /** The id it is kept under (`import:…`); Temporal has no run by it. */
  importId: string;
  /** The exported chain's steps. */
  steps: ReasoningStep[];
  /** The step of lookup_order's result: a fork there makes the second turn again. */
  atStep: number;
  /** Scripts the next fork's one turn (finish), keeping each request it is sent in `seen`. */
  scriptFork(seen: ModelRequest[]): void;
  /** Expects `request` to be the import's conversation before its second turn, rebuilt in the native protocol. */
  expectRebuilt(request: ModelRequest): void;
  /** Expects the fork `forkId` to end, linked to the import, its first steps the import's own. */
  expectForkEnded(forkId: string): Promise<AgentResult>;
  /** A tools file for `eval --tools` with lookup_order. */
  toolsFile(): string;
}

/** Registers hooks that make an ImportedOrderRun (on the suite's dev server, a Worker of this file). */
export function useImportedOrderRun(env: TestEnv): ImportedOrderRun {
  const model = routedModel();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-import-replay-'));
  const key = `imprep${randomUUID().slice(0, 8)}`;
  const task = `${key}: look up order A-1234 and tell me its status.`;
  const seed = new Uint8Array(32).fill(11);
  const x = {
    dir,
    task,
    storeFile: path.join(dir, 'store.sqlite'),
    importId: '',
    steps: [] as ReasoningStep[],
    atStep: 0,
  } as ImportedOrderRun;
  x.scriptFork = (seen) =>
    void model.script(key, [
      {
        content: (request) => {
          seen.push(request);
          return [useTool('finish', { result: ANSWER })];
        },
      },
    ]);
  x.expectRebuilt = (request) => {
    expect(request.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(request.messages[0]!.content).toEqual([{ type: 'text', text: task }]);
    const reply = request.messages[1]!.content;
    expect(reply).toEqual([
      { type: 'text', text: THOUGHT },
      { type: 'tool_use', id: expect.any(String), name: 'lookup_order', input: { order: 'A-1234' } },
    ]);
    expect(request.messages[2]!.content).toEqual([
      {
        type: 'tool_result',
        toolUseId: (reply[1] as { id: string }).id,
        content: JSON.stringify(ORDER),
        isError: false,
      },
    ]);
  };
  x.expectForkEnded = async (forkId) => {
    expect(forkId.startsWith('import:')).toBe(false);
    const result: AgentResult = await x.s.h.agents.getHandle(forkId).result();
    expect(result.terminationReason).toBe('success');
    expect(result.finalAnswer).toBe(ANSWER);
    expect(result.chain.forkedFrom).toMatchObject({ workflowId: x.importId, atStep: x.atStep });
    const kept = x.steps.filter((st) => st.stepNumber <= result.chain.forkedFrom!.keptThroughStep);
    expect(result.chain.steps.slice(0, kept.length)).toEqual(kept);
    const note = result.chain.steps[kept.length];
    expect(note?.type === 'thinking' && note.thought).toContain(`Forked from run ${x.importId}`);
    expect(note?.type === 'thinking' && note.thought).toContain("rebuilt from the imported chain's steps");
    return result;
  };
  x.toolsFile = () => {
    const file = path.join(dir, 'tools.js');
    const require = (p: string) => `require(${JSON.stringify(path.join(PROJECT_ROOT, p))})`;
    fs.writeFileSync(
      file,
      `const { z } = ${require('node_modules/zod')};
const { defineTool } = ${require('dist/tools/define-tool')};
exports.tools = [defineTool({ name: 'lookup_order', description: 'Looks up an order by its id: its status and carrier',
  input: z.object({ order: z.string() }), execute: ({ order }) => (${JSON.stringify(ORDER)}) })];
`,
    );
    return file;
  };

  beforeAll(async () => {
    x.store = (await openChainStore({ kind: 'sqlite', file: x.storeFile }))!;
    x.s = await startServerHarness(env, {
      tools: [lookupOrder],
      model,
      server: { store: x.store, datasets: path.join(dir, 'served-datasets') },
    });
    model.script(key, [
      { content: [{ type: 'text', text: THOUGHT }, useTool('lookup_order', { order: 'A-1234' })] },
      { content: [useTool('finish', { result: ANSWER })] },
    ]);
    const handle = await x.s.h.agents.start({
      task,
      model: SCRIPTED_MODEL,
      tools: ['lookup_order'],
      caller: { id: 'dev', roles: ['developer'], tenant: 'acme' },
    });
    expect((await handle.result()).terminationReason).toBe('success');
    const report = sealAll(
      await auditReport(x.s.h.agents, handle.workflowId, 'auditor', { id: 'erin', roles: ['auditor'] }),
      { keyId: 'audit-key', seed },
    );
    const [imported] = await importBundle(JSON.stringify(report), x.store, {
      trustedKeys: [base64UrlEncode(ed25519.getPublicKey(seed))],
      importedBy: 'erin',
      from: 'report.json',
    });
    x.importId = imported!.runId;
    x.steps = report.steps;
    const lookup = x.steps.find((st) => st.type === 'tool_call' && st.toolCall.toolName === 'lookup_order');
    const correlation = lookup?.type === 'tool_call' ? lookup.toolCall.correlationId : '';
    x.atStep = x.steps.find(
      (st) => st.type === 'tool_result' && st.toolResult.correlationId === correlation,
    )!.stepNumber;
  }, 60_000);
  afterAll(async () => {
    await x.s?.close();
    await x.store?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return x;
}
