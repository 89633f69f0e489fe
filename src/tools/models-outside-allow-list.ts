import type { ModelProviderName } from '../domain';
import type { ToolDefinition } from './define-tool';

/**
 * Why a worker with a model allow-list must not start with these tools, or undefined when it may:
 * a tool names a model the list leaves out. Checked at start so an organisation's registry fails
 * closed before any run, not at the call; each call is checked again (ToolContext.isModelAllowed).
 */
export function modelsOutsideAllowList(
  tools: readonly ToolDefinition[],
  isModelAllowed: ((provider: ModelProviderName, model: string) => boolean) | undefined,
): string | undefined {
  if (!isModelAllowed) return undefined;
  const refused = tools.flatMap((tool) =>
    (tool.models ?? [])
      .filter((m) => !isModelAllowed(m.provider, m.model))
      .map((m) => `"${tool.name}" calls ${m.provider}/${m.model}`),
  );
  if (refused.length === 0) return undefined;
  return `This worker's model registry does not allow every model its tools call: ${refused.join('; ')}. Allow those models in the registry, or leave them out of the tool's \`models\`.`;
}
