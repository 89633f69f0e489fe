import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { say, useTool } from '../../src/activities/models/scripted-model';
import { ActionCounter, readRunFromTemporal } from '../../src/server/chain-store/read-run-from-temporal';
import { writeTemporalRun } from '../../src/server/chain-store/write-temporal-run';
import { openChainStore } from '../../src/store/open-chain-store';
import { NOTE, THOUGHT, doorTools } from '../doors/door-run';
import { cliEnv, runCli } from '../helpers/cli-process';
import { runScripted } from '../helpers/run-scripted';
import { useTestEnv } from '../helpers/temporal-env';

/*
 * `thoughtline search` reads the chain store through the visibility policy's lens, as /v1/search
 * does: a run whose thinking (or a tool result) the policy hides is neither found by those words
 * nor printed with them in its excerpts.
 */
const env = useTestEnv();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thoughtline-search-policy-'));
const POLICY = path.join(dir, 'policy.yaml');
// Thinking hidden below the auditor, and the model calls whose replies carry it (whether a thinking
// rule alone covers those is the chain view's to say; the door inventory holds it); the notes'
// results hidden from everyone.
fs.writeFileSync(
  POLICY,
  `version: 1
security:
  tools:
    private_notes:
      result: hidden
roles:
  developer:
    steps:
      thinking: hidden
      model_call: hidden
`,
);
const STORE = path.join(dir, 'store.sqlite');
const asDev = cliEnv({ THOUGHTLINE_USER: 'dev', THOUGHTLINE_STORE: `sqlite:${STORE}` });
let runId: string;

beforeAll(async () => {
  const { workflowId, observed: h } = await runScripted(env, {
    tools: doorTools(),
    input: { task: 'Read the notes kept on customer c-1.' },
    script: [
      {
        content: [
          say(`${THOUGHT}: read the notes of c-1 and say when to call.`),
          useTool('private_notes', { customer: 'c-1' }, 'toolu_s1'),
        ],
      },
      { content: [useTool('finish', { result: 'Call c-1 in the afternoon.' }, 'toolu_s2')] },
    ],
    during: async ({ h }) => h,
  });
  runId = workflowId;
  // The store as serve's projection writes an ended run.
  const store = (await openChainStore({ kind: 'sqlite', file: STORE }))!;
  try {
    const read = await readRunFromTemporal(h.agents, runId, 0, new ActionCounter());
    if (read.kind !== 'found') throw new Error(`the run is ${read.kind}`);
    await writeTemporalRun(store, read, await store.run(runId));
  } finally {
    await store.close();
  }
}, 120_000);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const search = async (word: string, extra: string[], processEnv = asDev) => {
  const { code, stdout, stderr } = await runCli(['search', '--text', word, ...extra], processEnv);
  expect(code, stderr).toBe(0);
  return stdout;
};

describe('search through the visibility policy (a real process on a real store)', () => {
  it('finds and prints hidden thinking and a hidden tool result without a policy, and neither with one', async () => {
    // Without a policy the developer's view shows both (the control: the words are in the store).
    for (const word of [THOUGHT, NOTE]) {
      const plain = await search(word, []);
      expect(plain).toContain(runId);
      expect(plain).toContain(word);
    }
    // With it, by THOUGHTLINE_VISIBILITY_POLICY or --policy: not found, so not printed.
    for (const word of [THOUGHT, NOTE]) {
      const byEnv = await search(word, ['--json'], { ...asDev, THOUGHTLINE_VISIBILITY_POLICY: POLICY });
      expect(byEnv).not.toContain(runId);
      expect(byEnv).not.toContain(word);
      const byFlag = await search(word, ['--policy', POLICY]);
      expect(byFlag).not.toContain(runId);
      expect(byFlag).not.toContain(word);
    }
    // A word the lens shows still finds the run, its excerpt cut from the step as the lens shows it.
    const shown = await search('c-1', ['--policy', POLICY, '--json']);
    expect(shown).toContain(runId);
    expect(shown).not.toContain(THOUGHT);
    expect(shown).not.toContain(NOTE);
    // The auditor's view keeps the thinking (the policy hides it below the auditor), never the notes.
    const auditor = await search(THOUGHT, ['--policy', POLICY, '--role', 'auditor']);
    expect(auditor).toContain(runId);
    expect(await search(NOTE, ['--policy', POLICY, '--role', 'auditor'])).not.toContain(runId);
  }, 120_000);

  it('exits 2 with the reason for a policy it cannot read', async () => {
    const broken = path.join(dir, 'broken.yaml');
    fs.writeFileSync(broken, 'version: 1\nroles:\n  end_user:\n    steps:\n      thinking: invisible\n');
    const run = await runCli(['search', '--text', THOUGHT, '--policy', broken], asDev);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/The visibility policy .* cannot be used: /);
    expect(run.stdout).toBe('');
  });
});
