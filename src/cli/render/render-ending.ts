import type { RunEnding } from '../../domain/run/run-ending';
import { redactSecretsInText } from '../../domain/secrets/secret-patterns';

export interface EndingLayout {
  /** Print the answer under its title (`status`); `run` and `watch` showed it as the chain's last step. */
  answer: boolean;
  /** Where the text starts after its name ("Ended:", "Error:"), so the lines line up with their neighbours. */
  width: number;
}

/**
 * How a run ended, as `status`, `watch` and `run` print it, from its one `runEnding`: "Ended:
 * failed · error: ModelAuthentication: …", then the answer under its title and the error, each
 * whole, their later lines under their first. Secret-shaped text is redacted here too.
 */
export function endingLines(ending: RunEnding, layout: EndingLayout): string[] {
  const block = (name: string, text: string): string => {
    const head = `${name}:`;
    const [first, ...rest] = text.split('\n');
    const under = ' '.repeat(layout.width);
    return [
      `${head.length < layout.width ? head.padEnd(layout.width) : `${head} `}${first}`,
      ...rest.map((l) => `${under}${l}`),
    ].join('\n');
  };
  return [
    block('Ended', `${ending.state} · ${redactSecretsInText(ending.summary)}`),
    ...(layout.answer && ending.answer
      ? [block(ending.answerTitle ?? 'Answer', redactSecretsInText(ending.answer))]
      : []),
    ...(ending.error ? [block('Error', redactSecretsInText(ending.error))] : []),
  ];
}
