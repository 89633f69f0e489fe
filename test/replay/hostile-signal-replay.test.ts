import fs from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker, type ReplayResult } from '@temporalio/worker';
import { beforeAll, describe, expect, it } from 'vitest';
import { installQuietReplayRuntime, suiteReplayOptions } from '../helpers/replay-runtime';

/**
 * A recorded history with its one signal swapped for a hostile one, as anyone who can signal a
 * run could have sent it. The signal is in history, so before the handlers were total every
 * replay of the workflow task threw the same way and the run was stuck for good; now the
 * workflow replays to its recorded end (the refused signal changes no command).
 */
const FIXTURE = path.join(__dirname, 'fixtures', 'steer-and-answer.json');

const swaps: { name: string; signalName: string; payload: string; encoding?: string }[] = [
  { name: 'cancel with a null payload', signalName: 'cancel', payload: 'null' },
  {
    name: 'cancel whose reason cannot become text',
    signalName: 'cancel',
    payload: '{"reason":{"toString":1,"valueOf":1},"by":"mallory"}',
  },
  {
    name: 'steer whose by cannot become text',
    signalName: 'steer',
    payload: '{"text":"Answer in one line.","by":{"toString":1,"valueOf":1}}',
  },
  { name: 'subAgentApprovals with a null payload', signalName: 'subAgentApprovals', payload: 'null' },
  {
    name: 'subAgentApprovals with a list of nulls',
    signalName: 'subAgentApprovals',
    payload: '{"workflowId":"x","pending":[null]}',
  },
  // Bytes no JSON client writes, sent with the raw API: the SDK could not decode them before any handler ran.
  ...['cancel', 'steer', 'subAgentApprovals'].flatMap((signalName) => [
    { name: `${signalName} whose bytes are not JSON`, signalName, payload: '{"text": not json' },
    {
      name: `${signalName} with an encoding no converter knows`,
      signalName,
      payload: '{"text":"hi"}',
      encoding: 'thoughtline/unknown',
    },
  ]),
];

function swapped(signalName: string, payload: string, encoding?: string) {
  const json = JSON.parse(fs.readFileSync(FIXTURE, 'utf8'));
  // The fixture's one steer signal, wherever a re-recording puts it.
  const event = json.events.find(
    (e: { workflowExecutionSignaledEventAttributes?: { signalName?: string } }) =>
      e.workflowExecutionSignaledEventAttributes?.signalName === 'steer',
  );
  const attributes = event.workflowExecutionSignaledEventAttributes;
  expect(attributes.signalName).toBe('steer');
  attributes.signalName = signalName;
  attributes.input.payloads[0].data = Buffer.from(payload).toString('base64');
  if (encoding) attributes.input.payloads[0].metadata.encoding = Buffer.from(encoding).toString('base64');
  return { workflowId: 'replay-steer-and-answer', history: historyFromJSON(json) };
}

// The negative controls make the core log each determinism violation at WARN; expected here.
beforeAll(installQuietReplayRuntime);

describe('replay of a history with a hostile signal swapped in', () => {
  it.each(swaps)('$name replays without a workflow task failure', async ({ signalName, payload, encoding }) => {
    const results: ReplayResult[] = [];
    for await (const r of Worker.runReplayHistories(suiteReplayOptions(), [swapped(signalName, payload, encoding)]))
      results.push(r);
    expect(results).toHaveLength(1);
    expect(results[0]!.error, String(results[0]!.error)).toBeUndefined();
  });
});
