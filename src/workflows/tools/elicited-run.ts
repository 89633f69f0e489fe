import { ApplicationFailure } from '@temporalio/workflow';
import {
  MAX_ELICITATION_ROUNDS,
  type ElicitationAnswer,
  type ElicitationRequest,
  type ToolInvocation,
  type ToolOutput,
} from '../../domain';
import { FailureType } from '../../domain/run/failure-types';
import type { RunContext } from '../core/state/run-context';
import type { QuestionDesk } from '../people/question-desk';
import { waitForAnswer } from '../people/ask-person';
import { inWords } from '../people/wait-in-words';
import { elicitationQuestion, readElicitationAnswer } from './elicitation-answer';

/** One attempt of the `runTool` activity (ordinary or local) with the call's options. */
export type RunTool = (invocation: ToolInvocation) => Promise<ToolOutput>;

/**
 * Goes on from the `runTool` activity's first output (the caller awaits that itself, one promise
 * fewer). When the tool (an MCP server) asks for input it does not have, the activity ends and says so; the run then asks a person through the question desk, the same
 * durable wait as `ask_person` (no activity open, so no tool timeout runs and a worker restart
 * loses nothing), and runs the call again carrying every answer so far. Bounded by
 * MAX_ELICITATION_ROUNDS; no answer in `questionTimeoutMs` fails the call with a clear message.
 */
export async function runToolActivity(
  ctx: RunContext,
  desk: QuestionDesk | undefined,
  callId: string,
  run: RunTool,
  invocation: ToolInvocation,
  /** The first attempt's output. */
  first: ToolOutput,
): Promise<ToolOutput> {
  let out = first;
  if (!out.needsInput) return out;
  // By key: a repeated question (the server refused the answer) replaces the earlier answer to it.
  const answers = new Map<string, ElicitationAnswer>();
  for (let rounds = 0; out.needsInput; rounds++) {
    if (!desk) throw refused(`${out.needsInput.server} asked for input, but this run cannot ask a person here.`);
    if (rounds >= MAX_ELICITATION_ROUNDS)
      throw refused(`${out.needsInput.server} asked for input more than ${MAX_ELICITATION_ROUNDS} times in one call.`);
    const answer = await askUntilReadable(ctx, desk, callId, out.needsInput);
    answers.set(answer.key, answer);
    out = await run({ ...invocation, elicitation: [...answers.values()] });
  }
  return out;
}

/** Asks until the text reads as an answer (each unreadable one counts as a round), or fails the call. */
async function askUntilReadable(
  ctx: RunContext,
  desk: QuestionDesk,
  callId: string,
  request: ElicitationRequest,
): Promise<ElicitationAnswer> {
  let asking = request;
  for (let round = 0; round < MAX_ELICITATION_ROUNDS; round++) {
    const text = await askDesk(ctx, desk, callId, asking);
    const read = readElicitationAnswer(asking, text.text, text.by);
    if (read.ok) {
      const said = read.answer.action === 'accept' ? JSON.stringify(read.answer.content ?? {}) : read.answer.action;
      ctx.chain.thinking(
        `${text.by} answered ${request.server}'s question "${request.message}": ${said}`,
        { level: ctx.input.visibility },
        { kind: 'answer', by: text.by },
      );
      return read.answer;
    }
    asking = { ...request, problem: read.problem };
  }
  throw refused(`No readable answer to ${request.server}'s question after ${MAX_ELICITATION_ROUNDS} tries.`);
}

/** One question through the desk, which holds one at a time: a call waits its turn behind others. */
async function askDesk(
  ctx: RunContext,
  desk: QuestionDesk,
  callId: string,
  request: ElicitationRequest,
): Promise<{ text: string; by: string }> {
  const { answer } = await waitForAnswer(ctx, desk, callId, elicitationQuestion(request));
  if (!answer)
    throw refused(`Nobody answered ${request.server}'s question within ${inWords(ctx.input.questionTimeoutMs)}.`);
  return answer;
}

/** Made in the workflow: the tool call's own catch turns it into an error observation. */
function refused(message: string): ApplicationFailure {
  return ApplicationFailure.create({ type: FailureType.ToolRefused, message, nonRetryable: true });
}
