/**
 * A Runner for unit tests: answers only the argv it was told about, in order, and throws on anything else,
 * so a test fails loudly when the code under test makes a call nobody expected.
 */
import type { RunOptions, RunResult, Runner } from "../../src/lib/runner.ts";

export interface StubReply {
  code?: number | null;
  stdout?: string | object;
  stderr?: string;
  timedOut?: boolean;
  missing?: boolean;
  signal?: string | null;
}

export interface StubRunner extends Runner {
  calls: { argv: string[]; opts?: RunOptions }[];
  /** Replies not consumed yet, keyed by argv. */
  pending(): string[];
}

const key = (argv: readonly string[]) => JSON.stringify(argv);

export function stubRunner(table: [readonly string[], StubReply | StubReply[] | ((argv: string[]) => StubReply)][]): StubRunner {
  const queues = new Map<string, (StubReply | ((argv: string[]) => StubReply))[]>();
  for (const [argv, reply] of table) {
    const q = queues.get(key(argv)) ?? [];
    q.push(...(Array.isArray(reply) ? reply : [reply]));
    queues.set(key(argv), q);
  }
  const calls: StubRunner["calls"] = [];
  const fn = (async (argv: readonly string[], opts?: RunOptions): Promise<RunResult> => {
    calls.push({ argv: [...argv], opts });
    const q = queues.get(key(argv));
    if (!q || q.length === 0) throw new Error(`stub runner: unexpected call ${key(argv)}`);
    // The last reply of a queue answers every later call too (a stable fact, e.g. `git rev-parse`).
    const next = q.length > 1 ? q.shift()! : q[0]!;
    const r = typeof next === "function" ? next([...argv]) : next;
    return {
      argv: [...argv],
      code: r.missing || r.timedOut || r.signal ? null : (r.code ?? 0),
      signal: r.signal ?? null,
      stdout: typeof r.stdout === "object" ? JSON.stringify(r.stdout) : (r.stdout ?? ""),
      stderr: r.stderr ?? "",
      timedOut: r.timedOut ?? false,
      missing: r.missing ?? false,
    };
  }) as StubRunner;
  fn.calls = calls;
  fn.pending = () => [...queues.entries()].filter(([, q]) => q.length > 1).map(([k]) => k);
  return fn;
}
