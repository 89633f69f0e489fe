import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import {
  contextText,
  FailureType,
  LiveReplyBuffer,
  type ModelCallInput,
  type ModelReply,
  type ModelRequest,
  type ToolSpec,
} from '../domain';
import type { ModelCallResult } from '../domain/model/model-call-result';
import { toModelTool } from '../domain/tools/offered-tool';
import { ConversationCache } from './conversation/conversation-cache';
import { rememberReply } from './conversation/remember-reply';
import { resolveConversation, type ConversationSource } from './conversation/resolve-conversation';
import type { ModelProvider } from '../domain/model/model-provider';
import { EndpointBalancer, type ModelEndpoint } from './models/endpoints/endpoint-balancer';
import { redactFailure, type Redactor } from '../tools/redact-secrets';
import { zeroUsage } from '../domain/model/usage';
import { isSideCall } from '../domain/model/side-call';
import { lookupCached, storeCached } from './cache/cached-result';
import type { RunCache } from './cache/run-cache';

/** A piece of a reply as it streams in. Delivered to watchers only; it never enters history. */
export interface ModelDelta {
  workflowId: string;
  /** Distinguishes calls (and retries) of one run. */
  activityId: string;
  attempt: number;
  kind: 'text' | 'thinking';
  /** Where `text` starts in this call's whole reply of its kind (UTF-16 code units). */
  offset: number;
  text: string;
}

export interface ModelActivityDeps {
  models: Readonly<Partial<Record<ModelRequest['provider'], ModelProvider>>>;
  /** Receives streamed deltas, e.g. to show tokens live; called synchronously, so it must return at once (what it throws is dropped). */
  onModelDelta?: (delta: ModelDelta) => void;
  /**
   * Receives every whole reply, e.g. to record a session (see recording.ts); must not throw. `side`:
   * a call of its own beside the loop's conversation (the planner's, a reflection's): see isSideCall.
   */
  onModelReply?: (workflowId: string, reply: ModelReply, call: { side: boolean }) => void;
  /** Applied to the reply's text and to live heartbeats before they leave the activity. */
  redact?: Redactor;
  /** Model governance: calls for which this returns false fail, non-retryably, before any I/O. */
  isModelAllowed?: (provider: ModelRequest['provider'], model: string) => boolean;
  /** How often a call heartbeats while it waits on a provider that sends nothing. Default 1 s. */
  heartbeatEveryMs?: number;
  /** Where calls by reference find their conversation; default a 64 MiB cache and no way to ask the run. */
  conversations?: ConversationSource;
  /** Named endpoints (registry entries with their own URL, key or region) that requests may name in `endpoints`. */
  endpoints?: Readonly<Record<string, ModelEndpoint>>;
  /** Where replies of runs that cache them (`cache.model`) are kept across runs; without it nothing is cached. */
  cache?: RunCache;
  /**
   * The worker's tool registry, for a call that describes the run's registered tools itself
   * (ModelRequest.describeTools): the describeTools activity's own function, failures included.
   */
  describeTools?: (names?: string[]) => Promise<ToolSpec[]>;
}

/** The conversations a worker keeps for calls by reference, by default. */
export const DEFAULT_CONVERSATION_CACHE_BYTES = 64 * 1024 * 1024;
/** The tool results' texts a worker keeps for calls that name them: a quarter of its conversations' budget. */
export const knownTextChars = (conversationCacheBytes: number): number => Math.floor(conversationCacheBytes / 4);

