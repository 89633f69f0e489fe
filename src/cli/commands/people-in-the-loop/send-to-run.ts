import { connect } from '../../setup/runtime';
import { actingPerson } from './decide-call';
import { decisionSending } from './decision-sending';
import { refuseIfEnded, sendToOpenRun } from './require-open-run';
import { writeSafe } from '../../render/terminal-safe';

/** --as, --roles and --signing-keys as a decision command read them. */
type DeciderFlags = { as?: string; roles?: string; signingKeys?: string };

/** `steer <run> "<instruction>"`: joins the conversation before the agent's next thought; refused once the run has ended. */
export async function steerRun(workflowId: string, text: string, flags: DeciderFlags): Promise<void> {
  const { agents, config } = await connect();
  try {
    const by = actingPerson(config, flags);
    const sending = decisionSending(by, flags.signingKeys);
    await sendToOpenRun(agents, workflowId, 'steer', () => agents.steer(workflowId, text, by.id, sending));
    process.stdout.write(`Instruction sent to ${workflowId}; it reaches the agent before its next thought.\n`);
  } finally {
    await agents.client.connection.close();
  }
}

/** `answer <run> "<text>"`: answers the question the agent asked; refused when none is open or the run has ended. */
export async function answerRun(workflowId: string, text: string, flags: DeciderFlags): Promise<void> {
  const { agents, config } = await connect();
  try {
    await refuseIfEnded(agents, workflowId, 'answer');
    const status = await agents.status(workflowId);
    const question = status.openQuestion;
    if (question) writeSafe(process.stdout, `Question: ${question.question}\n`);
    const by = actingPerson(config, flags);
    // The question shown is the one answered (a signed answer names it).
    const sending = { ...decisionSending(by, flags.signingKeys), ...(question ? { callId: question.callId } : {}) };
    const reply = await sendToOpenRun(agents, workflowId, 'answer', () =>
      agents.answer(workflowId, text, by.id, sending),
    );
    writeSafe(process.stdout, `${reply}\n`);
  } finally {
    await agents.client.connection.close();
  }
}
