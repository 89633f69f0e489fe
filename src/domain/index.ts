export * from './agents/agent-definition';
export * from './agents/example-from-chain';
export * from './run/agent-input';
export * from './output/output-schema';
export * from './output/structured-answer';
export * from './model/reasoning-settings';
export * from './run/agent-result';
export * from './run/budget-pause';
export * from './chain/answer-grounding';
export * from './chain/chain';
export * from './chain/chain-length';
export * from './chain/chain-page';
export * from './text/shortened-text';
export * from './threads/conversation-ref';
export * from './model/model-calls';
export * from './run/constants';
export * from './run/failure-types';
export * from './model/model-wire';
export * from './run/search-attributes';
export * from './run/termination';
export * from './tools/tool-spec';
export * from './tools/elicitation';
export * from './tools/mcp-task';
export * from './model/usage';
export * from './chain/render-chain-markdown';
export * from './model/model-registry';
export * from './model/model-tier';
export { ModelPrice } from './model/model-settings';
export {
  ContextSummarySettings,
  DEFAULT_CONTEXT_SUMMARY_CHARS,
  MAX_CONTEXT_SUMMARY_CHARS,
  MIN_CONTEXT_SUMMARY_CHARS,
} from './model/context-summary';
export * from './model/live-reply';
export * from './run/run-event';
export * from './run/run-ending';
export * from './run/continued-state';
export * from './run/fork';
export * from './approval/approval';
export * from './identity/people';
export * from './approval/arguments-hash';
export * from './secrets/secret-patterns';
export * from './secrets/sensitive-fields';
export * from './visibility/summary-template';
export * from './chain/chain-view';
export * from './approval/approval-policy';
export * from './planning/plan';
export * from './planning';
export * from './run/agent-context';
export * from './agents/sub-agent';
export * from './agents/branching';
export * from './agents/remote-chain';
export * from './agents/chain-artifact';
export * from './agents/delegated-spend';
export * from './model/llm-answer';
export * from './model/consensus-summary';
export * from './chain/react-trace';
export * from './visibility';
