import { connect } from '../../setup/runtime';
import { actingPerson } from './decide-call';
import { refuseIfEnded, sendToOpenRun } from './require-open-run';
import { writeSafe } from '../../render/terminal-safe';

/** `steer <run> "<instruction>"`: joins the conversation before the agent's next thought; refused once the run has ended. */
export async function steerRun(workflowId: string, text: string, flags: { as?: string }): Promise<void> {
  const { agents, config } = await connect();
  try {
    const by = actingPerson(config, flags).id;
    await sendToOpenRun(agents, workflowId, 'steer', () => agents.steer(workflowId, text, by));
    process.stdout.write(`Instruction sent to ${workflowId}; it reaches the agent before its next thought.\n`);
  } finally {
    await agents.client.connection.close();
  }
}

/** `answer <run> "<text>"`: answers the question the agent asked; refused when none is open or the run has ended. */
export async function answerRun(workflowId: string, text: string, flags: { as?: string }): Promise<void> {
  const { agents, config } = await connect();
  try {
    await refuseIfEnded(agents, workflowId, 'answer');
    const status = await agents.status(workflowId);
    if (status.openQuestion) writeSafe(process.stdout, `Question: ${status.openQuestion.question}\n`);
    const reply = await sendToOpenRun(agents, workflowId, 'answer', () =>
      agents.answer(workflowId, text, actingPerson(config, flags).id),
    );
    writeSafe(process.stdout, `${reply}\n`);
  } finally {
    await agents.client.connection.close();
  }
}
