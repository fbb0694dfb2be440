/**
 * Preloaded into the server by the soak only (never by `npm start`): on SIGUSR2, run a
 * full garbage collection, so that memory is compared between two settled heaps rather
 * than at two random points of the collector's cycle.
 */
const collect = (globalThis as { gc?: () => void }).gc;
if (collect) {
  process.on('SIGUSR2', () => {
    collect();
    // Twice: objects with finalizers need a second pass.
    setTimeout(collect, 100);
  });
}
