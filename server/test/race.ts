/**
 * Starts calls as close to the same moment as the event loop allows: each call waits on one
 * shared gate, opened once all of them are queued. Used by the race tests on both databases.
 */
export async function together<T>(calls: (() => Promise<T>)[]): Promise<T[]> {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const running = calls.map(async (run) => {
    await gate;
    return run();
  });
  open();
  return Promise.all(running);
}
