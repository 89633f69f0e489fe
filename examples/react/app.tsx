// examples/react/app.tsx
import { useState } from 'react';
import {
  useApprovals,
  useChain,
  useRun,
  useRuns,
  useThoughtline,
  useThread,
  type ReasoningStep,
} from 'thoughtline/react';

export function App() {
  const client = useThoughtline();
  const { runs, refresh } = useRuns({ pageSize: 10 }, { refreshMs: 2_000 });
  const [runId, setRunId] = useState<string>();
  const [task, setTask] = useState('');

  async function start() {
    const started = await client.request<{ runId: string }>('POST', '/v1/runs', { body: { task } });
    setRunId(started.runId);
    refresh();
  }

  return (
    <main>
      <form onSubmit={(e) => (e.preventDefault(), void start())}>
        <input className="task" value={task} onChange={(e) => setTask(e.target.value)} placeholder="A task" />
        <button type="submit">Start</button>
      </form>
      <ul className="runs">
        {runs.map((r) => (
          // How it ended as the viewer says it (a withheld answer is no plain "completed"), and the model that answered.
          <li
            key={r.runId}
            data-run={r.runId}
            data-status={r.status}
            data-ending={r.ending?.label}
            data-model={r.model}
            onClick={() => setRunId(r.runId)}
          >
            {[r.ending?.label ?? r.status, r.task, r.model].filter(Boolean).join(' · ')}
          </li>
        ))}
      </ul>
      {runId && <Run runId={runId} />}
      <Chat />
    </main>
  );
}

function Run({ runId }: { runId: string }) {
  const { run } = useRun(runId);
  const { steps, liveText, ending, stream } = useChain(runId);
  const { pending, approve, reject, deciding } = useApprovals(runId);
  return (
    <section className="run" data-run={runId}>
      <p className="status" data-status={run?.status} data-stream={stream}>
        {run?.progress.line ?? 'connecting…'}
      </p>
      {pending.map((a) => (
        <div className="approval" key={a.callId}>
          {a.toolName} {JSON.stringify(a.arguments)}
          <button className="approve" disabled={deciding === a.callId} onClick={() => approve(a.callId)}>
            Approve
          </button>
          <button className="reject" disabled={deciding === a.callId} onClick={() => reject(a.callId, 'Not now')}>
            Reject
          </button>
        </div>
      ))}
      <ol className="steps">
        {steps.map((s) => (
          <li key={s.stepNumber} data-step={s.stepNumber} data-type={s.type}>
            {describe(s)}
          </li>
        ))}
      </ol>
      {liveText && <p className="live">{liveText}</p>}
      {ending && <p className="ending">{ending.answer ?? ending.summary}</p>}
    </section>
  );
}

/**
 * One line per step, as the view you may see shows it. A model call names the model asked; its
 * reply names the model that answered (`step.model`), which may be another (a fallback, the offline model).
 */
function describe(step: ReasoningStep): string {
  switch (step.type) {
    case 'thinking':
      return `Thought: ${step.thought}`;
    case 'tool_call':
      return step.toolCall.toolType === 'llm'
        ? `Model call (asked for ${step.toolCall.toolName})`
        : `Action: ${step.toolCall.toolName} ${JSON.stringify(step.toolCall.arguments)}`;
    case 'tool_result':
      return step.model
        ? `Reply from ${step.model}${step.toolResult.success ? '' : ' (failed)'}`
        : `Observation: ${JSON.stringify(step.toolResult.result ?? step.toolResult.error)}`;
    case 'synthesis':
      return `Answer: ${step.synthesis.conclusion}`;
  }
}

function Chat() {
  const { turns, busy, send, answer } = useThread('example-chat');
  const [text, setText] = useState('');
  return (
    <section className="chat">
      {turns.map((t) => (
        <div className="turn" key={t.turnId} data-state={t.state}>
          <p className="you">{t.text}</p>
          <p className="reply">{t.ending?.answer ?? t.reply}</p>
          {t.interrupts?.map((i) => (
            <p className="interrupt" key={i.id}>
              {i.message}
              <button onClick={() => answer(t, [{ interruptId: i.id, payload: { approved: true } }])}>Yes</button>
            </p>
          ))}
        </div>
      ))}
      <form onSubmit={(e) => (e.preventDefault(), send(text), setText(''))}>
        <input className="message" value={text} onChange={(e) => setText(e.target.value)} placeholder="A message" />
        <button type="submit" disabled={busy}>
          Send
        </button>
      </form>
    </section>
  );
}
