import type { AnswerClaim, ReasoningStep, ToolType } from '../domain';
import { answerLabel, confidenceText } from '../domain/chain/answer-grounding';
import { renderUnavailable } from '../domain/chain/render-unavailable';
import type { AuditApproval, AuditIntervention, AuditReport } from './audit-report';
import { counted } from '../domain/text/counted';

type ResultStep = Extract<ReasoningStep, { type: 'tool_result' }>;

const clip = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
/** Every character that could open inline markdown (or math, or HTML) is backslash-escaped. */
const escape = (text: string): string => text.replace(/[\\`*_[\]<>|~&$]/g, '\\$&');
/** Clipped, escaped, on one line: safe anywhere inside a line of the document. */
const inline = (text: string, max = 300): string => escape(clip(text.replace(/\s*\r?\n\s*/g, ' '), max));
/** Like `inline`, but keeps line breaks as `<br>` so a table row stays one line. */
const cell = (text: string, max = 300): string => escape(clip(text.trim(), max)).replace(/\r?\n/g, '<br>');
const valueText = (value: unknown): string =>
  typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
/** `key=value, …` for an object (e.g. `applicant_id=78291`), the value itself otherwise. */
const pairs = (value: unknown): string =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? Object.entries(value)
        .map(([k, v]) => `${k}=${clip(valueText(v), 80)}`)
        .join(', ')
    : valueText(value);

const grouped = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const usd = (n: number): string => `$${n.toFixed(4)}`;

function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes} min ${seconds % 60} s` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

const table = (head: string[], rows: string[][]): string[] => [
  `| ${head.join(' | ')} |`,
  `| ${head.map(() => '---').join(' | ')} |`,
  ...rows.map((r) => `| ${r.join(' | ')} |`),
];

/** A compliance report for people: summary, decisions by people, the reasoning chain, the answer. */
export function renderAuditMarkdown(report: AuditReport): string {
  return [
    `# Audit report: ${inline(report.run.task, 200)}`,
    '',
    `Agent **${inline(report.run.agentName, 100)}**, workflow ${inline(report.run.workflowId, 200)}.`,
    '',
    '## Summary',
    '',
    ...summary(report),
    '',
    '## Decisions by people',
    '',
    '### Approvals',
    '',
    ...(report.approvals.length === 0 ? ['No approvals were needed.'] : approvalTable(report.approvals)),
    '',
    '### Interventions',
    '',
    ...(report.interventions.length === 0
      ? ['No steering, answers or cancels from people.']
      : interventionTable(report.interventions)),
    '',
    ...scoresSection(report),
    '## Reasoning chain',
    '',
    ...(report.stepsUnavailable ? [escape(renderUnavailable(report.stepsUnavailable)), ''] : []),
    ...reasoningChain(report),
    '',
    `## ${escape(answerHeading(report))}`,
    '',
    ...finalAnswer(report),
    '',
    '---',
    '',
    ...footer(report),
    '',
  ].join('\n');
}

function summary(report: AuditReport): string[] {
  const { run, outcome, costs } = report;
  const u = costs.usage;
  const waiting =
    outcome.state === 'running' && outcome.live?.waitingFor
      ? `, waiting for ${inline(outcome.live.waitingFor, 120)}`
      : '';
  const rows: [string, string][] = [
    [
      'Outcome',
      outcome.state === 'finished'
        ? outcome.success
          ? 'Succeeded'
          : 'Did not succeed'
        : `Running (${outcome.chainStatus}${waiting})`,
    ],
    ['Termination reason', outcome.state === 'finished' ? outcome.terminationReason : 'none yet (still running)'],
    ...(outcome.state === 'finished' && outcome.error ? [['Error', cell(outcome.error)] as [string, string]] : []),
    ['Iterations', String(run.iterations)],
    ['Duration', formatDuration(run.durationMs)],
    [
      'Tokens',
      `${grouped(costs.totalTokens)} (${grouped(u.inputTokens)} in, ${grouped(u.outputTokens)} out, ${grouped(u.cacheReadTokens)} cache read, ${grouped(u.cacheWriteTokens)} cache write)`,
    ],
    ['Cost (USD)', usd(costs.costUsd)],
    ['Model calls', String(costs.modelCalls)],
    ['Tool calls', String(costs.toolCalls)],
    ...(run.caller
      ? [
          [
            'Started by',
            cell(`${run.caller.id}${run.caller.roles.length ? ` (${run.caller.roles.join(', ')})` : ''}`),
          ] as [string, string],
        ]
      : []),
    ...(run.tenant ? [['Tenant', cell(run.tenant)] as [string, string]] : []),
    ...(run.forkedFrom
      ? [['Forked from', cell(`${run.forkedFrom.workflowId} at step ${run.forkedFrom.atStep}`)] as [string, string]]
      : []),
    ['Started', cell(run.startedAt)],
    ['Completed', run.completedAt ? cell(run.completedAt) : 'not yet'],
  ];
  const lines = table(['Item', 'Value'], rows);
  if (costs.totalsFrom !== 'result')
    lines.push(
      '',
      `_Totals are from the ${costs.totalsFrom === 'live_status' ? 'live status' : 'visible steps'}; the run has not finished._`,
    );
  if (costs.byModel.length === 0) return lines;
  return [
    ...lines,
    '',
    '### Cost by model',
    '',
    ...table(
      ['Model', 'Calls', 'Failed', 'Input tokens', 'Output tokens', 'Cache read', 'Cache write', 'Cost (USD)'],
      costs.byModel.map((m) => [
        cell(m.model, 100),
        String(m.calls),
        String(m.failedCalls),
        grouped(m.usage.inputTokens),
        grouped(m.usage.outputTokens),
        grouped(m.usage.cacheReadTokens),
        grouped(m.usage.cacheWriteTokens),
        usd(m.costUsd),
      ]),
    ),
  ];
}

const decisionLabel: Record<AuditApproval['decision'], string> = {
  approved: 'Approved',
  rejected: 'Rejected',
  timed_out: 'Timed out',
  pending: 'Pending',
};

function approvalTable(approvals: AuditApproval[]): string[] {
  return table(
    ['Tool', 'Arguments', 'Required because', 'Decision', 'By', 'Roles', 'When', 'Waited', 'Reason / note'],
    approvals.map((a) => [
      cell(a.toolName, 100),
      cell(pairs(a.arguments), 200),
      cell(a.requiredBecause, 200),
      decisionLabel[a.decision],
      a.decidedBy ? cell(a.decidedBy.id, 100) : '—',
      a.decidedBy && a.decidedBy.roles.length > 0 ? cell(a.decidedBy.roles.join(', '), 100) : '—',
      a.decidedAt ? cell(a.decidedAt) : `requested ${cell(a.requestedAt)}`,
      `${formatDuration(a.waitedMs)}${a.decision === 'pending' ? ' so far' : ''}`,
      a.note ? cell(a.note) : '—',
    ]),
  );
}

const interventionLabel: Record<AuditIntervention['kind'], string> = {
  steer: 'Steering',
  answer: 'Answer',
  cancel: 'Cancel',
  budget: 'Budget raise or stop',
};

/** Outcome scores, when the run has any (or they could not be read); nothing at all otherwise. */
function scoresSection(report: AuditReport): string[] {
  if (!report.scores?.length && !report.scoresUnavailable) return [];
  const rows = (report.scores ?? []).map((s) => [
    cell(s.name, 64),
    cell(String(s.value), 40),
    cell(s.by, 100),
    cell(s.at),
    s.source !== undefined ? cell(s.source, 64) : '',
    s.comment !== undefined ? cell(s.comment) : '',
  ]);
  return [
    '## Scores',
    '',
    ...(rows.length ? table(['Name', 'Value', 'By', 'When', 'Source', 'Comment'], rows) : []),
    ...(report.scoresUnavailable ? [...(rows.length ? [''] : []), inline(report.scoresUnavailable)] : []),
    '',
  ];
}

function interventionTable(interventions: AuditIntervention[]): string[] {
  return table(
    ['Step', 'Kind', 'By', 'When', 'What'],
    interventions.map((i) => [
      String(i.stepNumber),
      interventionLabel[i.kind],
      cell(i.by, 100),
      cell(i.timestamp),
      i.text !== undefined ? cell(i.text) : '(hidden in this view)',
    ]),
  );
}

const toolTag: Record<Exclude<ToolType, 'llm'>, string> = {
  external: 'TOOL',
  custom: 'TOOL',
  skill: 'SKILL',
  sub_agent: 'SUB-AGENT',
  database: 'DATABASE',
  file_system: 'FILE SYSTEM',
  guardrail: 'GUARDRAIL',
};
const personTag: Record<NonNullable<ReasoningStep['fromPerson']>['kind'], string> = {
  steer: 'STEERING',
  answer: 'ANSWER',
  approval: 'APPROVAL',
  cancel: 'CANCEL',
  budget: 'BUDGET',
};
/** Steps with a `summary` but no summary text still show in full, as in the chain view. */
const isShown = (s: ReasoningStep): boolean =>
  s.visibility.level === 'full' || (s.visibility.level === 'summary' && !s.visibility.summary);
const bySuffix = (s: ReasoningStep): string =>
  s.fromPerson ? ` (${s.fromPerson.kind} by ${inline(s.fromPerson.by, 100)})` : '';

interface ChainContext {
  numberOf: Map<string, number>;
  approvalOf: Map<string, AuditApproval>;
}

/** One numbered entry per step, except that a shown call and its shown result share one entry. */
function reasoningChain(report: AuditReport): string[] {
  const { steps } = report;
  const context: ChainContext = {
    numberOf: new Map(steps.map((s) => [s.stepId, s.stepNumber])),
    approvalOf: new Map(report.approvals.map((a) => [a.stepId, a])),
  };
  const merged = new Set<string>();
  const entries: string[] = [];
  for (const step of steps) {
    if (merged.has(step.stepId)) continue;
    const reply =
      step.type === 'tool_call' && isShown(step)
        ? steps.find(
            (s): s is ResultStep =>
              s.type === 'tool_result' &&
              s.stepNumber > step.stepNumber &&
              s.toolResult.correlationId === step.toolCall.correlationId &&
              isShown(s),
          )
        : undefined;
    if (reply) merged.add(reply.stepId);
    const label = reply ? `Steps ${step.stepNumber}–${reply.stepNumber}` : `Step ${step.stepNumber}`;
    entries.push(`${entries.length + 1}. ${label}: ${stepText(step, reply, context)}`);
  }
  const hidden =
    report.view.hiddenSteps > 0
      ? [
          `_${counted(report.view.hiddenSteps, 'step')} ${report.view.hiddenSteps === 1 ? 'is' : 'are'} hidden in this view._`,
          '',
        ]
      : [];
  return [...hidden, ...(entries.length === 0 ? ['No steps were recorded.'] : entries)];
}

const approvalNote = (a: AuditApproval | undefined): string =>
  !a
    ? ''
    : a.decidedBy
      ? ` (${decisionLabel[a.decision].toLowerCase()} by ${inline(a.decidedBy.id, 100)})`
      : ` (approval ${decisionLabel[a.decision].toLowerCase()})`;

function stepText(step: ReasoningStep, reply: ResultStep | undefined, context: ChainContext): string {
  if (step.visibility.level === 'hidden') return `(hidden ${step.type.replace('_', ' ')})`;
  if (!isShown(step)) return inline(step.visibility.summary ?? '');
  switch (step.type) {
    case 'thinking':
      return `[${step.fromPerson ? `${personTag[step.fromPerson.kind]} by ${inline(step.fromPerson.by, 100)}` : 'THINKING'}] "${inline(step.thought)}"${confidenceSuffix(step.confidence)}`;
    case 'tool_call': {
      const call = step.toolCall;
      if (call.toolType === 'llm') {
        const note = typeof call.arguments['note'] === 'string' ? ` (${inline(call.arguments['note'], 120)})` : '';
        return `[MODEL] ${modelText(reply ?? step, reply)}${note}`;
      }
      const args = Object.keys(call.arguments).length > 0 ? ` ${inline(pairs(call.arguments), 200)}` : '';
      const outcome = reply ? resultText(reply, context) : '(no result yet)';
      return `[${toolTag[call.toolType]}: ${inline(call.toolName, 100)}]${args}${approvalNote(context.approvalOf.get(step.stepId))}${bySuffix(step)} ${outcome}`;
    }
    case 'tool_result':
      return step.model !== undefined ? `[MODEL] ${modelText(step, step)}` : `[RESULT] ${resultText(step, context)}`;
    case 'synthesis': {
      const sources = step.synthesis.sources.map((id) => context.numberOf.get(id)).filter((n) => n !== undefined);
      const judged = answerLabel(step.synthesis);
      const tag = judged === undefined ? 'FINAL ANSWER' : judged.title.toUpperCase();
      const behind =
        sources.length > 0
          ? ` (drawing on steps ${sources.join(', ')})`
          : judged && judged.kind !== 'final'
            ? ' (no tool result behind it)'
            : '';
      return `[${inline(tag, 100)}] "${inline(step.synthesis.conclusion)}"${behind}${confidenceSuffix(step.synthesis.confidence)}`;
    }
  }
}

/** `name · in→out tokens · $cost`, from the reply when there is one. */
function modelText(step: ReasoningStep, reply: ResultStep | undefined): string {
  const name = inline(step.model ?? (step.type === 'tool_call' ? step.toolCall.toolName : 'model'), 100);
  if (!reply) return `${name} · no reply yet`;
  if (!reply.toolResult.success) return `${name} · failed: ${inline(reply.toolResult.error ?? 'no reply', 200)}`;
  const u = reply.usage;
  return `${name} · ${u ? `${grouped(u.inputTokens)}→${grouped(u.outputTokens)} tokens` : 'tokens unknown'} · ${usd(reply.costUsd ?? 0)}`;
}

function resultText(step: ResultStep, { numberOf }: ChainContext): string {
  const r = step.toolResult;
  const flags = [
    r.truncated ? 'truncated' : '',
    r.summarised ? 'summarised' : '',
    r.cachedFrom ? `reused from step ${numberOf.get(r.cachedFrom) ?? inline(r.cachedFrom, 60)}` : '',
    r.outcome && r.outcome !== 'done' ? `outcome ${r.outcome}` : '',
  ].filter(Boolean);
  const body = r.success ? inline(pairs(r.result)) : `ERROR: ${inline(r.error ?? 'failed')}`;
  return `→ ${body}${flags.length > 0 ? ` (${flags.join(', ')})` : ''}${bySuffix(step)}`;
}

const confidenceSuffix = (confidence: number | undefined): string => {
  const text = confidenceText(confidence);
  return text ? ` (${text})` : '';
};

/** "Final answer" only for a grounded success (or a run recorded before answers were judged). */
function answerHeading(report: AuditReport): string {
  const { outcome } = report;
  if (outcome.state === 'running') return 'Final answer';
  return answerLabel(outcome)?.title ?? 'Final answer';
}

/** What stands behind a judged answer, in words, with the steps it draws on. */
function groundingLine(report: AuditReport): string[] {
  const { outcome } = report;
  if (outcome.state === 'running' || outcome.grounding === undefined) return [];
  const numberOf = new Map(report.steps.map((s) => [s.stepId, s.stepNumber]));
  const steps = (outcome.answerSources ?? []).map((id) => numberOf.get(id) ?? inline(id, 60));
  const confidence = confidenceSuffix(outcome.confidence);
  switch (outcome.grounding) {
    case 'grounded':
      return [
        `_Grounded: tool results in step${steps.length === 1 ? '' : 's'} ${steps.join(', ')} stand behind it${outcome.success ? '' : `, but the run ended ${outcome.terminationReason}: a partial answer`}${confidence}._`,
      ];
    case 'partly_grounded': {
      const unsupported = (outcome.unsupportedClaims ?? []).map((c) => inline(c, 120)).join(', ');
      return [
        `_Partly grounded: tool results in step${steps.length === 1 ? '' : 's'} ${steps.join(', ')} stand behind part of it${unsupported ? `; nothing supports ${unsupported}` : ''}${outcome.success ? '' : `; the run ended ${outcome.terminationReason}`}${confidence}._`,
        ...claimTable(report),
      ];
    }
    case 'contradicted':
    case 'unchecked': {
      const named = (claims: readonly string[] | undefined) => (claims ?? []).map((c) => inline(c, 120)).join(', ');
      const faults = [
        outcome.contradictedClaims?.length ? `tool results say otherwise of ${named(outcome.contradictedClaims)}` : '',
        outcome.unsupportedClaims?.length ? `nothing supports ${named(outcome.unsupportedClaims)}` : '',
        outcome.uncheckedClaims?.length ? `nothing checked ${named(outcome.uncheckedClaims)}` : '',
      ].filter((f) => f !== '');
      const head = outcome.grounding === 'contradicted' ? 'Contradicted' : 'Not fully checked';
      return [
        `_${head}: tool results in step${steps.length === 1 ? '' : 's'} ${steps.join(', ')} were read${faults.length > 0 ? `; ${faults.join('; ')}` : ''}${outcome.success ? '' : `; the run ended ${outcome.terminationReason}`}${confidence}._`,
        ...claimTable(report),
      ];
    }
    case 'unsupported':
      return [`_Unsupported: no tool result stands behind this answer; it is the model's own${confidence}._`];
    case 'ungrounded':
      return [
        `_Ungrounded: the run ended ${outcome.terminationReason} and no tool result stands behind this summary${confidence}._`,
      ];
  }
}

/** Each checked claim of the answer and what stands behind it: a step, what the run was given, or nothing. */
function claimTable(report: AuditReport): string[] {
  const claims = report.steps.flatMap((s) => (s.type === 'synthesis' ? (s.synthesis.claimCheck?.claims ?? []) : []));
  if (claims.length === 0) return [];
  const numberOf = new Map(report.steps.map((s) => [s.stepId, s.stepNumber]));
  const behind = (c: AnswerClaim): string =>
    c.supportedBy !== undefined
      ? `step ${numberOf.get(c.supportedBy) ?? inline(c.supportedBy, 60)}${c.judgedBy !== undefined ? ` (judged by ${inline(c.judgedBy, 60)})` : ''}`
      : c.given !== undefined
        ? `given by the ${c.given}`
        : '**unsupported**';
  return [
    '',
    ...table(
      ['Claim', 'Kind', 'Behind it'],
      claims.map((c) => [cell(c.text, 120), c.kind, behind(c)]),
    ),
  ];
}

/** The answer in full, as a quote whose lines cannot open a heading, list, fence or table. */
function finalAnswer(report: AuditReport): string[] {
  const { outcome } = report;
  if (outcome.state === 'running') return ['_The run has not finished; there is no final answer yet._'];
  const lines = outcome.finalAnswer.trim() === '' ? ['_No final answer._'] : quote(outcome.finalAnswer);
  const judged = groundingLine(report);
  const withJudgement = judged.length > 0 && outcome.finalAnswer.trim() !== '' ? [...judged, '', ...lines] : lines;
  return outcome.error ? [...withJudgement, '', `**Error:** ${inline(outcome.error, 1000)}`] : withJudgement;
}

const quote = (text: string): string[] =>
  text
    .trim()
    .split(/\r?\n/)
    .map((line) => escape(line.trim()).replace(/^([#+\-=]|\d+(?=[.)]))/, (m) => (/^\d/.test(m) ? `${m}\\` : `\\${m}`)))
    .map((line) => (line === '' ? '>' : `> ${line}`));

function footer(report: AuditReport): string[] {
  const { view, exportedBy } = report;
  const role = view.role ? `${view.role} view` : 'unfiltered chain (no role view)';
  const by = exportedBy
    ? ` by ${inline(exportedBy.id, 100)}${exportedBy.roles.length > 0 ? ` (${inline(exportedBy.roles.join(', '), 100)})` : ''}`
    : '';
  return [
    `- View: ${role}; ${counted(view.hiddenSteps, 'step')} hidden`,
    `- Exported: ${inline(report.exportedAt, 60)}${by}`,
    `- Temporal runs, oldest first: ${report.run.runIds.map((id) => inline(id, 100)).join(', ')}`,
    `- Generated by thoughtline, audit report schema v${report.schemaVersion}`,
    ...(report.integrity
      ? [
          `- Final hash: \`${report.integrity.finalHash}\`${report.integrity.signature ? `, signed by key ${inline(report.integrity.signature.keyId, 100)}` : ''} (check the JSON export of the same run with \`thoughtline verify\`)`,
        ]
      : []),
    ...(report.children?.length
      ? [
          `- Sub-agent reports: ${report.children.map((c) => inline(c.run.workflowId, 200)).join(', ')} (in the JSON export)`,
        ]
      : []),
  ];
}
