/**
 * Progress of long commands on stderr, only when stderr is a terminal (never in pipes, logs or tests).
 * When main.ts runs the command in a child to filter Dawn's start-up warnings, the child's stderr is a pipe;
 * the parent then sets BUTTERFLY_STDERR_TTY so the child still draws the bar.
 */
export function stderrIsTty(): boolean {
  return Boolean(process.stderr.isTTY) || process.env.BUTTERFLY_STDERR_TTY === '1';
}

export interface Progress {
  /** fraction in [0, 1]; text after the bar. Redraws at most ten times a second. */
  update(fraction: number, text?: string): void;
  /** Clears the bar's line. */
  done(): void;
}

export function progress(label: string): Progress {
  if (!stderrIsTty()) return { update() {}, done() {} };
  let last = 0;
  let drawn = false;
  return {
    update(fraction, text = '') {
      const now = Date.now();
      if (now - last < 100 && fraction < 1) return;
      last = now;
      const w = 24;
      const f = Math.max(0, Math.min(w, Math.round(fraction * w)));
      const line = `${label} [${'#'.repeat(f)}${'.'.repeat(w - f)}] ${(100 * Math.min(1, Math.max(0, fraction))).toFixed(0).padStart(3)}% ${text}`;
      process.stderr.write(`\r${line.slice(0, 100).padEnd(100)}`);
      drawn = true;
    },
    done() {
      if (drawn) process.stderr.write(`\r${' '.repeat(100)}\r`);
      drawn = false;
    },
  };
}
