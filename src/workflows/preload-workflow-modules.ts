/**
 * Preloaded once per V8 context by the workflow bundle (PRELOAD_MODULES in worker.ts) and shared
 * by every run in it: every module the workflows load but their entry (workflows/index.ts, which
 * the SDK loads for each run). Without this each run would evaluate them again in its own module
 * scope: ~1,100 zod schema objects and a closure for every function, most of a cached run's
 * memory and part of every start.
 *
 * Sharing is safe because no module here keeps a run's state at module level. The pure ones (no
 * @temporalio/workflow, directly or below) hold schemas, tables and functions. The ones that use
 * the SDK declare messages and activity proxies at module level and call the SDK only from
 * functions; the SDK finds the current run on each call, which is how its own modules are shared
 * already (the bundle loads them before any run exists). What a run needs of its own (its state,
 * handlers, inboxes) runAgent makes for it and passes along.
 *
 * The sandbox deep-freezes what it preloads, but zod rewrites a schema's internals on its first
 * parse, which a frozen schema refuses. So each module's exports are frozen here instead (the
 * sandbox skips what is frozen): nothing can replace an export, and the plain data they hold
 * (tables, templates, lists, message definitions) is frozen all the way down; zod schemas, regular
 * expressions, functions, classes and the SDK's proxies are left as they are. The few module-level
 * values that change are the same for every run: a memo keyed by each run's own steps
 * (chain-view), the SQL parsers made on first use (approval-sql-rule), and regular expressions
 * reset before each use.
 * test/workflows/preload checks that a run can leave nothing behind and that a shared module's SDK
 * calls act on the run that makes them; test/unit/workflows/preload-list checks that this list
 * holds every module the workflows load, and that none keeps mutable state at module level.
 */
