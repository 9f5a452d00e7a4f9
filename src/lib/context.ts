/**
 * What a command gets from the outside world. Tests build one with captured streams, a stub runner and a fixed
 * clock; src/cli.ts builds the real one. Nothing in src/ reads process.env or writes process.stdout directly.
 */
import { writeSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { COMMON_EXITS } from "./exits.ts";
import { errnoCode } from "./errors.ts";
import { realRunner, type Runner } from "./runner.ts";
import { isTerminal } from "./tty.ts";

export type Env = Record<string, string | undefined>;

export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
}

export type ColorMode = "auto" | "always" | "never";

export interface Ctx {
  io: Io;
  env: Env;
  cwd: string;
  runner: Runner;
  /** Epoch milliseconds. */
  now(): number;
  debug: boolean;
  /** argv that re-invokes this very program (the compiled binary, or bun + src/cli.ts). */
  self: string[];
  /** The global --color flag (default auto). */
  color?: ColorMode;
  /** Told of every progress update (src/lib/log.ts progress): `mogui mcp` turns them into progress notifications. */
  onProgress?: (done: number, total?: number, item?: string) => void;
}

/**
 * The process's streams. stdout (data, often large) is Bun's process.stdout, made on first use. stderr (diagnostics,
 * a line or a few) is written straight to fd 2: building process.stderr, and asking either stream whether it is a
 * terminal, loads node:tty, about a millisecond of a start that a hook's one BLOCKED line should not pay. A stderr
 * that cannot take the bytes now (a non-blocking pipe that is full) gets the rest through process.stderr, in order.
 */
export function processIo(): Io {
  let stderrStream: NodeJS.WriteStream | undefined;
  return {
    stdout: (t) => void stream(process.stdout).write(t),
    stderr: (t) => {
      if (stderrStream) return void stderrStream.write(t);
      const rest = writeFd(2, t);
      if (rest !== undefined) {
        stderrStream = stream(process.stderr);
        stderrStream.write(rest);
      }
    },
    get stdoutIsTTY() {
      return isTerminal(1);
    },
    get stderrIsTTY() {
      return isTerminal(2);
    },
  };
}

let stderrGone = false;

/** Write all of `text` to fd; what could not be written without blocking is returned (undefined: all written or dropped). */
function writeFd(fd: number, text: string): Uint8Array | undefined {
  if (stderrGone) return undefined;
  const bytes = new TextEncoder().encode(text);
  let off = 0;
  try {
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
  } catch (e) {
    const code = errnoCode(e);
    if (code === "EAGAIN") return bytes.subarray(off);
    // A reader that went away: later lines are dropped quietly, as the streams below do.
    if (code === "EPIPE") stderrGone = true;
    else process.exitCode = COMMON_EXITS.internal.code;
  }
  return undefined;
}

const watched = new WeakSet<NodeJS.WriteStream>();

/**
 * A reader that goes away (`mogui demo | head -1`) is not an error of ours: later writes are dropped quietly, like
 * any Unix filter's, and the command's own exit code stands. Any other write error fails the run.
 */
function stream(s: NodeJS.WriteStream): NodeJS.WriteStream {
  if (!watched.has(s)) {
    watched.add(s);
    s.on("error", (e: NodeJS.ErrnoException) => {
      if (e.code !== "EPIPE") process.exitCode = COMMON_EXITS.internal.code;
    });
  }
  return s;
}

/** How to run this program again: compiled binaries live in /$bunfs/, source runs need the script path. */
function selfArgv(): string[] {
  const main = Bun.main;
  if (main.startsWith("/$bunfs/") || main.startsWith("B:/~BUN/")) return [process.execPath];
  return [process.execPath, main];
}

export function processCtx(): Ctx {
  return {
    io: processIo(),
    env: process.env as Env,
    cwd: process.cwd(),
    runner: realRunner,
    now: () => Date.now(),
    debug: false,
    self: selfArgv(),
  };
}

/** DECISIONS D2: MOGUI_HOME, default ~/.mogui. */
export function moguiHome(ctx: Pick<Ctx, "env" | "cwd">): string {
  const h = ctx.env.MOGUI_HOME;
  if (h) return resolve(ctx.cwd, h);
  return join(ctx.env.HOME || homedir(), ".mogui");
}

/** DECISIONS D2: explicit flag > the command's documented env var > MOGUI_HOME default. */
export function resolveStatePath(ctx: Pick<Ctx, "env" | "cwd">, flag: string | undefined, envVar: string, file: string): string {
  if (flag) return resolve(ctx.cwd, flag);
  const fromEnv = ctx.env[envVar];
  if (fromEnv) return resolve(ctx.cwd, fromEnv);
  return join(moguiHome(ctx), file);
}

/**
 * Colour: --color always|never wins; then FORCE_COLOR (non-empty and not "0") forces it on; NO_COLOR
 * (https://no-color.org) turns it off; otherwise only on a TTY that is not TERM=dumb.
 */
export function useColor(ctx: Pick<Ctx, "env"> & { color?: ColorMode }, isTTY: boolean): boolean {
  if (ctx.color === "always") return true;
  if (ctx.color === "never") return false;
  const force = ctx.env.FORCE_COLOR;
  if (force !== undefined && force !== "" && force !== "0") return true;
  return isTTY && !("NO_COLOR" in ctx.env && ctx.env.NO_COLOR !== undefined) && ctx.env.TERM !== "dumb";
}