export function createModelActivities({
  models,
  onModelDelta,
  onModelReply,
  isModelAllowed,
  heartbeatEveryMs = 1_000,
  redact = (v) => v,
  conversations,
  endpoints = {},
  cache,
  describeTools,
}: ModelActivityDeps) {
  const balancer = new EndpointBalancer(endpoints);
  const source = conversations ?? { cache: new ConversationCache(DEFAULT_CONVERSATION_CACHE_BYTES) };
  return {
    /**
     * One model call, its conversation whole or by reference (rebuilt before anything else).
     * Providers throw typed ApplicationFailures; Temporal retries the retryable ones.
     */
    async callModel(input: ModelCallInput): Promise<ModelCallResult> {
      const execution = Context.current().info.workflowExecution;
      // The cache request, the live-text hold and the tools to describe are the worker's to read; a provider never sees them.
      const {
        cache: cacheReq,
        holdLiveText,
        describeTools: toDescribe,
        ...resolved
      } = await resolveConversation(
        input,
        execution && { workflowId: execution.workflowId, runId: execution.runId },
        source,
      );
      // The run's first call describes its registered tools here, offered first: no lookup before it.
      const described = toDescribe
        ? await beating(heartbeatEveryMs, () => describedTools(describeTools, toDescribe.names))
        : undefined;
      if (described) refuseTakenNames(described, resolved.tools);
      const request = described ? { ...resolved, tools: [...described.map(toModelTool), ...resolved.tools] } : resolved;
      // Kept whole, as the run will name it from its next call on (SentConversations.describedByWorker).
      if (described) source.texts?.remember(contextText({ system: request.system, tools: request.tools }));
      const withTools = (reply: ModelReply): ModelCallResult =>
        described ? { ...reply, describedTools: described } : reply;
      const routed = request.endpoints ? balancer.pick(request.endpoints) : undefined;
      if (request.endpoints && !routed) {
        const configured = balancer.names().join(', ') || '(none)';
        const message = `None of the endpoints ${request.endpoints.join(', ')} is on this worker (configured: ${configured}).`;
        throw ApplicationFailure.create({ type: FailureType.ModelProviderMissing, message, nonRetryable: true });
      }
      const provider = routed?.provider ?? models[request.provider];
      if (!provider) {
        const configured = Object.keys(models).join(', ') || '(none)';
        const message = `No "${request.provider}" model provider on this worker (configured: ${configured}).`;
        throw ApplicationFailure.create({ type: FailureType.ModelProviderMissing, message, nonRetryable: true });
      }
      // An endpoint calls its own model id (a group's entries may name one model differently).
      const sent = routed ? { ...request, model: routed.model } : request;
      if (isModelAllowed && !isModelAllowed(request.provider, sent.model)) {
        const message = `Model ${request.provider}/${sent.model} is not allowed by this worker's model registry.`;
        throw ApplicationFailure.create({ type: FailureType.ModelNotAllowed, message, nonRetryable: true });
      }
      // Keyed by the whole request as a provider would get it (by-reference parts resolved), before routing.
      const cached = cache && cacheReq ? { cache, req: cacheReq, key: modelCacheRequest(request) } : undefined;
      if (cached) {
        const started = Date.now();
        const found = lookupCached(cached.cache, cached.req, 'model', request.provider, cached.key);
        const stored = found && storedReply(found.value);
        if (found && stored) {
          const reply: ModelReply = {
            ...stored,
            // Nothing was called: nothing is paid, no tokens are spent.
            usage: zeroUsage(),
            costUsd: 0,
            durationMs: Date.now() - started,
            cacheHit: found.hit,
          };
          if ('conversation' in input && execution)
            rememberReply(source.cache, execution.workflowId, input.conversation.hash, reply.content);
          return withTools(reply);
        }
      }
      const ctx = Context.current();
      const { activityId, attempt } = ctx.info;
      // Standalone activities (no workflow) have no execution; the activity id then stands in.
      const workflowId = ctx.info.workflowExecution?.workflowId ?? activityId;
      // Every heartbeat carries the reply so far, which is how remote watchers see it stream.
      const live = new LiveReplyBuffer();
      // Heartbeat details are read by watchers: secrets the model writes are redacted there too.
      const beat = () => ctx.heartbeat(redact(live.snapshot()));
      const offsets = { text: 0, thinking: 0 };
      const publish = (kind: ModelDelta['kind']) => (text: string) => {
        // Held (output guardrails): neither events nor heartbeats carry text the guardrails have not read.
        if (holdLiveText) return;
        live.append(kind, text);
        const offset = offsets[kind];
        offsets[kind] += text.length;
        try {
          onModelDelta?.({ workflowId, activityId, attempt, kind, offset, text });
        } catch {
          // Watchers are best effort: a broken one must not fail the model call.
        }
      };
      // Heartbeats carry cancellation to us; a provider that is silent while it waits still gets them.
      const timer = setInterval(beat, heartbeatEveryMs);
      try {
        const reply = await provider.complete(sent, ctx.cancellationSignal, {
          heartbeat: beat,
          onTextDelta: publish('text'),
          onThinkingDelta: publish('thinking'),
        });
        const safe = withoutSecrets(routed ? { ...reply, endpoint: routed.name } : reply, redact);
        if ('conversation' in input && execution)
          rememberReply(source.cache, execution.workflowId, input.conversation.hash, safe.content);
        onModelReply?.(workflowId, safe, { side: isSideCall(request) });
        if (cached) storeCached(cached.cache, cached.req, 'model', request.provider, cached.key, safe, workflowId);
        return withTools(safe);
      } catch (err) {
        routed?.failed(err);
        // A provider's error can quote the request or the key: redacted like the reply, class and retry kept.
        throw redactFailure(err, redact);
      } finally {
        clearInterval(timer);
      }
    },
  };
}

