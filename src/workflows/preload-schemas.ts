/**
 * Preloaded once per V8 context by the workflow bundle (PRELOAD_MODULES in worker.ts) and shared
 * by every run in it: the shared schema modules, which each run would otherwise build again
 * (~1,100 zod schema objects, most of a cached run's memory, and ~40 ms of every start).
 *
 * The sandbox deep-freezes what it preloads so no run can leave state for the next, but zod
 * rewrites a schema's internals on its first parse, which a frozen schema refuses. So each module's
 * exports are frozen here, shallowly: the sandbox then stops at them (it skips what is frozen),
 * nothing can replace an export, and the schemas stay as zod needs them; what zod changes in
 * them is its own memo of how to parse, the same for every run. These modules hold no other state
 * (test/workflows/preload checks that a run can leave nothing behind).
 * Pure: nothing here or below may import @temporalio/workflow, which has no context at preload.
 */
import * as agentInput from '../shared/agent-input';
import * as agentResult from '../shared/agent-result';
import * as approval from '../shared/approval/approval';
import * as argumentsHash from '../shared/approval/arguments-hash';
import * as chain from '../shared/chain';
import * as constants from '../shared/constants';
import * as continuedState from '../shared/continued-state';
import * as delegatedSpend from '../shared/delegated-spend';
import * as elicitation from '../shared/elicitation';
import * as fork from '../shared/fork';
import * as llmAnswer from '../shared/llm-answer';
import * as modelRegistry from '../shared/model-registry';
import * as modelSettings from '../shared/model-settings';
import * as modelWire from '../shared/model-wire';
import * as ownValue from '../shared/own-value';
import * as payloadSize from '../shared/payload-size';
import * as people from '../shared/people';
import * as plan from '../shared/plan';
import * as runEvent from '../shared/run-event';
import * as signedDecision from '../shared/signed-decision';
import * as subAgent from '../shared/sub-agent';
import * as tenantLimits from '../shared/tenant-limits';
import * as termination from '../shared/termination';
import * as toolSpec from '../shared/tool-spec';
import * as usage from '../shared/usage';

/** Every module the schema modules load, our own ones: each one's exports are frozen here. */
export const PRELOADED_SCHEMA_MODULES: readonly object[] = [
  agentInput, agentResult, approval, argumentsHash, chain, constants, continuedState, delegatedSpend, elicitation, fork, llmAnswer, modelRegistry,
  modelSettings, modelWire, ownValue, payloadSize, people, plan, runEvent, signedDecision, subAgent, tenantLimits, termination, toolSpec, usage,
];

for (const moduleExports of PRELOADED_SCHEMA_MODULES) Object.freeze(moduleExports);
