/**
 * Resolves at the first SIGINT or SIGTERM. Holds the event loop open meanwhile: a signal
 * listener alone does not, and the dev server's child process is unref'd.
 */
export const untilSignal = (): Promise<NodeJS.Signals> =>
  new Promise((resolve) => {
    const keepAlive = setInterval(() => {}, 1 << 30);
    const onSignal = (signal: NodeJS.Signals): void => {
      clearInterval(keepAlive);
      process.removeListener('SIGINT', onSignal);
      process.removeListener('SIGTERM', onSignal);
      resolve(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
