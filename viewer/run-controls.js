// What a person can do to a running run besides approvals: steer it, cancel it, answer the
// question it asked, and raise or stop a budget it paused at. The API decides who may; a refusal
// is shown with its message.
import { api } from './api.js';
import { h, replaceChildren } from './dom.js';

/**
 * `base`: the run's API path. `tell(text)` and `fail(err)` show the outcome; `changed()` asks
 * the page to re-read the run's status after an answer.
 */
export function createRunControls({ base, tell, fail, changed }) {
  const controls = h('div', { class: 'controls' });
  const questionPanel = h('section', { class: 'question pending', hidden: true });
  const budgetPanel = h('section', { class: 'budget-pause pending', hidden: true });
  let questionShown;
  let pauseShown;

  const post = async (path, body, done) => {
    try {
      await api(path, { method: 'POST', body });
      tell(done);
      return true;
    } catch (err) {
      fail(err);
      return false;
    }
  };

  const renderControls = (ended) => {
    if (ended) return replaceChildren(controls);
    if (controls.childElementCount) return;
    const steerText = h('input', {
      type: 'text',
      class: 'steer-text',
      maxlength: '10000',
      placeholder: 'Tell the agent something before its next thought',
      'aria-label': 'Steering instruction',
    });
    const steer = h('form', { class: 'steer' }, steerText, h('button', { type: 'submit' }, 'Steer'));
    steer.addEventListener('submit', async (event) => {
      event.preventDefault();
      if (!steerText.value.trim()) return;
      if (
        await post(
          `${base}/steer`,
          { text: steerText.value.trim() },
          'Sent. The agent reads it before its next thought.',
        )
      )
        steerText.value = '';
    });
    const reason = h('input', {
      type: 'text',
      class: 'cancel-reason',
      maxlength: '2000',
      placeholder: 'Why stop it? (optional)',
      'aria-label': 'Reason for cancelling',
    });
    const confirm = h(
      'form',
      { class: 'cancel-form', hidden: true },
      reason,
      h('button', { type: 'submit', class: 'danger' }, 'Stop the run'),
    );
    confirm.addEventListener('submit', async (event) => {
      event.preventDefault();
      const why = reason.value.trim();
      if (
        await post(
          `${base}/cancel`,
          why ? { reason: why } : {},
          'Cancel requested. The run stops after the step in progress.',
        )
      )
        confirm.hidden = true;
    });
    const cancel = h(
      'button',
      {
        type: 'button',
        class: 'cancel danger',
        onclick: () => {
          confirm.hidden = !confirm.hidden;
          if (!confirm.hidden) reason.focus();
        },
      },
      'Cancel…',
    );
    replaceChildren(controls, steer, h('div', { class: 'cancel-row' }, cancel, confirm));
  };

  // Rebuilt only when another question opens, so an answer being typed survives status updates.
  const renderQuestion = (open) => {
    if (open?.callId === questionShown) return;
    questionShown = open?.callId;
    questionPanel.hidden = !open;
    if (!open) return questionPanel.replaceChildren();
    const answer = h('input', {
      type: 'text',
      class: 'answer-text',
      maxlength: '10000',
      required: true,
      placeholder: 'Your answer',
      'aria-label': 'Your answer',
    });
    const form = h('form', { class: 'answer' }, answer, h('button', { type: 'submit', class: 'primary' }, 'Answer'));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      if (!answer.value.trim()) return;
      if (
        await post(
          `${base}/answers`,
          { text: answer.value.trim(), callId: open.callId },
          'Answer sent. The agent goes on with it.',
        )
      )
        changed();
    });
    replaceChildren(
      questionPanel,
      h('h3', {}, 'The agent asks you'),
      h('p', { class: 'question-text' }, open.question),
      form,
    );
  };

  // Rebuilt only when another pause opens, so an amount being typed survives status updates.
  const renderBudget = (pause) => {
    if (pause?.pausedAt === pauseShown) return;
    pauseShown = pause?.pausedAt;
    budgetPanel.hidden = !pause;
    if (!pause) return budgetPanel.replaceChildren();
    const field = {
      token_budget: { key: 'tokens', label: 'Tokens to add', step: '1' },
      cost_budget: { key: 'costUsd', label: 'Dollars to add', step: '0.01' },
      max_iterations: { key: 'iterations', label: 'Iterations to add', step: '1' },
    }[pause.reason];
    const amount = h('input', {
      type: 'number',
      class: 'raise-amount',
      min: field.step,
      step: field.step,
      required: true,
      'aria-label': field.label,
      placeholder: field.label,
    });
    const form = h(
      'form',
      { class: 'raise-budget' },
      amount,
      h('button', { type: 'submit', class: 'primary' }, 'Raise'),
      h('button', { type: 'button', class: 'stop-at-budget danger', onclick: () => send({ stop: true }) }, 'Stop here'),
    );
    const send = async (body) => {
      const done = body.stop ? 'Stopped. The run ends at its budget.' : 'Budget raised. The run goes on.';
      if (await post(`${base}/budget`, body, done)) changed();
    };
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const value = Number(amount.value);
      if (Number.isFinite(value) && value > 0) await send({ [field.key]: value });
    });
    const { spent } = pause;
    const tools = spent.tools.length ? ` Tools: ${spent.tools.map((t) => `${t.name} ×${t.calls}`).join(', ')}.` : '';
    replaceChildren(
      budgetPanel,
      h('h3', {}, 'Paused at its budget'),
      h('p', { class: 'budget-message' }, pause.message),
      h(
        'p',
        { class: 'budget-spent' },
        `Spent ${spent.tokens} tokens, $${spent.costUsd.toFixed(4)}, ${spent.iterations} iterations, ${spent.modelCalls} model calls.${tools} Waits until ${pause.expiresAt}.`,
      ),
      form,
    );
  };

  return {
    controls,
    questionPanel,
    budgetPanel,
    /** Shows the controls for the run as its status now stands. */
    update({ ended, openQuestion, budgetPause }) {
      renderControls(ended);
      renderQuestion(ended ? undefined : openQuestion);
      renderBudget(ended ? undefined : budgetPause);
    },
  };
}
