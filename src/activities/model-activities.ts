import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { FailureType, LiveReplyBuffer, type ModelCallInput, type ModelReply, type ModelRequest } from '../domain';
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
}: ModelActivityDeps) {
  const balancer = new EndpointBalancer(endpoints);
  const source = conversations ?? { cache: new ConversationCache(DEFAULT_CONVERSATION_CACHE_BYTES) };
  return {
    /**
     * One model call, its conversation whole or by reference (rebuilt before anything else).
     * Providers throw typed ApplicationFailures; Temporal retries the retryable ones.
     */
    async callModel(input: ModelCallInput): Promise<ModelReply> {
      const execution = Context.current().info.workflowExecution;
      // The cache request is the worker's to read; a provider never sees it.
      const {
        cache: cacheReq,
        holdLiveText,
        ...request
      } = await resolveConversation(
        input,
        execution && { workflowId: execution.workflowId, runId: execution.runId },
        source,
      );
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
          return reply;
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
        return safe;
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
