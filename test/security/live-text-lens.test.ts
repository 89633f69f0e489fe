import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HttpAgent, type BaseEvent } from '@ag-ui/client';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { z } from 'zod';
import { say, useTool } from '../../src/activities/models/scripted-model';
import { defineTool } from '../../src/tools/define-tool';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { useTestEnv } from '../helpers/temporal-env';
import { testTools } from '../helpers/test-tools';
import { startAgUiServers, streaming, type AgUiServers } from '../ag-ui/ag-ui-harness';
import { openEvents, type OpenStream, type SseMessage } from '../server/events-harness';
import { writePolicy } from '../server/policy-fixture';
import { threadModels } from '../threads/thread-models';

/*
 * Issue 63, item 3: live model text goes through the same gate as the steps it becomes. A policy
 * that hides an agent's thinking streams none of its thinking, and none of the text that may
 * become a thought, on /events or AG-UI; a sensitive value the model repeats is redacted even
 * when the stream splits it over two deltas.
 */

const CARD = '4111111111111111';
const lookupCard = defineTool({
  name: 'lookup_card',
  description: 'The card on file',
  input: z.object({}),
  sensitiveFields: ['card'],
  execute: () => ({ card: CARD }),
});

/** The secretive agent's thinking is hidden in every view; any other agent's shows. */
const POLICY = `version: 1
agents:
  secretive:
    steps:
      thinking: hidden
`;
const MUSING = 'pondering the wombat ledger in private';
const THOUGHT = 'the ledger hides a wombat';

const env = useTestEnv();
const models = threadModels();
let s: AgUiServers;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-live-lens-'));
  const policy = await writePolicy(dir, 'policy.yaml', POLICY);
  s = await startAgUiServers(env, {
    model: streaming(models),
    tools: [...testTools().tools, lookupCard],
    server: { policy },
  });
});
afterAll(async () => {
  await s?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const DEV = { id: 'dev', roles: ['developer'], tenant: 'acme' };
const deltas = (stream: OpenStream): SseMessage[] => stream.messages.filter((m) => m.event === 'text_delta');
const streamedText = (stream: OpenStream): string =>
  deltas(stream)
    .map((m) => m.data.text as string)
    .join('');

/** Starts a held run of `agentName`, opens the streams, releases the model once they are live, and waits for the end. */
async function watchRun(key: string, agentName: string, turns: Parameters<typeof models.hold>[1]) {
  const held = models.hold(key, turns);
  onTestFinished(() => held.release());
  const handle = await s.agents.start({ task: `${key}: go`, agentName, model: SCRIPTED_MODEL, caller: DEV });
  const id = handle.workflowId;
  const dev = await openEvents(s.a, id, { token: s.tokens.dev });
  const auditor = await openEvents(s.a, id, { token: s.tokens.auditor });
  const agUi: BaseEvent[] = [];
  let agUiLive!: () => void;
  const agUiStarted = new Promise<void>((resolve) => (agUiLive = resolve));
  const agent = new HttpAgent({
    url: `${s.a.url}/v1/runs/${id}/ag-ui`,
    headers: { Authorization: `Bearer ${s.tokens.dev}` },
    fetch: (url, init) => fetch(url, { headers: init?.headers, signal: init?.signal }),
  });
  const agUiDone = agent.runAgent({}, { onEvent: ({ event }) => void agUi.push(event), onRunStartedEvent: agUiLive });
  await Promise.all([...[dev, auditor].map((st) => st.waitFor('status', (m) => m.event === 'status')), agUiStarted]);
  held.release();
  await Promise.all([dev, auditor].map((st) => st.waitFor('end', (m) => m.event === 'end')));
  await agUiDone;
  for (const st of [dev, auditor]) st.close();
  return { id, dev, auditor, agUi };
}

describe('live model text through the visibility lens (issue 63, item 3)', () => {
  it('a policy that hides thinking streams no thinking and no text that may become a thought, on /events and AG-UI', async () => {
    const { dev, auditor, agUi } = await watchRun('hidden-live', 'secretive', [
      {
        content: [
          { type: 'thinking', thinking: `I am ${THOUGHT}.`, signature: 'sig-1' },
          say(`Now ${MUSING}.`),
          useTool('lookup', { key: 'alpha' }),
        ],
      },
      { content: [useTool('finish', { result: 'alpha looked up' })] },
    ]);
    for (const stream of [dev, auditor]) {
      expect(stream.messages.some((m) => m.event === 'step')).toBe(true);
      expect(stream.messages.filter((m) => m.event === 'step' && m.data.step.type === 'thinking')).toEqual([]);
      expect(deltas(stream)).toEqual([]);
      // The extended thinking only ever becomes a thinking step. (The reply's text is also the
      // model call's result, which this policy shows: the view decides that, not the stream.)
      expect(JSON.stringify(stream.messages)).not.toContain(THOUGHT);
    }
    expect(agUi.at(-1)?.type).toBe('RUN_FINISHED');
    expect(agUi.map((e) => e.type).filter((t) => t.startsWith('REASONING'))).toEqual([]);
    expect(JSON.stringify(agUi)).not.toContain('wombat');
    // The answer still shows, as the view shows it: whole, from its step.
    expect(JSON.stringify(agUi)).toContain('alpha looked up');
  });

  it('streams the text a view shows, with a sensitive value split over two deltas redacted; the auditor sees it', async () => {
    // The streaming model splits each text in half: the card's digits fall on both sides.
    const repeat = `The card is ${CARD} as stored.`;
    expect(repeat.slice(0, Math.ceil(repeat.length / 2))).toMatch(/\d{4}$/);
    const { dev, auditor, agUi } = await watchRun('open-live', 'open', [
      { content: [say('Fetching the card on file.'), useTool('lookup_card', {})] },
      { content: [say(repeat), useTool('finish', { result: 'card read' })] },
    ]);
    const devText = streamedText(dev);
    expect(devText).toContain('Fetching the card on file.');
    expect(devText).toContain('The card is [REDACTED] as stored.');
    const agUiText = JSON.stringify(agUi);
    for (const text of [devText, JSON.stringify(dev.messages), agUiText])
      for (let i = 0; i + 4 <= CARD.length; i += 4) expect(text).not.toContain(`${CARD.slice(i, i + 4)}1111`);
    expect(agUi.some((e) => e.type === 'TEXT_MESSAGE_CONTENT')).toBe(true);
    // Offsets count what this view was sent: each reply's deltas follow each other exactly.
    const byReply = new Map<string, SseMessage[]>();
    for (const m of deltas(dev)) byReply.set(m.data.activityId, [...(byReply.get(m.data.activityId) ?? []), m]);
    for (const parts of byReply.values()) {
      let at = 0;
      for (const part of parts) {
        expect(part.data.offset).toBe(at);
        at += (part.data.text as string).length;
      }
    }
    expect(streamedText(auditor)).toContain(repeat);
  });
});
