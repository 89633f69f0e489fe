// What a person can do to a running run besides approvals: steer it, cancel it, and answer the
// question it asked. The API decides who may; a refusal is shown with its message.
import { api } from './api.js';
import { h, replaceChildren } from './dom.js';

/**
 * `base`: the run's API path. `tell(text)` and `fail(err)` show the outcome; `changed()` asks
 * the page to re-read the run's status after an answer.
 */
export function createRunControls({ base, tell, fail, changed }) {
  const controls = h('div', { class: 'controls' });
  const questionPanel = h('section', { class: 'question pending', hidden: true });
  let questionShown;

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

  return {
    controls,
    questionPanel,
    /** Shows the controls for the run as its status now stands. */
    update({ ended, openQuestion }) {
      renderControls(ended);
      renderQuestion(ended ? undefined : openQuestion);
    },
  };
}
