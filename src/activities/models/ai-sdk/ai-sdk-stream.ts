import { ApplicationFailure } from '@temporalio/common';
import { FailureType, type AssistantBlock, type ModelRequest } from '../../../domain';
import type { ModelCallHooks } from '../../../domain/model/model-provider';
import { messageChain } from '../anthropic/anthropic-classify-error';
import { parseArguments } from '../openai/openai-mapping';
import { classifyStreamError } from './ai-sdk-classify-error';
import type { AiSdkFinishReason, AiSdkProviderMetadata, AiSdkStreamPart, AiSdkUsage } from './ai-sdk-types';
import { refuseUnsupportedSettings } from './ai-sdk-unsupported-settings';

/** What a finished stream said, before stop reason, usage and cost are mapped. */
export interface StreamedReply {
  content: AssistantBlock[];
  finishReason: AiSdkFinishReason;
  usage: AiSdkUsage;
  /** The model that answered, when the provider said (`response-metadata`). */
  modelId: string | undefined;
}

interface StreamContext {
  providerName: string;
  /** Aborting it ends the read at once, even if the model never ends its stream. */
  signal: AbortSignal;
  request: Pick<ModelRequest, 'model' | 'sampling' | 'stopSequences'>;
  hooks: ModelCallHooks;
}

/** A block being written; reasoning keeps its signature or redacted data from provider metadata. */
type Draft =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string; signature: string; redactedData?: string }
  | AssistantBlock;

/**
 * Reads one `doStream` result to its `finish` part. Every part heartbeats; text and reasoning
 * deltas go to the hooks for live watchers only. Fails the call (typed, with a retry decision) on
 * an `unsupported` warning for a setting the call asked for, an `error` part, a stream that breaks
 * or ends without `finish`, and a finish the provider marks `interrupted` or `error`. Tool calls
 * the provider ran itself (`providerExecuted`) are not Thoughtline's to run and are left out.
 */
export async function readModelStream(
  stream: ReadableStream<AiSdkStreamPart>,
  context: StreamContext,
): Promise<StreamedReply> {
  const drafts: Draft[] = [];
  const open = new Map<string, OpenDraft>();
  let finish: Extract<AiSdkStreamPart, { type: 'finish' }> | undefined;
  let modelId: string | undefined;
  let parts = 0;
  const reader = stream.getReader();
  const stopReading = () => void reader.cancel(context.signal.reason).catch(() => undefined);
  context.signal.addEventListener('abort', stopReading, { once: true });
  try {
    for (;;) {
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await reader.read();
      } catch (error) {
        throw brokenStream(error, parts, context.providerName);
      }
      if (next.done || context.signal.aborted) break;
      const part = next.value;
      parts += 1;
      context.hooks.heartbeat?.();
      switch (part.type) {
        case 'stream-start':
          refuseUnsupportedSettings(context.providerName, context.request, part.warnings);
          break;
        case 'response-metadata':
          if (part.modelId) modelId = part.modelId;
          break;
        case 'text-start':
        case 'text-delta': {
          const draft = draftFor(open, drafts, `text:${part.id}`, () => ({ type: 'text', text: '' }));
          if (part.type === 'text-delta' && part.delta !== '') {
            draft.text += part.delta;
            context.hooks.onTextDelta?.(part.delta);
          }
          break;
        }
        case 'reasoning-start':
        case 'reasoning-delta':
        case 'reasoning-end': {
          const draft = draftFor(open, drafts, `reasoning:${part.id}`, () => ({
            type: 'reasoning',
            text: '',
            signature: '',
          }));
          if (draft.type !== 'reasoning') break;
          keepSignature(draft, part.providerMetadata);
          if (part.type === 'reasoning-delta' && part.delta !== '') {
            draft.text += part.delta;
            context.hooks.onThinkingDelta?.(part.delta);
          }
          break;
        }
        case 'tool-call':
          if (part.providerExecuted === true) break;
          drafts.push({
            type: 'tool_use',
            id: part.toolCallId,
            name: part.toolName,
            input: parseArguments(part.input),
          });
          break;
        case 'error':
          throw classifyStreamError(part.error, context.providerName);
        case 'finish':
          finish = part;
          break;
        default:
          // Tool-input deltas (the whole call follows as `tool-call`), sources, files, raw chunks.
          break;
      }
    }
  } finally {
    context.signal.removeEventListener('abort', stopReading);
    // Releases the connection when this reader stops early (a refusal, an error part).
    reader.cancel().catch(() => undefined);
  }
  if (finish === undefined)
    throw incomplete(context.providerName, `the stream ended after ${parts} parts without a finish`);
  if (finish.finishReason.unified === 'interrupted' || finish.finishReason.unified === 'error') {
    throw incomplete(
      context.providerName,
      `the provider ended the stream as ${finish.finishReason.unified}` +
        (finish.finishReason.raw ? ` (${finish.finishReason.raw})` : ''),
    );
  }
  return { content: drafts.flatMap(toBlock), finishReason: finish.finishReason, usage: finish.usage, modelId };
}

type OpenDraft = Extract<Draft, { type: 'text' | 'reasoning' }>;

/** The block a `text-*` or `reasoning-*` part belongs to, by its id; created at its first part. */
function draftFor(open: Map<string, OpenDraft>, drafts: Draft[], key: string, create: () => OpenDraft): OpenDraft {
  const known = open.get(key);
  if (known !== undefined) return known;
  const draft = create();
  open.set(key, draft);
  drafts.push(draft);
  return draft;
}

/**
 * Providers put a reasoning block's signature (or its encrypted form) in their own metadata
 * namespace: `{ anthropic: { signature } }`, `{ anthropic: { redactedData } }`; the namespace does
 * not matter here, the call options put it back under the answering provider's.
 */
function keepSignature(
  draft: Extract<Draft, { type: 'reasoning' }>,
  metadata: AiSdkProviderMetadata | undefined,
): void {
  for (const entry of Object.values(metadata ?? {})) {
    if (typeof entry.signature === 'string') draft.signature = entry.signature;
    if (typeof entry.redactedData === 'string') draft.redactedData = entry.redactedData;
  }
}

function toBlock(draft: Draft): AssistantBlock[] {
  if (draft.type === 'text') return draft.text === '' ? [] : [{ type: 'text', text: draft.text }];
  if (draft.type !== 'reasoning') return [draft];
  if (draft.redactedData !== undefined) return [{ type: 'redacted_thinking', data: draft.redactedData }];
  if (draft.text === '' && draft.signature === '') return [];
  return [{ type: 'thinking', thinking: draft.text, signature: draft.signature }];
}

/** The stream broke while being read (a reset, a cut body): retryable, a new attempt asks again. */
function brokenStream(error: unknown, parts: number, providerName: string): ApplicationFailure {
  if (error instanceof ApplicationFailure) return error;
  if (error instanceof Error && error.name.startsWith('AI_')) return classifyStreamError(error, providerName);
  const problem = error instanceof Error ? messageChain(error) : String(error);
  return incomplete(providerName, `the stream broke after ${parts} parts: ${problem}`);
}

const incomplete = (providerName: string, problem: string): ApplicationFailure =>
  ApplicationFailure.create({
    type: FailureType.ModelStreamIncomplete,
    nonRetryable: false,
    message: `${providerName} stream incomplete: ${problem}`,
  });
