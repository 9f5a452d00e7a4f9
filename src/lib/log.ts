/**
 * Diagnostics on stderr: ONE consola instance per run (per Ctx), for warnings, status and progress. consola's
 * default reporter sends info/success to STDOUT and its full import costs start-up time in the compiled binary,
 * so mogui uses consola/core with its own stderr reporter. Import this lazily from commands that log (never from
 * main's start-up path). Data never goes here: stdout is for data (src/lib/output.ts).
 *
 * With colour off (not a TTY, NO_COLOR, --color=never) a line is exactly `<prefix>: [<tag>: ]<message>\n`, the
 * bytes the tests pin; colour adds the tag's colour and the verdict words' (FAIL, BLOCKED red; WARNING yellow).
 */
import { createConsola, type ConsolaInstance, type LogObject } from "consola/core";
import { type Ctx, useColor } from "./context.ts";
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

/** The verdict words a message may carry (`redaction-scan: FAIL — ...`, `sandbox run: WARNING: ...`). */
const VERDICTS: Record<string, "red" | "yellow"> = { FAIL: "red", BLOCKED: "red", WARNING: "yellow" };
const VERDICT_RE = /\b(FAIL|BLOCKED|WARNING)\b/g;

/** `text` with its verdict words coloured when stderr takes colour; otherwise `text` itself. */
function paintVerdicts(ctx: Ctx, text: string): string {
  if (!useColor(ctx, ctx.io.stderrIsTTY)) return text;
  return text.replace(VERDICT_RE, (w) => paint(ctx, "stderr", VERDICTS[w] ?? "red", w));
}

const instances = new WeakMap<Ctx, ConsolaInstance>();

/**
 * The run's consola; `prefix` names the command (`tracks: warning: ...`; "" for a line that carries its own).
 * `.warn(m)` is `<prefix>: warning: m`, `.log(m)` is `<prefix>: m`. No throttling: every line is written, at once.
 */
export function logger(ctx: Ctx, prefix: string): ConsolaInstance {
  let base = instances.get(ctx);
  if (!base) {
    base = createConsola({
      level: ctx.debug ? 4 : 3,
      throttle: 0,
      reporters: [
        {
          log(obj: LogObject) {
            const [colour, tag] = tags[obj.type] ?? ["dim", obj.type];
            const msg = obj.args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" ");
            const head = tag ? `${paint(ctx, "stderr", colour, tag)}: ` : "";
            ctx.io.stderr(`${obj.tag ? `${obj.tag}: ` : ""}${head}${paintVerdicts(ctx, msg)}\n`);
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
