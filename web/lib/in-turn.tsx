import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * Draws the heavy pieces of a screen (a chart, a map) one per task. Each one's first drawing is a
 * long task on a slow phone's main thread (Chart.js or Leaflet building the canvas or the panes);
 * revealed together, as React reveals lazy pieces that load together, a run page's map and its
 * charts were created in one task of 550-680 ms (docs/performance.md), which Lighthouse counts
 * whole in its total blocking time (`npm run bench:web`). In turn, the browser answers between
 * them. A piece waits for its turn behind a placeholder, and hands the turn on once it is on the
 * page (its effects have run), in a new task.
 */
const waiting: (() => void)[] = [];
let taken = false;

function handOn(): void {
  taken = false;
  setTimeout(() => {
    if (taken) return;
    const next = waiting.shift();
    if (next) {
      taken = true;
      next();
    }
  }, 0);
}

/** Asks for the turn: `start` runs when it comes. Returns how to stop waiting. */
function askForTurn(start: () => void): () => void {
  if (!taken) {
    taken = true;
    start();
    return () => undefined;
  }
  waiting.push(start);
  return () => {
    const at = waiting.indexOf(start);
    if (at >= 0) waiting.splice(at, 1);
  };
}

/** Runs its effect once the content before it is on the page: siblings' effects run in order. */
function OnceDrawn({ then }: { then: () => void }) {
  useEffect(then, [then]);
  return null;
}

/**
 * `children` once it is their turn, `placeholder` (of the same size) until then. Inside a
 * `<Suspense>`, the turn is handed on only when the lazy content has loaded and been drawn.
 */
export function InTurn({ placeholder, children }: { placeholder: ReactNode; children: ReactNode }) {
  const [drawn, setDrawn] = useState(false);
  const holding = useRef(false);
  const release = useCallback(() => {
    if (!holding.current) return;
    holding.current = false;
    handOn();
  }, []);
  useEffect(() => {
    const stopWaiting = askForTurn(() => {
      holding.current = true;
      setDrawn(true);
    });
    return () => {
      stopWaiting();
      release();
    };
  }, [release]);
  if (!drawn) return placeholder;
  return (
    <>
      {children}
      <OnceDrawn then={release} />
    </>
  );
}
