import { Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { InTurn } from '../../lib/in-turn';

/** How much of a chart's place is on screen when it is drawn. */
const SHOWN = 0.25;

/**
 * A chart once its place comes on screen, a placeholder of its height until then. A chart's component is a lazy chunk with Chart.js (its parse and a chart's first drawing
 * are long tasks on a phone): a chart below the fold of the dashboard or the run page then costs
 * the first screen nothing (Lighthouse's total blocking time, `npm run bench:web`). Where the
 * browser has no IntersectionObserver, the chart is drawn at once. Charts that come on screen
 * together are drawn one per task (`InTurn`).
 */
export function WhenOnScreen({ height, children }: { height: number; children: ReactNode }) {
  const place = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = place.current;
    if (near || !element) return;
    // On screen, not near it: drawn within 200 px of the screen, the run page's pace chart, just
    // below a phone's first screen, was drawn with the page, a long task of 60 ms (240 ms on
    // Lighthouse's slower phone, `npm run bench:web`). And a quarter of it, not its first pixels: the
    // dashboard's chart began 16 px above an English phone's fold and was drawn as the page loaded,
    // for a strip of its placeholder (decision 056).
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting && entry.intersectionRatio >= SHOWN)) setNear(true);
      },
      { threshold: SHOWN },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);
  const placeholder = <div className="chart-placeholder" style={{ height }} aria-hidden="true" />;
  return (
    <div ref={place}>
      {near ? (
        <Suspense fallback={placeholder}>
          <InTurn placeholder={placeholder}>{children}</InTurn>
        </Suspense>
      ) : (
        placeholder
      )}
    </div>
  );
}
