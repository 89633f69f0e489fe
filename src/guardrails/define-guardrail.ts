import { GUARDRAIL_NAME_PATTERN, type GuardrailStage, type GuardrailVerdict } from '../domain/guardrails/guardrail';

/** What a check knows besides the text: where it checks, which run, and for tool results which tool. */
export interface GuardrailContext {
  stage: GuardrailStage;
  workflowId: string;
  agentName: string;
  tenant?: string;
  /** At `tool_result`: the tool whose result this is. */
  toolName?: string;
  /** Aborted when the activity is cancelled (the run was cancelled or timed out). */
  signal: AbortSignal;
}

/** A guardrail a worker runs for the runs that name it (`createAgentWorker({ guardrails })`). */
export interface GuardrailDefinition {
  /** How runs and agent definitions name it: letters, digits, `-`, `_`, `.`; at most 64. */
  readonly name: string;
  readonly stage: GuardrailStage;
  readonly description?: string;
  /**
   * Reads one text (at most MAX_GUARDRAIL_TEXT_CHARS) and decides. Runs in the worker, inside the
   * check point's activity: it may be async and do I/O; a retried activity runs it again. What it
   * throws fails the activity (retried, then the check point blocks: fails closed). A reason
   * should say why without quoting the text: the chain records it for every view.
   */
  check(text: string, context: GuardrailContext): GuardrailVerdict | Promise<GuardrailVerdict>;
}

const STAGES: readonly GuardrailStage[] = ['input', 'tool_result', 'output'];

/**
 * A guardrail of your own: a check of the task (`input`), of each tool result before the model
 * reads it (`tool_result`), or of the answer before it becomes the run's (`output`), that
 * passes, redacts, blocks or asks a person. Each check point records a visible `guardrail` step.
 */
export function defineGuardrail(definition: GuardrailDefinition): GuardrailDefinition {
  if (!GUARDRAIL_NAME_PATTERN.test(definition.name))
    throw new TypeError(
      `Guardrail name "${definition.name}": use 1 to 64 letters, digits, "-", "_" and "." (runs name guardrails by it).`,
    );
  if (!STAGES.includes(definition.stage))
    throw new TypeError(
      `Guardrail "${definition.name}": stage must be one of ${STAGES.join(', ')}, not ${JSON.stringify(definition.stage)}.`,
    );
  if (typeof definition.check !== 'function')
    throw new TypeError(`Guardrail "${definition.name}" needs a check function.`);
  return Object.freeze({ ...definition });
}

/** The guardrails, checked to have one definition per name. */
export function uniqueGuardrails(guardrails: readonly GuardrailDefinition[]): ReadonlyMap<string, GuardrailDefinition> {
  const byName = new Map<string, GuardrailDefinition>();
  for (const g of guardrails) {
    if (byName.has(g.name)) throw new TypeError(`Two guardrails are named "${g.name}"; each name must be unique.`);
    byName.set(g.name, g);
  }
  return byName;
}
