import type { AgentInput } from '../../shared';

/**
 * Why the run may not use its models, or undefined. With `allowedModels` set, the model and every
 * fallback must be listed, by name or as `provider/model`; a fallback outside it is not silently
 * dropped, because the caller asked for it.
 */
export function modelRefusal(input: AgentInput): string | undefined {
  const allowed = input.allowedModels;
  if (!allowed) return undefined;
  const models = [input.model, ...input.model.fallbacks];
  const outside = models.filter((m) => !allowed.includes(m.model) && !allowed.includes(`${m.provider}/${m.model}`));
  if (outside.length === 0) return undefined;
  const names = outside.map((m) => `${m.provider}/${m.model}`).join(', ');
  return `model ${names} is not in this run's allowedModels (${allowed.join(', ')}).`;
}
