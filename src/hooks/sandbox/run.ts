/**
 * `mogui sandbox run` and `sandbox check`: start a command inside the mechanism with the terminal, environment and
 * working directory as they are, forward SIGTERM, SIGHUP (and SIGINT when stdin is no terminal: a Ctrl-C at a
 * terminal already reaches the child, which shares our process group) to it, and hand its exit status back (a
 * child killed by signal n is 128+n). bubblewrap's status fd tells a command that ran from a sandbox that could not
 * be set up: the latter is reported as the mechanism being unusable, never as the command's own failure.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Mechanism, sandboxArgv } from "./mechanism.ts";

export type Env = Record<string, string | undefined>;

export interface Started {
  /** The exit status to hand back (128+n for a signal). */
  status: number;
  /** bubblewrap only: false when the sandbox was never set up (the command did not run). */
  ran: boolean;
}

const SIGNAL_NUMBERS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15, SIGPIPE: 13, SIGALRM: 14, SIGUSR1: 10, SIGUSR2: 12, SIGABRT: 6, SIGSEGV: 11 };

function cleanEnv(env: Env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}

/** Run argv with the terminal inherited; SIGTERM, SIGHUP (and SIGINT if asked) are forwarded to the command. */
async function spawnInherit(argv: string[], cwd: string, env: Env, withStatusFd: boolean, forwardInt: boolean): Promise<{ code: number; status: string }> {
  const child = Bun.spawn(argv, { cwd, env: cleanEnv(env), stdio: withStatusFd ? ["inherit", "inherit", "inherit", "pipe"] : ["inherit", "inherit", "inherit"] });
  let statusText = "";
  let reading: Promise<void> = Promise.resolve();
  /**
   * The command's pid. bubblewrap's status fd names the init of the sandbox's pid namespace; its one child is the
   * command (a signal to the init itself would not reach it). null until both are known.
   */
  const commandPid = (): number | null => {
    if (!withStatusFd) return child.pid;
    const m = /"child-pid":\s*(\d+)/.exec(statusText);
    if (!m) return null;
    if (!/"pid-namespace"/.test(statusText)) return Number(m[1]);
    try {
      const kids = readFileSync(`/proc/${m[1]}/task/${m[1]}/children`, "utf8").trim();
      return kids ? Number(kids.split(" ")[0]) : null;
    } catch {
      return null;
    }
  };
  const pending: NodeJS.Signals[] = [];
  let exited = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  /** A signal that comes before the command started goes to it once it has (never to bubblewrap itself). */
  const flush = () => {
    retry = undefined;
    if (exited || pending.length === 0) return;
    if (commandPid() === null) {
      retry = setTimeout(flush, 5);
      return;
    }
    for (const sig of pending.splice(0)) deliver(sig);
  };
  const deliver = (sig: NodeJS.Signals) => {
    const pid = commandPid();
    if (pid === null) {
      pending.push(sig);
      if (!retry) retry = setTimeout(flush, 5);
      return;
    }
    try {
      process.kill(pid, sig);
    } catch {
      /* already gone */
    }
  };
  if (withStatusFd) {
    const fd = child.stdio[3] as unknown as number;
    reading = (async () => {
      const reader = Bun.file(fd).stream().getReader();
      const dec = new TextDecoder();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        statusText += dec.decode(value, { stream: true });
        if (pending.length) flush();
      }
    })().catch(() => {});
  }
  const signals: NodeJS.Signals[] = ["SIGTERM", "SIGHUP", "SIGINT"];
  const handlers = signals.map((sig) => {
    const h = () => {
      if (sig === "SIGINT" && !forwardInt) return;
      deliver(sig);
    };
    process.on(sig, h);
    return [sig, h] as const;
  });
  try {
    const code = await child.exited;
    exited = true;
    if (retry) clearTimeout(retry);
    await reading;
    const sig = child.signalCode;
    return { code: sig ? 128 + (SIGNAL_NUMBERS[sig] ?? 0) : code, status: statusText };
  } finally {
    for (const [sig, h] of handlers) process.off(sig, h);
  }
}

/** The command under the mechanism; `ran: false` when bubblewrap could not set the sandbox up. */
export async function runSandboxed(m: Mechanism, denied: readonly string[], command: readonly string[], cwd: string, env: Env, stdinIsTTY: boolean): Promise<Started> {
  const bw = m.name === "bubblewrap";
  const r = await spawnInherit(sandboxArgv(m, denied, cwd, command, bw ? 3 : undefined), cwd, env, bw, !stdinIsTTY);
  if (!bw) return { status: r.code, ran: true };
  const exit = /"exit-code":\s*(\d+)/.exec(r.status);
  return exit ? { status: Number(exit[1]), ran: true } : { status: r.code, ran: false };
}

/** The command with no protection (`--allow-unenforced`). */
export async function runUnprotected(command: readonly string[], cwd: string, env: Env, stdinIsTTY: boolean): Promise<number> {
  return (await spawnInherit([...command], cwd, env, false, !stdinIsTTY)).code;
}

export interface ProbeResult {
  mechanism: Mechanism["name"];
  path: string;
  /** The probe write into the read-only temp dir was refused, and nothing was written. */
  enforced: boolean;
  /** Why not, when not enforced: the mechanism's own first line. */
  problem: string | null;
  /** Per --deny-write path: read-only inside the sandbox (checked with test -w, nothing written). */
  paths: { path: string; read_only: boolean }[];
}

/**
 * The real probe: a temp dir bound read-only, a shell inside the sandbox tries to create a file in it (exit 11 =
 * refused, 10 = it went through), and for each named path asks `test -w` (exit bits). Nothing is left behind.
 */
export async function probe(m: Mechanism, paths: readonly string[], env: Env): Promise<ProbeResult> {
  const dir = mkdtempSync(join(tmpdir(), "mogui-sandbox-probe-"));
  writeFileSync(join(dir, "keep"), "probe\n");
  const script = ['if ( : > "$1/probe-write" ) 2>/dev/null; then r=10; else r=11; fi', "shift", "for p in \"$@\"; do if [ -w \"$p\" ]; then printf 'w\\n'; else printf 'ro\\n'; fi; done", "exit $r"].join("\n");
  try {
    const denied = [dir, ...paths];
    const argv = sandboxArgv(m, denied, dir, ["/bin/sh", "-c", script, "sh", dir, ...paths]);
    const p = Bun.spawn(argv, { cwd: dir, env: cleanEnv(env), stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    const [out, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text()]);
    const code = await p.exited;
    const wrote = existsSync(join(dir, "probe-write"));
    const marks = out.split("\n").filter(Boolean);
    const result = { mechanism: m.name, path: m.path, paths: paths.map((path, i) => ({ path, read_only: marks[i] === "ro" })) };
    if (code === 11 && !wrote) return { ...result, enforced: true, problem: null };
    if (code === 10 || wrote) return { ...result, enforced: false, problem: `${m.name} ran the probe but the write into a read-only path went through` };
    const line = err.trim().split("\n")[0] || `exit ${code}`;
    return { ...result, enforced: false, problem: `${m.name} is installed but cannot create a sandbox here (${line}); are unprivileged user namespaces disabled (sysctl kernel.unprivileged_userns_clone, AppArmor userns restrictions)?` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
