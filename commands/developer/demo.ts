import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { mkdtempSync } from "node:fs";
import { defineCommand, failWith } from "../../src/lib/command.ts";
import type { Ctx } from "../../src/lib/context.ts";
import { UsageError } from "../../src/lib/errors.ts";
import { buildWorld, DEMO_EXITS, DemoError, type DemoWorld } from "../../src/developer/demo/steps.ts";

interface Step {
  title: string;
  argv: string[];
  expect: number;
  check?: (w: DemoWorld, stdout: string) => string | undefined;
}

const STEPS = (w: DemoWorld): Step[] => [
  { title: "Which settled dispatches still owe a reap?", argv: ["worker-reap", "--unreaped"], expect: 0, check: (_, out) => (out.includes(w.dispatchId) ? undefined : "the dispatch is not listed as unreaped") },
  { title: "Plan the reap (dry run: nothing is closed, removed or written)", argv: ["worker-reap", "--task-id", w.taskId, "--dry-run"], expect: 0, check: () => (existsSync(w.worktree) ? undefined : "the dry run removed the worktree") },
  { title: "Reap: close the worker terminal, remove the squash-merged worktree, write the ledger row", argv: ["worker-reap", "--task-id", w.taskId], expect: 0, check: () => (existsSync(w.worktree) ? "the worktree was not removed" : undefined) },
  { title: "Nothing is left to reap", argv: ["worker-reap", "--unreaped"], expect: 0, check: (_, out) => (out.includes(w.dispatchId) ? "the dispatch is still listed" : undefined) },
];

function emptyOrMissing(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}

async function runStep(ctx: Ctx, w: DemoWorld, n: number, s: Step): Promise<void> {
  ctx.io.stdout(`\n${n}. ${s.title}\n$ mogui ${s.argv.join(" ")}\n`);
  let out = "";
  let err = "";
  // Lazy: index.ts loads this file lazily, so a static import back would be a cycle.
  const { main } = await import("../main.ts");
  const code = await main(s.argv, {
    ...ctx,
    env: w.env,
    io: { ...ctx.io, stdout: (t) => void (out += t), stderr: (t) => void (err += t) },
  });
  ctx.io.stdout(out.replace(/^/gm, "  ").replace(/ +$/gm, ""));
  if (err) ctx.io.stdout(err.replace(/^/gm, "  ! "));
  ctx.io.stdout(`  (exit ${code})\n`);
  if (code !== s.expect) failWith(DEMO_EXITS, "failed", `demo: step ${n} exited ${code}, expected ${s.expect}`);
  const problem = s.check?.(w, out);
  if (problem) failWith(DEMO_EXITS, "failed", `demo: step ${n}: ${problem}`);
}

export default defineCommand({
  meta: {
    name: "demo",
    description: [
      "Show worker-reap end to end, from this binary alone: in a temp dir, build a repository with a bare origin",
      "and a worker worktree whose branch is squash-merged, dispatch a task to the worker in the built-in Orca",
      "simulator and complete it with worker_done, then run worker-reap --unreaped, --dry-run, the reap itself",
      "and --unreaped again, printing each step and the ledger row.",
    ].join("\n"),
  },
  usage: ["demo [--dir <path>] [--keep]"],
  args: {
    dir: { type: "string", valueHint: "path", description: "Build the demo here (must be empty or absent) instead of a temp dir" },
    keep: { type: "boolean", description: "Keep the demo directory afterwards (a temp dir is removed by default)" },
  },
  exits: DEMO_EXITS,
  examples: ["mogui demo", "mogui demo --dir /tmp/mogui-demo --keep"],
  async run({ ctx, args, fail }) {
    const given = args.dir;
    if (given && !emptyOrMissing(resolve(ctx.cwd, given))) throw new UsageError(`--dir ${given} is not empty`, "demo");
    const dir = given ? resolve(ctx.cwd, given) : mkdtempSync(join(tmpdir(), "mogui-demo-"));
    mkdirSync(dir, { recursive: true });
    const kept = args.keep || Boolean(given);
    // A temp dir removed at the end is never printed (a path that is gone by the time it is read only misleads):
    // every mention of it, in the demo's lines and in the steps' output, reads <demo>.
    const real = realpathSync(dir);
    const out = kept ? ctx : { ...ctx, io: { ...ctx.io, stdout: (t: string) => ctx.io.stdout(t.replaceAll(real, "<demo>").replaceAll(dir, "<demo>")) } };
    try {
      out.io.stdout(kept ? `mogui demo in ${dir}\n` : "mogui demo in a temp dir, <demo> below (removed at the end; --keep keeps it)\n");
      const w = await buildWorld(ctx, dir).catch((e: unknown) => {
        if (e instanceof DemoError) return fail("failed", e.message);
        throw e;
      });
      out.io.stdout(`\nSet up: origin + product repo, worker worktree ${w.worktree} (branch feature-login, squash-merged),\n`);
      out.io.stdout(`task ${w.taskId} dispatched as ${w.dispatchId} to ${w.worker} and completed with worker_done.\n`);
      const steps = STEPS(w);
      for (let i = 0; i < steps.length; i++) await runStep(out, w, i + 1, steps[i]!);
      const rows = readFileSync(w.ledger, "utf8").trimEnd().split("\n");
      out.io.stdout(`\nThe ledger row (${w.ledger}):\n  ${rows[rows.length - 1]}\n\nDemo complete.\n`);
      return "ok";
    } finally {
      if (!kept) rmSync(dir, { recursive: true, force: true });
      else ctx.io.stdout(`(kept ${dir})\n`);
    }
  },
});
