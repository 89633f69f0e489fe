/**
 * Thought controls (seed 001 §2.2–2.4) on the real dev server, in both strategies: a tool call
 * needs a thought (by default), thoughts can be validated, the prompt and labels are the run's
 * own, and the scratchpad can be left out of what the model reads.
 */
import { describe, expect, it } from 'vitest';
import { createScriptedModel, say, useTool } from '../../../src/activities/models/scripted-model';
import { AgentClient } from '../../../src/client/agent-client';
import { DEFAULT_THOUGHT_PROMPT, type ModelRequest } from '../../../src/domain';
import { thoughts, toolResultOf } from '../../helpers/chain-helpers';
import { runScripted } from '../../helpers/run-scripted';
import { SCRIPTED_MODEL } from '../../helpers/scripted-input';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';
import { testTools } from '../../helpers/test-tools';

const env = useTestEnv();

const text = (t: string) => ({ content: [say(t)] });
const systemOf = (request: ModelRequest | undefined): string => request?.system ?? '';
/** What the model read last in a request: the text of its final message. */
const lastMessageText = (request: ModelRequest | undefined): string => JSON.stringify(request?.messages.at(-1) ?? {});

describe('requireThought (native tools)', () => {
  it('is on by default: a call without a thought is not run, and the model is told why', async () => {
    const model = createScriptedModel([
      { content: [useTool('lookup', { key: 'alpha' }, 'toolu_bare')] },
      {
        content: [
          say('Alpha is needed for the total, so look it up.'),
          useTool('lookup', { key: 'alpha' }, 'toolu_ok'),
        ],
      },
      { content: [say('Done.'), useTool('finish', { result: 'alpha is 50' })] },
    ]);
    const { tools, log } = testTools();
    const h = await createHarness(env, { tools, models: { scripted: model } });
    // A plain client: the input's own defaults, nothing from the test harness.
    const client = new AgentClient({ client: env.client, taskQueue: h.taskQueue });
    const result = await h.worker.runUntil(async () => {
      const handle = await client.start({ task: 'What is alpha?', model: SCRIPTED_MODEL });
      return handle.result();
    });
    model.verify();

    expect(log.calls.map((c) => c.args)).toEqual([{ key: 'alpha' }]);
    expect(toolResultOf(result.chain.steps, 'toolu_bare')).toMatchObject({
      success: false,
      error: expect.stringContaining('a thought is required before every tool call'),
    });
    expect(lastMessageText(model.calls[1])).toContain('a thought is required before every tool call');
    expect(result).toMatchObject({ terminationReason: 'success', formatErrors: 1 });
    expect(systemOf(model.calls[0])).toContain(DEFAULT_THOUGHT_PROMPT);
  });

  it('counts calls without a thought toward a stall, like unreadable replies', async () => {
    const bare = (id: string) => ({ content: [useTool('lookup', { key: id }, `toolu_${id}`)] });
    const { result, log } = await runScripted(env, {
      input: { task: 'Loop without thinking', model: SCRIPTED_MODEL, requireThought: true, stallThreshold: 2 },
      script: [bare('a'), bare('b'), bare('c'), text('I never got to call anything.')],
    });
    expect(log.calls).toEqual([]);
    expect(result.terminationReason).toBe('stalled');
    // The warning at the threshold, then the stall on the next one.
    expect(toolResultOf(result.chain.steps, 'toolu_b')?.error).toContain('refusal number 2 in a row');
    expect(toolResultOf(result.chain.steps, 'toolu_c')?.error).toBe('Not run: the run stopped because it was stalled.');
  });

  it('takes extended thinking as the thought', async () => {
    const { result, log } = await runScripted(env, {
      input: { task: 'Think silently', model: SCRIPTED_MODEL, requireThought: true },
      script: [
        {
          content: [
            { type: 'thinking', thinking: 'Alpha decides it; look it up.', signature: 'sig' },
            useTool('lookup', { key: 'alpha' }),
          ],
        },
        { content: [useTool('finish', { result: 'alpha is 50' })] },
      ],
    });
    expect(log.calls).toHaveLength(1);
    expect(result).toMatchObject({ terminationReason: 'success', formatErrors: 0 });
  });

  it('can be turned off: the call runs without a thought', async () => {
    const { result, log } = await runScripted(env, {
      input: { task: 'Just call it', model: SCRIPTED_MODEL, requireThought: false },
      script: [{ content: [useTool('lookup', { key: 'alpha' })] }, { content: [useTool('finish', { result: 'ok' })] }],
    });
    expect(log.calls).toHaveLength(1);
    expect(result.formatErrors).toBe(0);
  });
});

