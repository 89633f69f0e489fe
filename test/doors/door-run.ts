import { z } from 'zod';
import { createScriptedModel, say, useTool, type ScriptedTurn } from '../../src/activities/models/scripted-model';
import type { ModelProvider } from '../../src/domain/model/model-provider';
import type { ViewerRole } from '../../src/domain';
import { defineTool } from '../../src/tools/define-tool';
import { streaming } from '../ag-ui/ag-ui-harness';

/*
 * The one run the door inventory reads through every door: it holds a value a tool marks
 * sensitive (the model repeats it in its answer), thinking the policy hides below the auditor,
 * and a tool result the policy's security layer hides from everyone.
 */

/** The sensitive value: `lookup_account` marks `account.number`; the answer repeats it. */
export const SECRET = '4929-7731-0042-8810';
/** Only the hidden thinking holds this word (first in the text: a streamed half keeps it whole). */
export const THOUGHT = 'QUOLLPLAN';
/** Only the hidden tool result (`private_notes`) holds this word. */
export const NOTE = 'WOMBATNOTE';

export const DOOR_TASK = 'Find the account number of customer c-1.';
export const DOOR_ANSWER = `The account number of c-1 is ${SECRET}.`;

/** The words each view must never show (the auditor reads the sensitive value and the thinking). */
export const HIDDEN_FROM: Record<ViewerRole, readonly string[]> = {
  end_user: [SECRET, THOUGHT, NOTE],
  developer: [SECRET, THOUGHT, NOTE],
  auditor: [NOTE],
};

/** The policy given to `serve --policy` (and `--policy` of the CLI readers). */
export const DOOR_POLICY = `version: 1
security:
  tools:
    private_notes:
      result: hidden
roles:
  end_user:
    steps:
      thinking: hidden
  developer:
    steps:
      thinking: hidden
`;

export function doorTools() {
  const lookupAccount = defineTool({
    name: 'lookup_account',
    description: 'Reads a customer account',
    input: z.object({ customer: z.string() }),
    sensitiveFields: ['account.number'],
    execute: ({ customer }) => ({ customer, account: { number: SECRET } }),
  });
  const privateNotes = defineTool({
    name: 'private_notes',
    description: 'Reads the notes kept on a customer',
    input: z.object({ customer: z.string() }),
    execute: ({ customer }) => ({ customer, notes: `${NOTE}: prefers calls after noon` }),
  });
  return [lookupAccount, privateNotes];
}

/**
 * The run's model: thinks (streamed as text deltas, as a streaming provider does), calls both
 * tools, then answers with the sensitive value. Its first call waits for `release()`, so the
 * live doors are following before anything is said.
 */
export function doorModel(): ModelProvider & { release(): void; called(): boolean } {
  return heldModel([
    {
      content: [
        say(`${THOUGHT}: read the account, then the notes, and answer with the number in full.`),
        useTool('lookup_account', { customer: 'c-1' }, 'toolu_d1'),
        useTool('private_notes', { customer: 'c-1' }, 'toolu_d2'),
      ],
    },
    { content: [useTool('finish', { result: DOOR_ANSWER }, 'toolu_d3')] },
  ]);
}

/** A scripted model that streams its texts as deltas and whose first call waits for `release()`. */
export function heldModel(turns: ScriptedTurn[]): ModelProvider & { release(): void; called(): boolean } {
  const model = streaming(createScriptedModel(turns));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let called = false;
  return {
    name: 'scripted',
    release: () => release(),
    called: () => called,
    async complete(request, signal, hooks) {
      called = true;
      await released;
      return model.complete(request, signal, hooks);
    },
  };
}
