import { connect } from '../runtime';
import { actingPerson } from './decide';
import { writeSafe } from '../render/terminal-safe';

/** `steer <run> "<instruction>"`: joins the conversation before the agent's next thought. */
export async function steerRun(workflowId: string, text: string, flags: { as?: string }): Promise<void> {
  const { agents, config } = await connect();
  try {
    const by = actingPerson(config, flags).id;
    await agents.steer(workflowId, text, by);
    process.stdout.write(`Instruction sent to ${workflowId}; it reaches the agent before its next thought.\n`);
  } finally {
    await agents.client.connection.close();
  }
}

/** `answer <run> "<text>"`: answers the question the agent asked; refused when none is open. */
export async function answerRun(workflowId: string, text: string, flags: { as?: string }): Promise<void> {
  const { agents, config } = await connect();
  try {
    const status = await agents.status(workflowId);
    if (status.openQuestion) writeSafe(process.stdout, `Question: ${status.openQuestion.question}\n`);
    writeSafe(process.stdout, `${await agents.answer(workflowId, text, actingPerson(config, flags).id)}\n`);
  } finally {
    await agents.client.connection.close();
  }
}
