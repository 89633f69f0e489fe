// A call waiting for a person's decision, inline in the chain: what it will run, why it needs
// approval, and Approve / Reject for people whose roles may decide (the server checks again).
import { api, describeFailure } from './api.js';
import { h, replaceChildren } from './dom.js';
import { canDecide, formatDateTime } from './format.js';
import { jsonView } from './json-view.js';

const STATUS_TEXT = {
  pending: 'Waiting for approval',
  approved: 'Approved',
  rejected: 'Rejected',
  timed_out: 'Timed out',
};

/**
 * `runId`: the run the page shows; a sub-agent's record names its own run in `workflowId`.
 * `onDecided(record)` gets the record the server returns.
 */
export function approvalView(record, { me, runId, onDecided }) {
  const box = h('section', { class: `approval approval-${record.status}`, dataset: { callId: record.callId } });
  const message = h('p', { class: 'approval-message', role: 'status' });
  const args = record.arguments ?? {};
  const decider = canDecide(me, record);
  replaceChildren(
    box,
    h(
      'header',
      {},
      h('strong', {}, STATUS_TEXT[record.status] ?? record.status),
      ' · ',
      record.toolName,
      record.agentPath?.length > 1 ? ` · in ${record.agentPath.join(' › ')}` : '',
    ),
    h('p', { class: 'approval-reason' }, `Why: ${record.reason}`),
    Object.keys(args).length
      ? h('div', { class: 'arguments' }, h('span', { class: 'label' }, 'Will run with'), jsonView(args))
      : null,
    record.approverRoles?.length
      ? h('p', { class: 'approval-roles' }, `Who may decide: ${record.approverRoles.join(', ')}`)
      : null,
    record.status === 'pending' && record.expiresAt
      ? h('p', { class: 'approval-expires' }, `Expires ${formatDateTime(record.expiresAt)}`)
      : null,
    record.decidedBy
      ? h(
          'p',
          { class: 'approval-decided' },
          `${STATUS_TEXT[record.status] ?? record.status} by ${record.decidedBy.id}${record.decidedAt ? ` at ${formatDateTime(record.decidedAt)}` : ''}${record.note ? ` — ${record.note}` : ''}`,
        )
      : null,
    record.status === 'pending' && !decider
      ? h('p', { class: 'approval-wait' }, 'Someone with one of the roles above has to decide.')
      : null,
    decider ? decisionControls(record, { runId, message, onDecided }) : null,
    message,
  );
  return box;
}

function decisionControls(record, { runId, message, onDecided }) {
  const reason = h('input', {
    type: 'text',
    class: 'reject-reason',
    placeholder: 'Why reject? (required)',
    maxlength: '2000',
    'aria-label': 'Reason for rejecting',
  });
  const rejectForm = h(
    'form',
    { class: 'reject-form', hidden: true },
    reason,
    h('button', { type: 'submit', class: 'danger' }, 'Reject with this reason'),
  );
  const buttons = h('div', { class: 'approval-buttons' });
  const decide = async (approved, why) => {
    for (const button of box.querySelectorAll('button')) button.disabled = true;
    message.textContent = approved ? 'Approving…' : 'Rejecting…';
    try {
      const target = record.workflowId ?? runId;
      const decided = await api(
        `/v1/runs/${encodeURIComponent(target)}/approvals/${encodeURIComponent(record.callId)}`,
        {
          method: 'POST',
          body: { approved, argumentsHash: record.argumentsHash, ...(why ? { reason: why } : {}) },
        },
      );
      message.textContent = '';
      onDecided?.(decided);
    } catch (err) {
      message.textContent = describeFailure(err);
      message.classList.add('error');
      for (const button of box.querySelectorAll('button')) button.disabled = false;
    }
  };
  const approve = h('button', { type: 'button', class: 'primary approve', onclick: () => decide(true) }, 'Approve');
  const reject = h(
    'button',
    {
      type: 'button',
      class: 'reject',
      onclick: () => {
        rejectForm.hidden = false;
        reason.focus();
      },
    },
    'Reject…',
  );
  rejectForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const why = reason.value.trim();
    if (!why) {
      message.textContent = 'Say why you reject it: the agent reads your reason.';
      return;
    }
    void decide(false, why);
  });
  buttons.append(approve, reject);
  const box = h('div', { class: 'approval-controls' }, buttons, rejectForm);
  return box;
}