import * as agentDefinition from '../shared/agent-definition';
import * as answerGrounding from '../shared/answer-grounding';
import * as toolAudit from '../shared/tool-audit';
import * as grounding from './core/grounding';
import * as alternatives from './tools/alternatives';
import * as lostAttempt from './tools/lost-attempt';
import * as validateBeforeApproval from './tools/validate-before-approval';
import * as agentInput from '../shared/agent-input';
import * as agentResult from '../shared/agent-result';
import * as chain from '../shared/chain';
import * as chainLength from '../shared/chain-length';
import * as chainPage from '../shared/chain-page';
import * as chainView from '../shared/chain-view';
import * as constants from '../shared/constants';
import * as continuedState from '../shared/continued-state';
import * as reasoningSettings from '../shared/reasoning/reasoning-settings';
import * as reactTrace from '../shared/react-trace';
import * as conversationRef from '../shared/conversation-ref';
import * as counted from '../shared/counted';
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
import * as identifierName from '../shared/identifier-name';
import * as modelWire from '../shared/model-wire';
import * as ownValue from '../shared/own-value';
import * as payloadSize from '../shared/payload-size';
import * as people from '../shared/people';
import * as plan from '../shared/plan';
import * as agentContext from '../shared/agent-context';
import * as agentMemory from '../shared/planning/agent-memory';
import * as sharedPlanning from '../shared/planning/index';
import * as planVerdicts from '../shared/planning/plan-verdicts';
import * as runCacheSettings from '../shared/planning/run-cache-settings';
import * as cacheRequest from '../shared/planning/cache-request';
import * as cacheHitText from '../shared/planning/cache-hit-text';
import * as goalKey from '../shared/planning/goal-key';
import * as runTenant from '../shared/planning/run-tenant';
import * as workflowTemplate from '../shared/planning/workflow-template';
import * as pricing from '../shared/pricing';
import * as renderChainMarkdown from '../shared/render-chain-markdown';
import * as runEnding from '../shared/run-ending';
import * as runScores from '../shared/run-scores';
import * as runEvent from '../shared/run-event';
import * as runMessagePayloads from '../shared/run-message-payloads';
import * as searchAttributes from '../shared/search-attributes';
import * as secretPatterns from '../shared/secret-patterns';
import * as sensitiveFields from '../shared/sensitive-fields';
import * as shortenedText from '../shared/shortened-text';
import * as signedDecision from '../shared/signed-decision';
import * as subAgent from '../shared/sub-agent';
import * as summaryTemplate from '../shared/summary-template';
import * as tenantLimits from '../shared/tenant-limits';
import * as visibilityPolicy from '../shared/visibility/visibility-policy';
import * as viewerPreferences from '../shared/visibility/viewer-preferences';
import * as viewLens from '../shared/visibility/view-lens';
import * as narrowestLevel from '../shared/visibility/narrowest-level';
import * as preferenceCaps from '../shared/visibility/preference-caps';
import * as stepKind from '../shared/visibility/step-kind';
import * as hiddenText from '../shared/visibility/hidden-text';
import * as lensLevel from '../shared/visibility/lens-level';
import * as queryLens from '../shared/visibility/query-lens';
import * as progressSummary from '../shared/visibility/progress-summary';
import * as visibilityIndex from '../shared/visibility';
import * as termination from '../shared/termination';
import * as toolHeartbeat from '../shared/tool-heartbeat';
import * as toolResultNote from '../shared/tool-result-note';
import * as toolSpec from '../shared/tool-spec';
import * as usage from '../shared/usage';
import * as approval from '../shared/approval/approval';
import * as approvalPathRule from '../shared/approval/approval-path-rule';
import * as approvalPolicy from '../shared/approval/approval-policy';
import * as approvalSqlRule from '../shared/approval/approval-sql-rule';
import * as argumentsHash from '../shared/approval/arguments-hash';
import * as rulePattern from '../shared/approval/rule-pattern';
import * as ruleValues from '../shared/approval/rule-values';
import * as outputSchema from '../shared/output/output-schema';
import * as structuredAnswer from '../shared/output/structured-answer';
import * as answerMatchScorer from '../shared/eval/scorers/answer-match';
import * as argumentPredicateScorer from '../shared/eval/scorers/argument-predicate';
import * as coherenceScorer from '../shared/eval/scorers/coherence';
import * as costScorer from '../shared/eval/scorers/cost';
import * as forbiddenToolsScorer from '../shared/eval/scorers/forbidden-tools';
import * as iterationShareScorer from '../shared/eval/scorers/iteration-share';
import * as jsonValuesScorer from '../shared/eval/scorers/json-values';
import * as latencyScorer from '../shared/eval/scorers/latency';
import * as re2PatternScorer from '../shared/eval/scorers/re2-pattern';
import * as recoveryScorer from '../shared/eval/scorers/recovery';
import * as scoreScorer from '../shared/eval/scorers/score';
import * as terminationAccuracyScorer from '../shared/eval/scorers/termination-accuracy';
import * as trajectoryScorer from '../shared/eval/scorers/trajectory';
import * as activityProxies from './activity-proxies';
import * as agentWorkflow from './agent-workflow';
import * as messages from './messages';
import * as atRest from './core/at-rest';
import * as chainBuilder from './core/chain-builder';
import * as concurrency from './core/concurrency';
import * as failureMessage from './core/failure-message';
import * as injectedTools from './core/injected-tools';
import * as loopSignals from './core/loop-signals';
import * as modelExchange from './core/model-exchange';
import * as readMessage from './core/read-message';
import * as recordCalls from './core/record-calls';
import * as runEventObserver from './core/run-event-observer';
import * as runEventSink from './core/run-event-sink';
import * as runState from './core/run-state';
import * as sentConversations from './core/sent-conversations';
import * as signalPayload from './core/signal-payload';
import * as stableHash from './core/stable-hash';
import * as stallDetector from './core/stall-detector';
import * as toolVisibility from './core/tool-visibility';
import * as chargeUnknown from './delegation/charge-unknown';
import * as childInput from './delegation/child-input';
import * as delegationGuard from './delegation/delegation-guard';
import * as remoteAgentCall from './delegation/remote-agent-call';
import * as subAgentCall from './delegation/sub-agent-call';
import * as subAgentTools from './delegation/sub-agent-tools';
import * as subAgentTree from './delegation/sub-agent-tree';
import * as subBudget from './delegation/sub-budget';
import * as decideNextStep from './loop/decide-next-step';
import * as fewShot from './loop/few-shot';
import * as loopTurn from './loop/loop-turn';
import * as prompt from './loop/prompt';
import * as reactLoop from './loop/react-loop';
import * as stopConditions from './loop/stop-conditions';
import * as strategies from './loop/strategies';
import * as structuredFinal from './loop/structured-final';
import * as budget from './model/budget';
import * as modelCall from './model/model-call';
import * as modelTurn from './model/model-turn';
import * as summariseObservation from './model/summarise-observation';
import * as uniqueCallIds from './model/unique-call-ids';
import * as approvalGate from './people/approval-gate';
import * as approvalRequests from './people/approval-requests';
import * as askPerson from './people/ask-person';
import * as decisionSignatures from './people/decision-signatures';
import * as questionDesk from './people/question-desk';
import * as stallQuestion from './people/stall-question';
import * as steeringInbox from './people/steering-inbox';
import * as waitInWords from './people/wait-in-words';
import * as boundedText from './planning/bounded-text';
import * as contextPrompt from './planning/context-prompt';
import * as applyFallback from './planning/apply-fallback';
import * as goalCheck from './planning/goal-check';
import * as observer from './planning/observer';
import * as planFallbacks from './planning/plan-fallbacks';
import * as planKeeper from './planning/plan-keeper';
import * as runMemory from './memory/run-memory';
import * as agentMemoryMessages from './memory/agent-memory-messages';
import * as agentMemoryState from './memory/agent-memory-state';
import * as agentMemoryWorkflow from './memory/agent-memory-workflow';
import * as planCache from './cache/plan-cache';
import * as planPrompts from './planning/plan-prompts';
import * as quotedNotes from './planning/quoted-notes';
import * as planReply from './planning/plan-reply';
import * as planTemplates from './planning/plan-templates';
import * as planTracker from './planning/plan-tracker';
import * as planValidation from './planning/plan-validation';
import * as planner from './planning/planner';
import * as stepToolRule from './planning/step-tool-rule';
import * as taskChoice from './planning/task-choice';
import * as workflowPlan from './planning/workflow-plan';
import * as verdictCall from './planning/verdict-call';
import * as verdictPrompts from './planning/verdict-prompts';
import * as verdictReader from './planning/verdict-reader';
import * as reactParser from './react-text/react-parser';
import * as reactParserInput from './react-text/react-parser-input';
import * as reactParserScan from './react-text/react-parser-scan';
import * as reactTextPrompt from './react-text/react-text-prompt';
import * as confidence from './reasoning/confidence';
import * as thoughtCheck from './reasoning/thought-check';
import * as runAgentResult from './run/agent-result';
import * as carryOver from './run/carry-over';
import * as chainTail from './run/chain-tail';
import * as detailsWhenRead from './run/details-when-read';
import * as fitResult from './run/fit-result';
import * as forkStart from './run/fork-start';
import * as handlers from './run/handlers';
import * as interrupts from './run/interrupts';
import * as keepArchive from './run/keep-archive';
import * as preflight from './run/preflight';
import * as publishProgress from './run/publish-progress';
import * as resolveAgent from './run/resolve-agent';
import * as resultObservations from './run/result-observations';
import * as runAgent from './run/run-agent';
import * as runStatus from './run/run-status';
import * as evalMessages from './eval/eval-messages';
import * as caseAgentInput from './eval/case-agent-input';
import * as evalBudget from './eval/eval-budget';
import * as evaluationCaseWorkflow from './eval/evaluation-case-workflow';
import * as evaluationDetails from './eval/evaluation-details';
import * as evaluationShardWorkflow from './eval/evaluation-shard-workflow';
import * as evaluationWorkflow from './eval/evaluation-workflow';
import * as fitCaseResult from './eval/fit-case-result';
import * as fitEvaluationResult from './eval/fit-evaluation-result';
import * as unitPlan from './eval/unit-plan';
import * as unitPool from './eval/unit-pool';
import * as evalCase from '../shared/eval/eval-case';
import * as evaluationInput from '../shared/eval/evaluation-input';
import * as caseResult from '../shared/eval/case-result';
import * as scoringFacts from '../shared/eval/scoring-facts';
import * as scoreCase from '../shared/eval/score-case';
import * as runScoresMessages from './scores/run-scores-messages';
import * as runScoresState from './scores/run-scores-state';
import * as runScoresWorkflow from './scores/run-scores-workflow';
import * as rateWindows from './tenant-quota/rate-windows';
import * as tenantQuotaMessages from './tenant-quota/tenant-quota-messages';
import * as tenantQuotaRequests from './tenant-quota/tenant-quota-requests';
import * as tenantQuotaState from './tenant-quota/tenant-quota-state';
import * as tenantQuotaWorkflow from './tenant-quota/tenant-quota-workflow';
import * as tenantTokens from './tenant-quota/tenant-tokens';
import * as closeOpenCalls from './tools/close-open-calls';
import * as elicitationAnswer from './tools/elicitation-answer';
import * as elicitedRun from './tools/elicited-run';
import * as llmToolCall from './tools/llm-tool-call';
import * as toolCall from './tools/tool-call';
import * as toolTurn from './tools/tool-turn';
import * as validateToolCall from './tools/validate-tool-call';
import * as threadSchemas from '../shared/threads/thread-schemas';
import * as threadMessages from './threads/thread-messages';
import * as threadState from './threads/thread-state';
import * as threadTurnInput from './threads/thread-turn-input';
import * as threadWorkflow from './threads/thread-workflow';

