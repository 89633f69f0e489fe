/** Thoughtline's public API for Node code: define tools, run workers, start and read agents. */
export * from './shared';
export { defineTool, InvalidToolDefinitionError, type ToolContext, type ToolDefinition, type ToolOptions } from './tools/define-tool';
export { ToolError, type ToolErrorOptions } from './tools/tool-error';
export { createAgentWorker, PRELOAD_MODULES, WORKFLOW_BUNDLER_OPTIONS, WORKFLOWS_PATH, workerVersion, type AgentWorkerOptions } from './worker';
export { buildIdOf, listVersions, setCurrentVersion, type DeploymentVersionSummary, type WorkerDeployment } from './deployment';
export { billableActions, type BillableActions } from './client/billable-actions';
// OpenTelemetry, on when OTEL_* variables are set (docs/opentelemetry.md): the interceptors a prebuilt bundle needs.
export { telemetryBundleOptions } from './telemetry';
export { createActivities, type ActivityDeps, type AgentActivities, type ModelProvider } from './activities';
export { createAnthropicProvider, type AnthropicProviderOptions } from './activities/models/anthropic-provider';
export { createScriptedModel, say, useTool, type ScriptedModel, type ScriptedTurn } from './activities/models/scripted-model';
export { createOfflineModel } from './offline/offline-model';
export { AgentClient, type AgentClientOptions, type AgentHandle, type Decision, type FollowOptions, type StartOptions, type WatchEvent } from './client/agent-client';
export type { Actor } from './client/actor';
export type { AgentTreeNode } from './client/agent-tree';
export type { ExpandedChain } from './client/expanded-chain';
export type { LiveDelta } from './client/live-replies';
export { UpdateRefusedError } from './client/update-refused-error';
// After the fact: sealed audit reports, fork and time travel (docs/auditing.md, docs/debugging-by-fork.md).
export { AuditReport, AuditModelCall, buildAuditReport } from './client/audit-report';
export { auditReport, sealAll, type AuditBundle } from './client/commands/export';
export { sealReport, type ExportSigningKey } from './client/audit/seal-report';
export { verifyReport, allProblems, type ReportCheck, type SignatureCheck, type VerifyOptions } from './client/audit/verify-report';
export { ReportIntegrity } from './client/audit/report-integrity';
export { ForkError } from './client/fork/fork-error';
export type { ForkOptions } from './client/fork/fork-run';
export type { ForkChange, PlannedFork } from './client/fork/plan-fork';
export { chainAsOf, type ChainAsOf } from './client/fork/chain-as-of';
export { createDataConverter, FAILURE_CONVERTER_PATH } from './codec/data-converter';
export { generateEncryptionKey, parseEncryptionKeys, type EncryptionKeyRing } from './codec/encryption-keys';
export { EncryptionKeyError } from './codec/encryption-key-error';
export { PayloadDecryptionError } from './codec/payload-decryption-error';
// The connection createAgentWorker takes, so a worker file needs no import from @temporalio/worker.
export { NativeConnection } from '@temporalio/worker';
export { ensureSearchAttributes } from './client/search-attributes-setup';
export { ensureTemporalServer, type TemporalServer } from './dev-server';
export { loadConfig, type Config } from './config';
export { chainQuery, statusQuery } from './workflows/messages';
export { createReplyRecorder, loadRecordedTurns, RecordedReply } from './activities/recording';
export { recordToolCalls, replayToolCalls, RecordedToolCall, ToolNotRecordedError } from './tools/recorded-tools';
export { createOpenAICompatibleProvider, type OpenAICompatibleProviderOptions } from './activities/models/openai-compatible-provider';
export type { ModelDelta } from './activities/model-activities';
export type { ModelCallHooks } from './shared/model-provider';
// `thoughtline serve` as a library: the HTTP API in front of an AgentClient, with your own authenticator.
export { createServer, type CreateServerOptions, type RunningServer } from './client/server/create-server';
export { createTokenFileAuthenticator, type TokenFileAuthenticatorOptions } from './client/server/auth/token-file-authenticator';
export { createCombinedAuthenticator } from './client/server/auth/combined-authenticator';
export { Identity, type Authenticator } from './client/server/auth/identity';
export { ApiError, type ApiErrorCode, type ApiIssue } from './client/server/api-error';
export type { DecisionSigner, SignedDecisionKind } from './client/server/signing/decision-signer';
// Authentication and signed decisions for `thoughtline serve` (docs/oidc.md, docs/signed-decisions.md).
export { createOidcAuthenticator, OIDC_ALGORITHMS, type OidcAuthenticatorOptions } from './client/server/auth/oidc-authenticator';
export { AuthError, type AuthFailure } from './client/server/auth/auth-error';
export { loadDecisionSigner } from './client/server/signing/load-decision-signer';
export { KeyringError } from './client/server/signing/keyring-error';
export { generateSigningKey, type SigningKeyEntry } from './client/commands/signing-key';
export {
  DecisionSignature,
  DEFAULT_SIGNATURE_MAX_AGE_MS,
  signDecision,
  verifyDecisionSignature,
  type SignedDecisionPolicy,
  type VerifyDecisionResult,
} from './shared/signed-decision';
// Run events between workers and servers (docs/events.md).
export { createEventBus, type CreateEventBusOptions } from './events/create-event-bus';
export { createMemoryBus } from './events/memory-bus';
export type { EventBus } from './events/event-bus';
export { InvalidMcpConfigError, loadMcpConfig, parseMcpConfig } from './activities/mcp/load-mcp-config';
export type { McpConfig, McpConfigInit, McpServerConfig, McpToolPolicy } from './shared/mcp-config';
