/**
 * Preloaded once per V8 context by the workflow bundle (PRELOAD_MODULES in worker.ts) and shared
 * by every run in it: every pure module the workflows load, the ones that do not import
 * @temporalio/workflow, directly or through another module. Without this each run would evaluate
 * them again in its own module scope: ~1,100 zod schema objects, and a closure for every function,
 * most of a cached run's memory and part of every start.
 *
 * The sandbox deep-freezes what it preloads so no run can leave state for the next, but zod
 * rewrites a schema's internals on its first parse, which a frozen schema refuses. So each module's
 * exports are frozen here instead (the sandbox skips what is frozen): nothing can replace an
 * export, and the plain data they hold (tables, templates, lists) is frozen all the way down; zod
 * schemas, regular expressions, functions and classes are left as they are, what zod changes in
 * them is its own memo of how to parse, the same for every run. The few module-level values that
 * change are the same for every run too: a memo keyed by each run's own steps (chain-view), the
 * SQL parsers made on first use (approval-sql-rule), and regular expressions reset before each use.
 * test/workflows/preload checks that a run can leave nothing behind;
 * test/unit/workflows/preload-list checks that this list holds every pure module the workflows
 * load, and only those.
 * Pure: nothing here or below may import @temporalio/workflow, which has no context at preload.
 */
import * as agentInput from '../shared/agent-input';
import * as agentResult from '../shared/agent-result';
import * as chainLength from '../shared/chain-length';
import * as chainPage from '../shared/chain-page';
import * as chainView from '../shared/chain-view';
import * as chain from '../shared/chain';
import * as constants from '../shared/constants';
import * as continuedState from '../shared/continued-state';
import * as conversationRef from '../shared/conversation-ref';
import * as delegatedSpend from '../shared/delegated-spend';
import * as elicitation from '../shared/elicitation';
import * as failureTypes from '../shared/failure-types';
import * as fork from '../shared/fork';
import * as sharedIndex from '../shared/index';
import * as liveReply from '../shared/live-reply';
import * as llmAnswer from '../shared/llm-answer';
import * as markdownEscape from '../shared/markdown-escape';
import * as modelCalls from '../shared/model-calls';
import * as modelRegistry from '../shared/model-registry';
import * as modelSettings from '../shared/model-settings';
import * as modelWire from '../shared/model-wire';
import * as ownValue from '../shared/own-value';
import * as payloadSize from '../shared/payload-size';
import * as people from '../shared/people';
import * as plan from '../shared/plan';
import * as pricing from '../shared/pricing';
import * as renderChainMarkdown from '../shared/render-chain-markdown';
import * as runEvent from '../shared/run-event';
import * as runMessagePayloads from '../shared/run-message-payloads';
import * as searchAttributes from '../shared/search-attributes';
import * as secretPatterns from '../shared/secret-patterns';
import * as sensitiveFields from '../shared/sensitive-fields';
import * as signedDecision from '../shared/signed-decision';
import * as subAgent from '../shared/sub-agent';
import * as summaryTemplate from '../shared/summary-template';
import * as tenantLimits from '../shared/tenant-limits';
import * as termination from '../shared/termination';
import * as toolResultNote from '../shared/tool-result-note';
import * as toolSpec from '../shared/tool-spec';
import * as usage from '../shared/usage';
import * as approvalPathRule from '../shared/approval/approval-path-rule';
import * as approvalPolicy from '../shared/approval/approval-policy';
import * as approvalSqlRule from '../shared/approval/approval-sql-rule';
import * as approval from '../shared/approval/approval';
import * as argumentsHash from '../shared/approval/arguments-hash';
import * as legacyApprovalPathRule from '../shared/approval/legacy-approval-path-rule';
import * as legacyApprovalPolicy from '../shared/approval/legacy-approval-policy';
import * as legacyApprovalSqlRule from '../shared/approval/legacy-approval-sql-rule';
import * as rulePattern from '../shared/approval/rule-pattern';
import * as ruleValues from '../shared/approval/rule-values';
import * as chainBuilder from './core/chain-builder';
import * as concurrency from './core/concurrency';
import * as injectedTools from './core/injected-tools';
import * as loopSignals from './core/loop-signals';
import * as modelExchange from './core/model-exchange';
import * as readMessage from './core/read-message';
import * as recordCalls from './core/record-calls';
import * as runEventObserver from './core/run-event-observer';
import * as runState from './core/run-state';
import * as sentConversations from './core/sent-conversations';
import * as stableHash from './core/stable-hash';
import * as stallDetector from './core/stall-detector';
import * as toolVisibility from './core/tool-visibility';
import * as childInput from './delegation/child-input';
import * as delegationGuard from './delegation/delegation-guard';
import * as subBudget from './delegation/sub-budget';
import * as decideNextStep from './loop/decide-next-step';
import * as prompt from './loop/prompt';
import * as stopConditions from './loop/stop-conditions';
import * as budget from './model/budget';
import * as uniqueCallIds from './model/unique-call-ids';
import * as approvalRequests from './people/approval-requests';
import * as decisionSignatures from './people/decision-signatures';
import * as steeringInbox from './people/steering-inbox';
import * as waitInWords from './people/wait-in-words';
import * as planPrompts from './planning/plan-prompts';
import * as planReply from './planning/plan-reply';
import * as planTemplates from './planning/plan-templates';
import * as planTracker from './planning/plan-tracker';
import * as planValidation from './planning/plan-validation';
import * as planner from './planning/planner';
import * as reactParserInput from './react-text/react-parser-input';
import * as reactParserScan from './react-text/react-parser-scan';
import * as reactParser from './react-text/react-parser';
import * as reactTextPrompt from './react-text/react-text-prompt';
import * as runAgentResult from './run/agent-result';
import * as carryOver from './run/carry-over';
import * as detailsWhenRead from './run/details-when-read';
import * as fitResult from './run/fit-result';
import * as forkStart from './run/fork-start';
import * as runStatus from './run/run-status';
import * as tenantQuotaRequests from './tenant-quota/tenant-quota-requests';
import * as tenantQuotaState from './tenant-quota/tenant-quota-state';
import * as elicitationAnswer from './tools/elicitation-answer';
import * as validateToolCall from './tools/validate-tool-call';

