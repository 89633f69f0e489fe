import { AgentDefinition, type AgentDefinitionInit } from '../domain/agents/agent-definition';
import type { AgentExperiment, AgentVariant } from '../domain/agents/agent-experiment';
import { AgentDefinitionError } from './agent-definition-error';

/**
 * An agent as a named, versioned definition: checked here, when it is defined (id and version
 * shape, bounded prompt and examples, budget settings, an experiment's variants), and frozen. Register it with a worker
 * (`createAgentWorker({ agents: [...] })`) to start it by name, or pass it as a run's `definition`.
 */
export function defineAgent(init: AgentDefinitionInit): Readonly<AgentDefinition> {
  const parsed = AgentDefinition.safeParse(init);
  if (!parsed.success) {
    const id = typeof init?.id === 'string' ? ` "${init.id}"` : '';
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'definition'}: ${i.message}`).join('; ');
    throw new AgentDefinitionError(`Agent${id} is not a valid definition: ${problems}`);
  }
  const d = parsed.data;
  return Object.freeze({
    ...d,
    examples: Object.freeze(
      d.examples.map((e) =>
        Object.freeze({
          ...e,
          ...(e.steps ? { steps: Object.freeze(e.steps.map((s) => Object.freeze({ ...s }))) } : {}),
        }),
      ),
    ) as AgentDefinition['examples'],
    ...(d.tools ? { tools: Object.freeze([...d.tools]) as string[] } : {}),
    ...(d.budget
      ? {
          budget: Object.freeze({
            ...d.budget,
            ...(d.budget.budgetRaiserRoles
              ? { budgetRaiserRoles: Object.freeze([...d.budget.budgetRaiserRoles]) as string[] }
              : {}),
          }),
        }
      : {}),
    ...(d.experiment ? { experiment: frozenExperiment(d.experiment) } : {}),
  });
}

/** The experiment and each variant frozen, like the rest of a definition. */
function frozenExperiment(experiment: AgentExperiment): AgentExperiment {
  const variants = experiment.variants.map((v) => Object.freeze(JSON.parse(JSON.stringify(v)) as AgentVariant));
  return Object.freeze({ ...experiment, variants: Object.freeze(variants) as AgentVariant[] });
}
