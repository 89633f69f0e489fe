import { addUsage, addUsd, zeroUsage, type ModelMessage, type ModelReply, type TokenUsage } from '../shared';

/** Counters and the conversation of one run; plain data, so it can later cross continue-as-new. */
export class RunState {
  usage: TokenUsage = zeroUsage();
  costUsd = 0;
  iteration = 0;
  modelCalls = 0;
  toolCalls = 0;
  formatErrors = 0;

  constructor(
    public lastModel: string,
    readonly messages: ModelMessage[],
  ) {}

  countReply(reply: ModelReply): void {
    this.usage = addUsage(this.usage, reply.usage);
    this.costUsd = addUsd(this.costUsd, reply.costUsd);
    this.lastModel = reply.model;
  }

  appendUserText(text: string): void {
    const last = this.messages[this.messages.length - 1];
    // Tool results and an instruction share one user turn: roles must alternate.
    if (last?.role === 'user') last.content.push({ type: 'text', text });
    else this.messages.push({ role: 'user', content: [{ type: 'text', text }] });
  }

  /**
   * Frees context by eliding tool results older than the last `keepTurns` user turns; the task
   * itself is kept. Returns how many blocks were elided.
   */
  compact(keepTurns = 2): number {
    const userTurns = this.messages.map((m, i) => (m.role === 'user' ? i : -1)).filter((i) => i > 0);
    const keepFrom = userTurns[userTurns.length - keepTurns] ?? Number.MAX_SAFE_INTEGER;
    let elided = 0;
    this.messages.forEach((message, index) => {
      if (index === 0 || index >= keepFrom || message.role !== 'user') return;
      message.content = message.content.map((block) => {
        if (block.type === 'tool_result' && !block.content.startsWith(ELIDED)) {
          elided += 1;
          return { ...block, content: ELIDED };
        }
        if (block.type === 'text' && block.text.startsWith('Observation:')) {
          elided += 1;
          return { ...block, text: `Observation: ${ELIDED}` };
        }
        return block;
      });
    });
    return elided;
  }
}

const ELIDED = '[elided to fit the context window]';
