/**
 * Diagnostics on stderr: ONE consola instance per run (per Ctx), for warnings, status and progress. consola's
 * default reporter sends info/success to STDOUT and its full import costs start-up time in the compiled binary,
 * so mogui uses consola/core with its own stderr reporter. Import this lazily from commands that log (never from
 * main's start-up path). Data never goes here: stdout is for data (src/lib/output.ts).
 */
import { createConsola, type ConsolaInstance, type LogObject } from "consola/core";
import type { Ctx } from "./context.ts";
import { paint } from "./output.ts";

const tags: Record<string, ["red" | "yellow" | "green" | "dim", string]> = {
  error: ["red", "error"],
  fatal: ["red", "error"],
  warn: ["yellow", "warning"],
  success: ["green", "ok"],
  info: ["dim", "info"],
  log: ["dim", ""],
  debug: ["dim", "debug"],
};

const instances = new WeakMap<Ctx, ConsolaInstance>();

/** The run's consola; `prefix` names the command (`tracks: warning: ...`). */
export function logger(ctx: Ctx, prefix: string): ConsolaInstance {
  let base = instances.get(ctx);
  if (!base) {
    base = createConsola({
      level: ctx.debug ? 4 : 3,
      reporters: [
        {
          log(obj: LogObject) {
            const [colour, tag] = tags[obj.type] ?? ["dim", obj.type];
            const msg = obj.args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" ");
            const head = tag ? `${paint(ctx, "stderr", colour, tag)}: ` : "";
            ctx.io.stderr(`${obj.tag ? `${obj.tag}: ` : ""}${head}${msg}\n`);
          },
        },
      ],
    });
    instances.set(ctx, base);
  }
  return base.withTag(prefix);
}

export interface Progress {
  /** `done` of `total` items (total optional), with an optional current item name. */
  update(done: number, total?: number, item?: string): void;
  /** End the progress: the updating line is replaced by `summary` (a TTY), or `summary` is one more line. */
  end(summary: string): void;
}

/**
 * Progress for long work, on stderr: one updating line on a TTY; otherwise plain lines, at most one per tenth of
 * the total (or per 100 items without a total), so a log file stays short.
 */
export function progress(ctx: Ctx, label: string): Progress {
  const tty = ctx.io.stderrIsTTY;
  let lastStep = -1;
  return {
    update(done, total, item) {
      ctx.onProgress?.(done, total, item);
      const text = `${label}: ${done}${total !== undefined ? `/${total}` : ""}${item ? ` ${item}` : ""}`;
      if (tty) return ctx.io.stderr(`\r\x1b[2K${text}`);
      const step = total ? Math.floor((done * 10) / Math.max(total, 1)) : Math.floor(done / 100);
      if (step !== lastStep) ctx.io.stderr(`${text}\n`);
      lastStep = step;
    },
    end(summary) {
      ctx.io.stderr(tty ? `\r\x1b[2K${label}: ${summary}\n` : `${label}: ${summary}\n`);
    },
  };
}