/** Every module listed above: each one's exports are frozen here. */
export const PRELOADED_MODULES: readonly object[] = [
  // shared
  agentDefinition,
  agentInput,
  agentResult,
  chain,
  chainLength,
  chainPage,
  chainView,
  constants,
  continuedState,
  reasoningSettings,
  reactTrace,
  conversationRef,
  counted,
  delegatedSpend,
  elicitation,
  failureTypes,
  fork,
  sharedIndex,
  liveReply,
  llmAnswer,
  markdownEscape,
  modelCalls,
  modelRegistry,
  modelSettings,
  identifierName,
  modelWire,
  ownValue,
  payloadSize,
  people,
  plan,
  agentContext,
  agentMemory,
  sharedPlanning,
  planVerdicts,
  runCacheSettings,
  cacheRequest,
  cacheHitText,
  goalKey,
  runTenant,
  workflowTemplate,
  pricing,
  renderChainMarkdown,
  runEnding,
  runScores,
  runEvent,
  runMessagePayloads,
  searchAttributes,
  secretPatterns,
  sensitiveFields,
  shortenedText,
  signedDecision,
  subAgent,
  summaryTemplate,
  tenantLimits,
  visibilityPolicy,
  viewerPreferences,
  viewLens,
  narrowestLevel,
  preferenceCaps,
  stepKind,
  hiddenText,
  lensLevel,
  queryLens,
  progressSummary,
  visibilityIndex,
  termination,
  toolHeartbeat,
  toolResultNote,
  toolSpec,
  usage,
  // shared/approval
  approval,
  approvalPathRule,
  approvalPolicy,
  approvalSqlRule,
  argumentsHash,
  rulePattern,
  ruleValues,
  // shared/output
  outputSchema,
  structuredAnswer,
  // shared/eval: the scorers' Score and its limit (case-result), and the schemas it loads
  evalCase,
  evaluationInput,
  caseResult,
  // shared/eval/scorers (loaded by shared/eval/score-case)
  answerMatchScorer,
  argumentPredicateScorer,
  coherenceScorer,
  costScorer,
  forbiddenToolsScorer,
  iterationShareScorer,
  jsonValuesScorer,
  latencyScorer,
  re2PatternScorer,
  recoveryScorer,
  scoreScorer,
  terminationAccuracyScorer,
  trajectoryScorer,
  // workflows
  activityProxies,
  agentWorkflow,
  messages,
  // workflows/core
  atRest,
  chainBuilder,
  concurrency,
  failureMessage,
  injectedTools,
  loopSignals,
  modelExchange,
  readMessage,
  recordCalls,
  runEventObserver,
  runEventSink,
  runState,
  sentConversations,
  signalPayload,
  stableHash,
  stallDetector,
  toolVisibility,
  // workflows/delegation
  chargeUnknown,
  remoteAgentCall,
  childInput,
  delegationGuard,
  subAgentCall,
  subAgentTools,
  subAgentTree,
  subBudget,
  // workflows/loop
  decideNextStep,
  fewShot,
  loopTurn,
  prompt,
  reactLoop,
  stopConditions,
  strategies,
  structuredFinal,
  // workflows/model
  budget,
  modelCall,
  modelTurn,
  summariseObservation,
  uniqueCallIds,
  // workflows/people
  approvalGate,
  approvalRequests,
  askPerson,
  decisionSignatures,
  questionDesk,
  stallQuestion,
  steeringInbox,
  waitInWords,
  // workflows/memory, workflows/cache
  runMemory,
  agentMemoryMessages,
  agentMemoryState,
  agentMemoryWorkflow,
  planCache,
  // workflows/threads
  threadSchemas,
  threadMessages,
  threadState,
  threadTurnInput,
  threadWorkflow,
  // workflows/planning
  boundedText,
  contextPrompt,
  applyFallback,
  goalCheck,
  observer,
  planFallbacks,
  planKeeper,
  planPrompts,
  quotedNotes,
  planReply,
  planTemplates,
  planTracker,
  planValidation,
  planner,
  stepToolRule,
  taskChoice,
  workflowPlan,
  verdictCall,
  verdictPrompts,
  verdictReader,
  // workflows/react-text
  answerGrounding,
  toolAudit,
  grounding,
  alternatives,
  lostAttempt,
  validateBeforeApproval,
  reactParser,
  confidence,
  thoughtCheck,
  reactParserInput,
  reactParserScan,
  reactTextPrompt,
  // workflows/run
  runAgentResult,
  carryOver,
  chainTail,
  detailsWhenRead,
  fitResult,
  forkStart,
  handlers,
  interrupts,
  keepArchive,
  preflight,
  publishProgress,
  resolveAgent,
  resultObservations,
  runAgent,
  runStatus,
  // shared/eval
  scoringFacts,
  scoreCase,
  // workflows/eval
  evalMessages,
  caseAgentInput,
  evalBudget,
  evaluationCaseWorkflow,
  evaluationDetails,
  evaluationShardWorkflow,
  evaluationWorkflow,
  fitCaseResult,
  fitEvaluationResult,
  unitPlan,
  unitPool,
  // workflows/scores
  runScoresMessages,
  runScoresState,
  runScoresWorkflow,
  // workflows/tenant-quota
  rateWindows,
  tenantQuotaMessages,
  tenantQuotaRequests,
  tenantQuotaState,
  tenantQuotaWorkflow,
  tenantTokens,
  // workflows/tools
  closeOpenCalls,
  elicitationAnswer,
  elicitedRun,
  llmToolCall,
  toolCall,
  toolTurn,
  validateToolCall,
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
