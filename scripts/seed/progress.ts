/** A one-line progress bar on stderr (a line per tenth when stderr is not a terminal). */
export interface ProgressBar {
  update(done: number): void;
  finish(): void;
}

export function progressBar(total: number, label: string, stream: NodeJS.WriteStream = process.stderr): ProgressBar {
  const started = Date.now();
  const width = 30;
  let lastTenth = -1;
  let lastDraw = 0;
  let finished = false;
  const line = (done: number) => {
    const fraction = total > 0 ? Math.min(1, done / total) : 1;
    const seconds = Math.max(0.001, (Date.now() - started) / 1000);
    const rate = done / seconds;
    const eta = rate > 0 ? Math.max(0, (total - done) / rate) : 0;
    const filled = Math.round(fraction * width);
    return (
      `${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(fraction * 100).toFixed(0).padStart(3)}% ` +
      `${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} ` +
      `${Math.round(rate).toLocaleString('en-US')}/s ETA ${eta.toFixed(0)}s`
    );
  };
  return {
    update(done) {
      if (stream.isTTY) {
        const now = Date.now();
        if (now - lastDraw < 100 && done < total) return;
        lastDraw = now;
        stream.write(`\r${line(done)}\x1b[K`);
      } else {
        const tenth = total > 0 ? Math.floor((done / total) * 10) : 10;
        if (tenth === lastTenth) return;
        lastTenth = tenth;
        stream.write(`${line(done)}\n`);
      }
    },
    finish() {
      if (stream.isTTY && !finished) stream.write('\n');
      finished = true;
    },
  };
}
