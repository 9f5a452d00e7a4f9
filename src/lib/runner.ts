/**
 * The one subprocess seam. Every external command (orca, git, ps, herdr ...) goes through a Runner, as an argv
 * array (never a shell string), with a timeout. A missing executable, a timeout and a signal come back as named
 * results instead of exceptions, so callers can map each to its documented exit code.
 */
import { basename } from "node:path";

export const DEFAULT_TIMEOUT_MS = 30_000;

export interface RunOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
  /**
   * The process's standard input; a promise keeps it open until the text is known (the process starts at once):
   * keep such a text small, it is written when the promise settles, and the input is closed after it.
   */
  stdin?: string | Promise<string>;
  /** Aborting kills the process group (a cancelled `mogui mcp` call stops its children). */
  signal?: AbortSignal;
}

export interface RunResult {
  argv: string[];
  /** Exit code; null when the process never ran, timed out or died by a signal. */
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** The executable could not be found or started. */
  missing: boolean;
}

export type Runner = (argv: readonly string[], opts?: RunOptions) => Promise<RunResult>;

export function ok(r: RunResult): boolean {
  return r.code === 0 && !r.timedOut && !r.missing && r.signal === null;
}

/** One line that says how a run failed: the distinct failure kinds of DECISIONS D6. */
export function describeFailure(r: RunResult, timeoutMs?: number): string {
  const name = basename(r.argv[0] ?? "?");
  if (r.missing) return `${name}: executable not found`;
  if (r.timedOut) return `${name}: timed out${timeoutMs ? ` after ${timeoutMs} ms` : ""}`;
  if (r.signal) return `${name}: killed by ${r.signal}`;
  const detail = (r.stderr.trim() || r.stdout.trim()).split("\n")[0] ?? "";
  return `${name}: exit ${r.code}${detail ? `: ${detail}` : ""}`;
}

function cleanEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}

function missingResult(argv: readonly string[]): RunResult {
  return { argv: [...argv], code: null, signal: null, stdout: "", stderr: "", timedOut: false, missing: true };
}

/** Kill the whole process group: a hung shell script's children must not keep our pipes open. */
function killGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      /* already gone */
    }
  }
}

async function drain(stream: ReadableStream<Uint8Array> | null, deadline: Promise<void>): Promise<string> {
  if (!stream) return "";
  const text = new Response(stream).text();
  const r = await Promise.race([text, deadline.then(() => undefined)]);
  return r ?? "";
}

export const realRunner: Runner = async (argv, opts = {}) => {
  const env = cleanEnv(opts.env ?? (process.env as Record<string, string | undefined>));
  const cmd = argv[0];
  if (!cmd) return missingResult(argv);
  if (opts.signal?.aborted) return { argv: [...argv], code: null, signal: "SIGKILL", stdout: "", stderr: "", timedOut: false, missing: false };
  const resolved = cmd.includes("/") ? cmd : Bun.which(cmd, { PATH: env.PATH ?? "", cwd: opts.cwd });
  if (!resolved) return missingResult(argv);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let proc: ReturnType<typeof Bun.spawn>;
  try {
    proc = Bun.spawn([resolved, ...argv.slice(1)], {
      cwd: opts.cwd,
      env,
      stdin: opts.stdin === undefined ? "ignore" : typeof opts.stdin === "string" ? new TextEncoder().encode(opts.stdin) : "pipe",
      stdout: "pipe",
      stderr: "pipe",
      detached: true,
    });
  } catch {
    return missingResult(argv);
  }
  if (opts.stdin !== undefined && typeof opts.stdin !== "string") {
    const sink = proc.stdin as import("bun").FileSink;
    const close = (text: string) => {
      try {
        if (text) sink.write(text);
        void sink.end();
      } catch {
        /* the process is gone */
      }
    };
    opts.stdin.then(close, () => close(""));
  }
  let timedOut = false;
  let release!: () => void;
  const killed = new Promise<void>((r) => (release = r));
  const onAbort = () => killGroup(proc.pid);
  opts.signal?.addEventListener("abort", onAbort, { once: true });
  const timer = setTimeout(
    () => {
      timedOut = true;
      killGroup(proc.pid);
      // Give the pipes a moment to close, then stop waiting on them.
      setTimeout(release, 200);
      // A timer longer than 2^31-1 ms would fire at once: such a timeout (an unbounded flag's) waits ~24.8 days.
    },
    Math.min(timeoutMs, 2_147_483_647),
  );
  // A command that exits while something it started in the background still holds our pipes (`cmd &`) must not
  // wait for, or be reported as, a timeout: shortly after the exit, stop what is left of its process group.
  let done = false;
  let straggler: ReturnType<typeof setTimeout> | undefined;
  void proc.exited.then(() => {
    if (done) return;
    straggler = setTimeout(() => killGroup(proc.pid), 200);
  });
  const [stdout, stderr] = await Promise.all([drain(proc.stdout as ReadableStream<Uint8Array>, killed), drain(proc.stderr as ReadableStream<Uint8Array>, killed)]);
  await Promise.race([proc.exited, killed]);
  done = true;
  opts.signal?.removeEventListener("abort", onAbort);
  clearTimeout(timer);
  clearTimeout(straggler);
  release();
  const signal = proc.signalCode === null ? null : String(proc.signalCode);
  return {
    argv: [...argv],
    code: timedOut || signal ? null : proc.exitCode,
    signal: timedOut ? null : signal,
    stdout,
    stderr,
    timedOut,
    missing: false,
  };
};

const REAL = Symbol("mogui.realRunner");
(realRunner as Runner & { [REAL]?: true })[REAL] = true;

/** The real process runner, possibly wrapped with defaults by main(); false for every stub. */
export function isRealRunner(r: Runner): boolean {
  return (r as Runner & { [REAL]?: true })[REAL] === true;
}

/** Wraps a runner so every call carries `signal` (aborting it kills the running child), keeping whether it is real. */
export function withSignal(r: Runner, signal: AbortSignal): Runner {
  const wrapped: Runner = (argv, opts = {}) => r(argv, { ...opts, signal: opts.signal ?? signal });
  if (isRealRunner(r)) (wrapped as Runner & { [REAL]?: true })[REAL] = true;
  return wrapped;
}

/** Wraps a runner with default options, keeping whether it is the real one. */
export function withDefaults(r: Runner, defaults: () => RunOptions): Runner {
  const wrapped: Runner = (argv, opts = {}) => {
    const d = defaults();
    return r(argv, { ...opts, env: opts.env ?? d.env, cwd: opts.cwd ?? d.cwd });
  };
  if (isRealRunner(r)) (wrapped as Runner & { [REAL]?: true })[REAL] = true;
  return wrapped;
}
