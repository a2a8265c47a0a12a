/** A timer that only moves when told to, for an answer's minimum time (its `sleep` replaces the real one). */
export function manualTimer() {
  let elapsed = 0;
  const waiting: { until: number; resolve: () => void }[] = [];
  const asked: number[] = [];
  return {
    /** Every duration waited for, in order. */
    asked,
    sleep(ms: number): Promise<void> {
      asked.push(ms);
      return new Promise((resolve) => {
        if (ms <= 0) resolve();
        else waiting.push({ until: elapsed + ms, resolve });
      });
    },
    advance(ms: number) {
      elapsed += ms;
      for (const wait of waiting.filter((w) => w.until <= elapsed)) wait.resolve();
    },
  };
}

/** Lets every promise that can settle now settle. */
export async function settle(): Promise<void> {
  for (let n = 0; n < 5; n++) await new Promise((resolve) => setImmediate(resolve));
}
