// A complete Ctx for unit tests that call src/ directly (runMain in ctx.ts builds one for main()).
import type { Ctx } from "../../src/lib/context.ts";

export type UnitCtx = Ctx & { out: string[]; err: string[] };

/** No TTY, a fixed clock at 0, cwd /tmp, stdout/stderr captured in `out`/`err`, and a runner that refuses every call. */
export function unitCtx(over: Partial<Ctx> = {}): UnitCtx {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), stdoutIsTTY: false, stderrIsTTY: false },
    env: {},
    cwd: "/tmp",
    runner: async (argv) => {
      throw new Error(`no subprocess expected: ${JSON.stringify(argv)}`);
    },
    now: () => 0,
    debug: false,
    self: [],
    ...over,
    out,
    err,
  };
}
