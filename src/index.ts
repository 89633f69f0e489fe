/** Thoughtline's public API for Node code: define tools, run workers, start and read agents. */
export * from './domain';
export {
  defineTool,
  InvalidToolDefinitionError,
  type ToolContext,
  type ToolDefinition,
  type ToolOptions,
} from './tools/define-tool';
export { ToolError, type ToolErrorOptions } from './tools/tool-error';
export { defineAgent } from './agents/define-agent';
export { AgentDefinitionError } from './agents/agent-definition-error';
export {
  bundlerOptionsWith,
  createAgentWorker,
  NO_STACK_TRACES_MODULE,
  PRELOAD_MODULES,
  WORKFLOW_BUNDLER_OPTIONS,
  WORKFLOWS_PATH,
  workerVersion,
  type AgentWorkerOptions,
} from './worker';
export {
  buildIdOf,
  listVersions,
  setCurrentVersion,
  type DeploymentVersionSummary,
  type WorkerDeployment,
} from './deployment';
export * from './client';
export * from './audit';
// OpenTelemetry, on when OTEL_* variables are set (docs/opentelemetry.md): the interceptors a prebuilt bundle needs.
export { telemetryBundleOptions } from './telemetry';
export { createActivities, type ActivityDeps, type AgentActivities, type ModelProvider } from './activities';
export {
  createAnthropicProvider,
  type AnthropicProviderOptions,
} from './activities/models/anthropic/anthropic-provider';
export { createAiSdkProvider, type AiSdkProviderOptions } from './activities/models/ai-sdk/ai-sdk-provider';
export type { ModelEndpoint } from './activities/models/endpoints/endpoint-balancer';
export { registryEndpoints, type RegistryEndpoints } from './activities/models/endpoints/registry-endpoints';
export { RegistryEndpointError } from './activities/models/endpoints/registry-endpoint-error';
export {
  createScriptedModel,
  say,
  useTool,
  type ScriptedModel,
  type ScriptedTurn,
} from './activities/models/scripted-model';
export { createOfflineModel } from './offline/offline-model';
// After the fact: sealed audit reports, fork and time travel (docs/auditing.md, docs/debugging-by-fork.md).
export { createDataConverter, FAILURE_CONVERTER_PATH } from './codec/data-converter';
export { generateEncryptionKey, parseEncryptionKeys, type EncryptionKeyRing } from './codec/encryption-keys';
export { EncryptionKeyError } from './codec/encryption-key-error';
export { PayloadDecryptionError } from './codec/payload-decryption-error';
// The connection createAgentWorker takes, so a worker file needs no import from @temporalio/worker.
export { NativeConnection } from '@temporalio/worker';
export { ensureTemporalServer, type TemporalServer } from './dev-server';
// Secured clusters and Temporal Cloud: the standard TEMPORAL_* variables and temporal.toml profiles (docs/operations.md).
export {
  connectClient,
  connectNative,
  endpointOf,
  queryBufferRetryOptions,
  thoughtlineGrpcInterceptors,
  loadConnectionSettings,
  TemporalConfigError,
  TemporalConnectionError,
  type ConnectionOverrides,
  type ConnectionSettings,
  type TemporalEndpoint,
} from './connection';
export { loadConfig, type Config } from './config';
export { chainQuery, statusQuery } from './workflows/messages';
export { createReplyRecorder, loadRecordedTurns, RecordedReply } from './activities/recording';
export { recordToolCalls, replayToolCalls, RecordedToolCall, ToolNotRecordedError } from './tools/recorded-tools';
export {
  createOpenAICompatibleProvider,
  type OpenAICompatibleProviderOptions,
} from './activities/models/openai/openai-compatible-provider';
export * from './activities/models/local';
export { OptionalPeerMissingError } from './packaging/optional-peers';
export type { ModelDelta } from './activities/model-activities';
export type { ModelCallHooks } from './domain/model/model-provider';
// `thoughtline serve` as a library: the HTTP API in front of an AgentClient, with your own authenticator.
export { createServer, type CreateServerOptions, type RunningServer } from './server/create-server';
export {
  createTokenFileAuthenticator,
  type TokenFileAuthenticatorOptions,
} from './server/auth/token-file-authenticator';
export { createCombinedAuthenticator } from './server/auth/combined-authenticator';
export { Identity, type Authenticator } from './server/auth/identity';
export { ApiError, type ApiErrorCode, type ApiIssue } from './server/api-error';
export type { DecisionSigner, SignedDecisionKind } from './server/signing/decision-signer';
// Authentication and signed decisions for `thoughtline serve` (docs/oidc.md, docs/signed-decisions.md).
export {
  createOidcAuthenticator,
  OIDC_ALGORITHMS,
  type OidcAuthenticatorOptions,
} from './server/auth/oidc-authenticator';
export { AuthError, type AuthFailure } from './server/auth/auth-error';
export { loadDecisionSigner } from './server/signing/load-decision-signer';
export { inMemorySigner } from './server/signing/keyring-signer';
export { KeyringError } from './server/signing/keyring-error';
export { generateSigningKey, type SigningKeyEntry } from './server/signing/generate-signing-key';
export {
  DecisionSignature,
  DEFAULT_SIGNATURE_MAX_AGE_MS,
  signDecision,
  verifyDecisionSignature,
  type SignedDecisionPolicy,
  type VerifyDecisionResult,
} from './domain/approval/signed-decision';
// Run events between workers and servers (docs/events.md).
export { createEventBus, type CreateEventBusOptions } from './events/create-event-bus';
export { createMemoryBus } from './events/memory-bus';
export type { EventBus } from './events/event-bus';
export { InvalidMcpConfigError, loadMcpConfig, parseMcpConfig } from './activities/mcp/load-mcp-config';
export type { McpConfig, McpConfigInit, McpServerConfig, McpToolPolicy } from './domain/tools/mcp-config';
export {
  InvalidA2aSettingsError,
  loadA2aSettings,
  parseA2aSettings,
  type A2aSettings,
  type A2aSettingsInit,
} from './activities/a2a/a2a-settings';
// Guardrails (docs/guardrails.md): checks of the task, tool results and the answer, each a visible step.
export { defineGuardrail, type GuardrailContext, type GuardrailDefinition } from './guardrails/define-guardrail';
export { piiGuardrail, type PiiGuardrailOptions } from './guardrails/pii-guardrail';
export {
  promptInjectionGuardrail,
  type PromptInjectionGuardrailOptions,
} from './guardrails/prompt-injection-guardrail';
// Evaluation: scorers
export { defineScorer, type ScorerDefinition, type ScorerInput, type ScorerVerdict } from './eval/define-scorer';
// Evaluation: datasets and reports
export { loadDataset, DatasetError, MAX_DATASET_BYTES, type LoadedDataset, type DatasetProblem } from './eval/dataset';
export {
  renderMarkdownReport,
  renderHtmlReport,
  writeReports,
  type ReportInput,
  type WrittenReports,
} from './eval/report';
export {
  summariseEvaluation,
  EvaluationSummary,
  VariantSummary,
  CriterionSummary,
  SEED_CRITERIA,
} from './domain/evaluation/stats';
export { compareWithBaseline, DatasetMismatchError, GateResult, type GateOptions } from './domain/evaluation/gate';
// The chain store (docs/store.md): open one to read chains and search runs without asking the runs.
export * from './domain/store';
export type { ChainStore, StoreScope } from './store/chain-store';
export { openChainStore } from './store/open-chain-store';
export { parseStoreSetting, type StoreSettings } from './store/store-settings';
export { StoreDatabaseError } from './store/store-errors';
export { NodeSqliteUnavailableError } from './activities/cache/node-sqlite-unavailable-error';
export {
  createChainStoreProjection,
  type ChainStoreProjection,
  type ChainStoreProjectionOptions,
} from './server/chain-store/chain-store-projection';
// Governance (docs/people-in-the-loop.md "Visibility policy"): the policy an organisation configures.
export { loadVisibilityPolicy, visibilityPolicyFromEnv, type LoadedPolicy } from './governance/load-visibility-policy';
export { VisibilityPolicyError } from './governance/visibility-policy-error';
