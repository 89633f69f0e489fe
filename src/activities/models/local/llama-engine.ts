import os from 'node:os';
import { loadNodeLlamaCpp } from './load-node-llama-cpp';
import type { ChatHistoryItem, LlamaChat, LlamaGrammar, LlamaModel, Llama } from 'node-llama-cpp' with {
  'resolution-mode': 'import',
};

/** One GGUF model loaded in this process: what a call needs, behind one load. */
export interface LlamaEngine {
  llama: Llama;
  model: LlamaModel;
  chat: LlamaChat;
  contextSize: number;
  /** Grammars are compiled once per distinct schema (a run offers the same tools every turn). */
  grammarFor(schema: Record<string, unknown>): Promise<LlamaGrammar>;
  /** Tokens the chat template makes of this history: the call's input tokens. */
  promptTokens(history: ChatHistoryItem[]): number;
}

export interface LlamaEngineOptions {
  modelPath: string;
  threads?: number;
  contextSize?: number;
}

/**
 * Threads for evaluation: by default every core but one, which the worker's own event loop keeps
 * (heartbeats, the Temporal SDK), and never more than the cores. llama.cpp's threads spin at each
 * barrier, so a thread that loses its core stalls the rest: on 2 idle cores 1 thread made 75
 * tokens/s and 2 threads 45–54 (bench of 2026-11-25); node-llama-cpp's own default (at least 4)
 * took 26 s for a 10-token answer.
 */
export function threadCount(requested: number | undefined): number {
  const cores = os.availableParallelism();
  return requested === undefined ? Math.max(1, cores - 1) : Math.max(1, Math.min(Math.floor(requested), cores));
}

/** Default context: SmolLM2's own is 8,192 tokens; a smaller trained context wins. */
const DEFAULT_CONTEXT_SIZE = 8_192;

/**
 * Loads node-llama-cpp on first use (an optional peer dependency: `LocalModelRuntimeMissingError`
 * says how to install it), then the model and one context with one sequence. CPU only, prebuilt
 * binary only: nothing is compiled or downloaded here.
 */
export async function loadLlamaEngine(options: LlamaEngineOptions): Promise<LlamaEngine> {
  const { getLlama, LlamaChat, LlamaLogLevel } = await loadNodeLlamaCpp();
  const threads = threadCount(options.threads);
  const llama = await getLlama({
    gpu: false,
    build: 'never',
    maxThreads: threads,
    logLevel: LlamaLogLevel.error,
    progressLogs: false,
  });
  const model = await llama.loadModel({ modelPath: options.modelPath });
  const context = await model.createContext({
    contextSize: Math.min(options.contextSize ?? DEFAULT_CONTEXT_SIZE, model.trainContextSize),
    threads,
    sequences: 1,
  });
  const chat = new LlamaChat({ contextSequence: context.getSequence() });
  const grammars = new Map<string, Promise<LlamaGrammar>>();
  return {
    llama,
    model,
    chat,
    contextSize: context.contextSize,
    grammarFor(schema) {
      const key = JSON.stringify(schema);
      let grammar = grammars.get(key);
      if (grammar === undefined) {
        // The schema is built by toGrammarSchema, in the subset the grammar takes.
        grammar = llama.createGrammarForJsonSchema(schema as never);
        grammars.set(key, grammar);
        grammar.catch(() => grammars.delete(key));
      }
      return grammar;
    },
    promptTokens(history) {
      const { contextText } = chat.chatWrapper.generateContextState({ chatHistory: history });
      return contextText.tokenize(model.tokenizer).length;
    },
  };
}
