import type { AgentContext } from '../../domain';
import { redactSecrets, redactSecretsInText } from '../../domain/secrets/secret-patterns';

/**
 * The run's context (AgentInput.context) as the model and the chain see it. The client redacts
 * secrets before sending; these redact again, as the chain and the prompts must never hold one.
 * Pure and deterministic: the same context gives the same text on every replay.
 */

/** What the model reads after the goal: the data as JSON, then each file in its own delimited block. */
export function contextPrompt(context: AgentContext): string {
  const parts = ['Context for this goal:'];
  if (context.data !== undefined) parts.push(`<data>\n${JSON.stringify(redactSecrets(context.data))}\n</data>`);
  for (const file of context.files) {
    const cut = file.truncated ? ` truncated="true" bytes="${file.bytes}"` : '';
    // A file that itself contains the closing tag must not end its block early.
    const content = redactSecretsInText(file.content).split('</file>').join('<\\/file>');
    parts.push(`<file name="${attribute(file.name)}"${cut}>\n${content}\n</file>`);
  }
  return parts.join('\n\n');
}

/** The chain's first step: the data as compact JSON and each file by name, size and whether it was cut; never the files' text. */
export function contextNote(context: AgentContext): string {
  const lines = ['Context given with the goal.'];
  if (context.data !== undefined) lines.push(`Data: ${JSON.stringify(redactSecrets(context.data))}`);
  if (context.files.length === 0) lines.push('Files: none.');
  else {
    lines.push(`Files (${context.files.length}):`);
    for (const file of context.files)
      lines.push(`- ${file.name}: ${file.bytes} bytes${file.truncated ? ', truncated to its first part' : ''}`);
  }
  return lines.join('\n');
}

/** True when the context carries anything a prompt should show. */
export const hasContext = (context: AgentContext | undefined): context is AgentContext =>
  context !== undefined && (context.data !== undefined || context.files.length > 0);

const attribute = (text: string): string => text.split('"').join('&quot;');