describe('requireThought and labels (text ReAct)', () => {
  it('refuses an Action without a thought, and reads the run’s own labels', async () => {
    const labels = {
      thought: 'Pensée',
      action: 'Outil',
      actionInput: 'Entrée',
      observation: 'Résultat',
      finalAnswer: 'Réponse finale',
    };
    const { result, log, model } = await runScripted(env, {
      input: {
        task: 'Quelle est la valeur de alpha ?',
        model: SCRIPTED_MODEL,
        strategy: 'react-text',
        labels,
        requireThought: true,
      },
      script: [
        text('Outil: lookup\nEntrée: {"key": "alpha"}'),
        text('Pensée: Il me faut la valeur de alpha.\nOutil: lookup\nEntrée: {"key": "alpha"}'),
        text('Pensée: J’ai la valeur.\nRéponse finale: alpha vaut 50'),
      ],
    });
    expect(log.calls.map((c) => c.args)).toEqual([{ key: 'alpha' }]);
    expect(result).toMatchObject({ terminationReason: 'success', finalAnswer: 'alpha vaut 50', formatErrors: 1 });
    expect(thoughts(result.chain.steps)).toEqual(['Il me faut la valeur de alpha.', 'J’ai la valeur.']);
    // The prompt, the observations and the stop sequence all speak the run's labels.
    const first = model.calls[0]!;
    expect(first.system).toContain('Pensée: <your reasoning about what to do next>');
    expect(first.system).toContain('Réponse finale: <your response to the user>');
    expect(first.stopSequences).toEqual(['\nRésultat:']);
    expect(lastMessageText(model.calls[1])).toMatch(
      /Résultat: \\n<<observation-\w+>>\\nError: Not run: a thought is required/,
    );
    expect(lastMessageText(model.calls[1])).toContain('\\"Pensée:\\" line');
    expect(lastMessageText(model.calls[2])).toMatch(/Résultat: \\n<<observation-\w+>>\\n\{/);
  });

  it('puts the thought prompt in the text protocol’s system prompt, or a replacement, or none', async () => {
    const finish = text('Thought: Nothing to look up.\nFinal Answer: done');
    const runs = await Promise.all(
      [undefined, 'Name the evidence before acting.', ''].map((thoughtPrompt) =>
        runScripted(env, {
          input: {
            task: 'Say done',
            model: SCRIPTED_MODEL,
            strategy: 'react-text',
            ...(thoughtPrompt !== undefined ? { thoughtPrompt } : {}),
          },
          script: [finish],
        }),
      ),
    );
    const [byDefault, replaced, none] = runs.map((r) => systemOf(r.model.calls[0]));
    expect(byDefault).toContain(DEFAULT_THOUGHT_PROMPT);
    expect(replaced).toContain('Name the evidence before acting.');
    expect(replaced).not.toContain('What do I know so far?');
    expect(none).not.toContain('What do I know so far?');
    expect(none).not.toContain('think it through');
  });
});

describe('thoughtValidation', () => {
  it('refuses a short, a degenerate and a repeated thought, each with its reason, and runs a substantive one', async () => {
    const call = (thought: string, id: string) => ({
      content: [say(thought), useTool('lookup', { key: id }, `toolu_${id}`)],
    });
    const { result, log } = await runScripted(env, {
      input: {
        task: 'Add alpha and beta',
        model: SCRIPTED_MODEL,
        requireThought: true,
        thoughtValidation: { minChars: 15 },
        stallThreshold: 5,
      },
      script: [
        call('Go.', 'short'),
        call('I will now use the lookup tool.', 'degenerate'),
        call('Alpha is one of the two numbers I must add.', 'alpha'),
        call('Alpha is one of the two numbers I must add!', 'repeat'),
        call('Beta is the other number; with it I can add.', 'beta'),
        { content: [say('Both known.'), useTool('finish', { result: '50 + 40' })] },
      ],
    });
    expect(log.calls.map((c) => c.args)).toEqual([{ key: 'alpha' }, { key: 'beta' }]);
    const errorOf = (id: string) => toolResultOf(result.chain.steps, `toolu_${id}`)?.error ?? '';
    expect(errorOf('short')).toContain('too short (3 characters, at least 15)');
    expect(errorOf('degenerate')).toContain('only says that a tool will be used');
    expect(errorOf('repeat')).toContain('repeats the previous one');
    expect(result).toMatchObject({ terminationReason: 'success', formatErrors: 3 });
    // Refused thoughts stay in the chain: they are what the model said.
    expect(thoughts(result.chain.steps)).toContain('I will now use the lookup tool.');
  });
});

describe('scratchpad', () => {
  it('off: the model reads its actions and observations, not its earlier thoughts; the chain keeps them', async () => {
    const secretThought = 'Alpha first, because beta depends on it.';
    const runs = await Promise.all(
      (['native', 'react-text'] as const).map((strategy) =>
        runScripted(env, {
          input: { task: 'Look up alpha', model: SCRIPTED_MODEL, strategy, scratchpad: false },
          script:
            strategy === 'native'
              ? [
                  { content: [say(secretThought), useTool('lookup', { key: 'alpha' })] },
                  { content: [say('Done.'), useTool('finish', { result: 'alpha is 50' })] },
                ]
              : [
                  text(`Thought: ${secretThought}\nAction: lookup\nAction Input: {"key": "alpha"}`),
                  text('Thought: Done.\nFinal Answer: alpha is 50'),
                ],
        }),
      ),
    );
    for (const { result, model } of runs) {
      expect(result.terminationReason).toBe('success');
      expect(thoughts(result.chain.steps)).toContain(secretThought);
      const second = JSON.stringify(model.calls[1]!.messages);
      expect(second).not.toContain('beta depends on it');
      expect(second).toContain('alpha');
    }
    expect(JSON.stringify(runs[1]!.model.calls[1]!.messages)).toContain(
      'Action: lookup\\nAction Input: {\\"key\\":\\"alpha\\"}',
    );
  });

  it('on (the default): the model reads its earlier thoughts', async () => {
    const { model } = await runScripted(env, {
      input: { task: 'Look up alpha', model: SCRIPTED_MODEL },
      script: [
        { content: [say('Alpha first, because beta depends on it.'), useTool('lookup', { key: 'alpha' })] },
        { content: [say('Done.'), useTool('finish', { result: 'alpha is 50' })] },
      ],
    });
    expect(JSON.stringify(model.calls[1]!.messages)).toContain('beta depends on it');
  });
});
