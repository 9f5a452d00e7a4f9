/**
 * The terminal `mogui top` runs in: its size, raw-mode key input, resize and termination signals. The process-bound
 * implementation is here (and only here); the loop in tui.ts gets this interface, so it can be driven without one.
 */

export interface Terminal {
  columns(): number;
  rows(): number;
  write(text: string): void;
  /** Raw mode on, key bytes to `onKey`; returns a function that restores the mode and stops reading. */
  keys(onKey: (data: string) => void): () => void;
  /** SIGWINCH; returns the function that stops listening. */
  onResize(fn: () => void): () => void;
  /** SIGINT, SIGTERM, SIGHUP: restore the terminal and stop; returns the function that stops listening. */
  onSignal(fn: (sig: string) => void): () => void;
}

export function processTerminal(): Terminal {
  // process.stdout is made first: its own SIGWINCH listener (which refreshes columns and rows) must run before ours.
  void process.stdout.columns;
  return {
    columns: () => process.stdout.columns || 80,
    rows: () => process.stdout.rows || 24,
    write: (t) => void process.stdout.write(t),
    keys(onKey) {
      const stdin = process.stdin;
      const raw = Boolean(stdin.isTTY);
      if (raw) stdin.setRawMode(true);
      stdin.setEncoding("utf8");
      const handler = (d: string | Buffer) => onKey(typeof d === "string" ? d : d.toString("utf8"));
      stdin.on("data", handler);
      stdin.resume();
      return () => {
        stdin.off("data", handler);
        if (raw) stdin.setRawMode(false);
        stdin.pause();
      };
    },
    onResize(fn) {
      process.on("SIGWINCH", fn);
      return () => void process.off("SIGWINCH", fn);
    },
    onSignal(fn) {
      const sigs = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
      const hs = sigs.map((s) => [s, () => fn(s)] as const);
      for (const [s, h] of hs) process.on(s, h);
      return () => {
        for (const [s, h] of hs) process.off(s, h);
      };
    },
  };
}
