/**
 * Diagnostics on stderr. consola's default reporter sends info/success to STDOUT and its full import costs
 * start-up time in the compiled binary, so mogui uses consola/core with its own stderr reporter.
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

export function logger(ctx: Ctx, prefix: string): ConsolaInstance {
  return createConsola({
    level: ctx.debug ? 4 : 3,
    reporters: [
      {
        log(obj: LogObject) {
          const [colour, tag] = tags[obj.type] ?? ["dim", obj.type];
          const msg = obj.args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" ");
          const head = tag ? `${paint(ctx, "stderr", colour, tag)}: ` : "";
          ctx.io.stderr(`${prefix}: ${head}${msg}\n`);
        },
      },
    ],
  });
}
