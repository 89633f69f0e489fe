// What the run page knows of a chain: steps by number (each once, however it arrived: a page,
// the stream, a resend after a reconnect), the model text still arriving and running tools'
// progress. Pure, no DOM.

export function createChainState() {
  const steps = new Map();
  /** Live replies by `${activityId}#${attempt}`: { activityId, attempt, kind, text }. */
  const live = new Map();
  /** Running tools' latest progress by their call step's id: { key, stepId, toolName, attempt, seq, message, fraction }. */
  const progress = new Map();

  return {
    /** Adds steps; returns the new ones in step order (repeats are ignored). */
    addSteps(list) {
      const added = [];
      for (const step of list ?? []) {
        if (!step || typeof step.stepNumber !== 'number' || steps.has(step.stepNumber)) continue;
        steps.set(step.stepNumber, step);
        added.push(step);
      }
      return added.sort((a, b) => a.stepNumber - b.stepNumber);
    },
    /** Every step held, in step order. */
    all() {
      return [...steps.values()].sort((a, b) => a.stepNumber - b.stepNumber);
    },
    has(stepNumber) {
      return steps.has(stepNumber);
    },
    get size() {
      return steps.size;
    },
    /** The lowest and highest step numbers held, or 0 when none. */
    get first() {
      return steps.size ? Math.min(...steps.keys()) : 0;
    },
    get last() {
      return steps.size ? Math.max(...steps.keys()) : 0;
    },
    /** The latest step of a type held, or undefined. */
    lastOf(type) {
      let latest;
      for (const step of steps.values())
        if (step.type === type && (!latest || step.stepNumber > latest.stepNumber)) latest = step;
      return latest;
    },
    /** Step numbers by step id, so an answer's claims can link the step that supports them. */
    stepNumbers() {
      const numbers = new Map();
      for (const step of steps.values()) numbers.set(step.stepId, step.stepNumber);
      return numbers;
    },
    /** Tool names by correlation id, so a result can say which call it answers. */
    toolNames() {
      const names = new Map();
      for (const step of steps.values())
        if (step.type === 'tool_call') names.set(step.toolCall.correlationId, step.toolCall.toolName);
      return names;
    },
    /** The model that answered each model call, by correlation id (its reply's `model`; the call records the one asked). */
    answeringModels() {
      const models = new Map();
      for (const step of steps.values())
        if (step.type === 'tool_result' && typeof step.model === 'string' && step.toolResult?.success)
          models.set(step.toolResult.correlationId, step.model);
      return models;
    },
    /**
     * Applies a text_delta event; returns the reply's block ({ key, kind, text }) after it.
     * `offset` says where the text starts in the whole reply: a repeat is dropped, an overlap
     * keeps only the new tail, a gap is marked with "…". A new attempt replaces the old one.
     */
    applyDelta(event) {
      const key = `${event.activityId}#${event.attempt}`;
      for (const [k, block] of live)
        if (block.activityId === event.activityId && block.attempt < event.attempt) live.delete(k);
      const block = live.get(key) ?? {
        key,
        activityId: event.activityId,
        attempt: event.attempt,
        kind: event.kind,
        text: '',
        length: 0,
      };
      const text = String(event.text ?? '');
      const offset = typeof event.offset === 'number' ? event.offset : block.length;
      if (offset + text.length <= block.length) return block;
      if (offset > block.length) {
        block.text += '…';
        block.length = offset;
      }
      block.text += text.slice(block.length - offset);
      block.length = offset + text.length;
      block.kind = event.kind;
      live.set(key, block);
      return block;
    },
    /** Drops every live reply (a step landed: the replies it came from are in the chain now). */
    clearLive() {
      const keys = [...live.keys()];
      live.clear();
      return keys;
    },
    get liveBlocks() {
      return [...live.values()];
    },
    /**
     * Applies a tool_progress event; returns the call's latest progress, or undefined for an event
     * without a call step. An older update of the same attempt (a lower seq) is ignored; a retry
     * (a higher attempt) starts again.
     */
    applyProgress(event) {
      if (!event || typeof event.stepId !== 'string' || typeof event.seq !== 'number') return undefined;
      const old = progress.get(event.stepId);
      const attempt = typeof event.attempt === 'number' ? event.attempt : 1;
      if (old && (old.attempt > attempt || (old.attempt === attempt && old.seq >= event.seq))) return old;
      const fraction =
        typeof event.fraction === 'number' && event.fraction >= 0 && event.fraction <= 1 ? event.fraction : undefined;
      const latest = {
        key: `progress:${event.stepId}`,
        stepId: event.stepId,
        toolName: String(event.toolName ?? ''),
        attempt,
        seq: event.seq,
        ...(typeof event.message === 'string' ? { message: event.message } : {}),
        ...(fraction === undefined ? {} : { fraction }),
      };
      progress.set(event.stepId, latest);
      return latest;
    },
    /** Drops the progress of calls that `added` steps answer (their results landed); returns its keys. */
    endProgress(added) {
      const keys = [];
      for (const step of added ?? []) {
        if (step?.type !== 'tool_result') continue;
        for (const [stepId, latest] of progress) {
          const call = [...steps.values()].find((s) => s.stepId === stepId);
          if (call?.toolCall?.correlationId !== step.toolResult?.correlationId) continue;
          progress.delete(stepId);
          keys.push(latest.key);
        }
      }
      return keys;
    },
    /** Drops every progress (the run ended); returns its keys. */
    clearProgress() {
      const keys = [...progress.values()].map((p) => p.key);
      progress.clear();
      return keys;
    },
  };
}