/** The registered tools a call describes; a worker built without a registry has none to describe. */
function describedTools(
  describe: ModelActivityDeps['describeTools'],
  names: string[] | undefined,
): Promise<ToolSpec[]> {
  if (describe) return describe(names);
  if (!names?.length) return Promise.resolve([]);
  const message = `This worker has no tool registry to describe ${names.join(', ')}.`;
  throw ApplicationFailure.create({ type: FailureType.ToolNotRegistered, message, nonRetryable: true });
}

/** A registered tool named like one the run offers itself (an injected tool, an agent, the branching tool) is refused before any model sees two. */
function refuseTakenNames(described: readonly ToolSpec[], own: readonly { name: string }[]): void {
  const taken = described.find((spec) => own.some((tool) => tool.name === spec.name));
  if (!taken) return;
  const message = `A registered tool is named "${taken.name}", like a tool the run adds itself (${own.map((t) => t.name).join(', ')}); rename the tool, or give the run's own tool another name (finishToolName, giveUpToolName, questionToolName, branching.toolName, the agent catalogue).`;
  throw ApplicationFailure.create({ type: FailureType.InvalidAgentInput, message, nonRetryable: true });
}

/** Runs `work` while the activity heartbeats: an MCP server's listing may outlast the call's heartbeat timeout. */
async function beating<T>(everyMs: number, work: () => Promise<T>): Promise<T> {
  const ctx = Context.current();
  const timer = setInterval(() => ctx.heartbeat(), everyMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

/** What a cached reply is keyed by: everything that shapes the answer, not where it was routed or how it was sent. */
function modelCacheRequest(request: ModelRequest): Omit<ModelRequest, 'cache'> {
  const { provider, model, system, messages, tools, toolChoice, maxTokens, stopSequences, sampling, endpoints } =
    request;
  return { provider, model, system, messages, tools, toolChoice, maxTokens, stopSequences, sampling, endpoints };
}

/** A stored reply, or undefined when the entry is not one (then the model is called). */
function storedReply(value: unknown): ModelReply | undefined {
  const v = value as Partial<ModelReply> | null;
  if (v === null || typeof v !== 'object' || !Array.isArray(v.content) || typeof v.stopReason !== 'string')
    return undefined;
  if (typeof v.model !== 'string') return undefined;
  return v as ModelReply;
}

/**
 * The reply with secrets redacted from its text blocks, before it enters history and the chain.
 * Thinking blocks are signed by the provider and sent back verbatim, so they are left alone; the
 * chain's views redact them.
 */
function withoutSecrets(reply: ModelReply, redact: Redactor): ModelReply {
  return {
    ...reply,
    content: reply.content.map((b) => (b.type === 'text' ? { ...b, text: String(redact(b.text)) } : b)),
  };
}
