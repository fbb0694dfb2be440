import { act, render, screen } from '@testing-library/react';
import { Suspense, lazy, useEffect } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InTurn } from './in-turn';

/** A heavy piece: records when its effect (its first drawing) runs. */
function Piece({ name, drawn }: { name: string; drawn: string[] }) {
  useEffect(() => {
    drawn.push(name);
  }, [name, drawn]);
  return <p>{name}</p>;
}

const placeholder = (name: string) => <p>waiting {name}</p>;

/** A chart whose code loads lazily, in turn, as `WhenOnScreen` draws one. */
function LazyChart({ Chart }: { Chart: React.ComponentType }) {
  return (
    <Suspense fallback={placeholder('chart')}>
      <InTurn placeholder={placeholder('chart')}>
        <Chart />
      </InTurn>
    </Suspense>
  );
}

describe('InTurn', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('draws pieces that come together one per task, in order', async () => {
    const drawn: string[] = [];
    render(
      <>
        {['map', 'pace', 'elevation'].map((name) => (
          <InTurn key={name} placeholder={placeholder(name)}>
            <Piece name={name} drawn={drawn} />
          </InTurn>
        ))}
      </>,
    );
    expect(drawn).toEqual(['map']);
    expect(screen.getByText('waiting pace')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(drawn).toEqual(['map', 'pace']);
    expect(screen.getByText('waiting elevation')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(drawn).toEqual(['map', 'pace', 'elevation']);
  });

  it('keeps the turn while its lazy content loads, and hands it on once drawn', async () => {
    const drawn: string[] = [];
    let load: (module: { default: () => React.JSX.Element }) => void = () => undefined;
    const Chart = lazy(() => new Promise<{ default: () => React.JSX.Element }>((resolve) => (load = resolve)));
    render(
      <>
        <LazyChart Chart={Chart} />
        <InTurn placeholder={placeholder('map')}>
          <Piece name="map" drawn={drawn} />
        </InTurn>
      </>,
    );
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(drawn).toEqual([]);
    expect(screen.getByText('waiting map')).toBeInTheDocument();
    await act(async () => {
      load({ default: () => <Piece name="chart" drawn={drawn} /> });
      await vi.advanceTimersByTimeAsync(500);
    });
    expect(drawn).toEqual(['chart']);
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(drawn).toEqual(['chart', 'map']);
  });

  it('hands the turn on when the piece holding it leaves the page', async () => {
    const drawn: string[] = [];
    const Chart = lazy(() => new Promise<{ default: () => React.JSX.Element }>(() => undefined));
    const pieces = (withChart: boolean) => (
      <>
        {withChart && <LazyChart Chart={Chart} />}
        <InTurn placeholder={placeholder('map')}>
          <Piece name="map" drawn={drawn} />
        </InTurn>
      </>
    );
    const { rerender } = render(pieces(true));
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(drawn).toEqual([]);
    rerender(pieces(false));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(drawn).toEqual(['map']);
  });
});
