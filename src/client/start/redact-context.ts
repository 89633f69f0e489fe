import type { AgentInputInit } from '../../domain';
import { redactSecrets } from '../../domain/secrets/secret-patterns';

/**
 * The input with secrets in its context (data values, values under credential-named keys, file
 * contents) replaced by the maintained patterns, before it is sent: the start event's input is
 * the chain's first record, and a chain never holds a secret. Every client path starts through
 * AgentClient.start, so the CLI, `POST /v1/runs` and scripts all redact. Other fields are as given.
 */
export function redactContext(init: AgentInputInit): AgentInputInit {
  if (init.context === undefined || init.context === null) return init;
  return { ...init, context: redactSecrets(init.context) };
}