/** Every module listed above: each one's exports are frozen here. */
export const PRELOADED_MODULES: readonly object[] = [
  // shared
  agentInput, agentResult, chainLength, chainPage, chainView, chain, constants, continuedState,
  conversationRef, delegatedSpend, elicitation, failureTypes, fork, sharedIndex, liveReply, llmAnswer,
  markdownEscape, modelCalls, modelRegistry, modelSettings, modelWire, ownValue, payloadSize, people, plan,
  pricing, renderChainMarkdown, runEvent, runMessagePayloads, searchAttributes, secretPatterns,
  sensitiveFields, signedDecision, subAgent, summaryTemplate, tenantLimits, termination, toolResultNote,
  toolSpec, usage,
  // shared/approval
  approvalPathRule, approvalPolicy, approvalSqlRule, approval, argumentsHash, legacyApprovalPathRule,
  legacyApprovalPolicy, legacyApprovalSqlRule, rulePattern, ruleValues,
  // workflows/core
  chainBuilder, concurrency, injectedTools, loopSignals, modelExchange, readMessage, recordCalls,
  runEventObserver, runState, sentConversations, stableHash, stallDetector, toolVisibility,
  // workflows/delegation
  childInput, delegationGuard, subBudget,
  // workflows/loop
  decideNextStep, prompt, stopConditions,
  // workflows/model
  budget, uniqueCallIds,
  // workflows/people
  approvalRequests, decisionSignatures, steeringInbox, waitInWords,
  // workflows/planning
  planPrompts, planReply, planTemplates, planTracker, planValidation, planner,
  // workflows/react-text
  reactParserInput, reactParserScan, reactParser, reactTextPrompt,
  // workflows/run
  runAgentResult, carryOver, detailsWhenRead, fitResult, forkStart, runStatus,
  // workflows/tenant-quota
  tenantQuotaRequests, tenantQuotaState,
  // workflows/tools
  elicitationAnswer, validateToolCall,
];

/** Plain data all the way down (objects and arrays of the Object and Array prototypes); anything else is left as it is. */
function freezePlainData(value: unknown, seen = new WeakSet<object>()): void {
  if (typeof value !== 'object' || value === null || seen.has(value)) return;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) return;
  seen.add(value);
  for (const inner of Object.values(value)) freezePlainData(inner, seen);
  Object.freeze(value);
}

for (const moduleExports of PRELOADED_MODULES) {
  for (const value of Object.values(moduleExports)) freezePlainData(value);
  Object.freeze(moduleExports);
}
