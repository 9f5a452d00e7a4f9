/**
 * `mogui mcp`: the command set as MCP tools over stdio (D42), on the official TypeScript SDK's low-level `Server`
 * (request handlers, raw JSON Schemas from the registry). A call runs the command in-process through main with a
 * captured Ctx (its stdout becomes the result, never the process's stdout, which carries the protocol only); a
 * destructive call returns its plan and a confirm token first; every call is one row of `$MOGUI_HOME/mcp-ledger.jsonl`.
 * Loaded only by commands/developer/mcp.ts, so no other command's start-up pays for the SDK.
 */
import { join } from "node:path";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { parseArgv } from "../../lib/args.ts";
import { moguiHome, type Ctx } from "../../lib/context.ts";
import { errorMessage, UsageError } from "../../lib/errors.ts";
import { appendRow, checkWritable } from "../../lib/ledger.ts";
import { realRunner, withSignal } from "../../lib/runner.ts";
import type { Registry } from "../../lib/registry.ts";
import { VERSION } from "../../lib/version.ts";
import { canonicalArgs, Confirmations, planHash, REFUSALS, sha256 } from "./confirm.ts";
import { acts, argvOf, classify, CONFIRM_ARG, loadTools, OUTPUT_SCHEMA, stdinProblem, ToolArgError, type Tool } from "./tools.ts";

type MainFn = (argv: readonly string[], ctx?: Partial<Ctx>) => Promise<number>;

export interface ServeOptions {
  registry: Registry;
  main: MainFn;
  readOnly: boolean;
  ctx: Ctx;
}

/** Keys of a plan that change from run to run without the plan changing. */
const VOLATILE = ["timestamp", "ts", "generated_at", "duration_ms", "elapsed_ms", "age_seconds", "age_s"];

interface Ran {
  code: number;
  exit: string;
  stdout: string;
  stderr: string;
  doc: unknown;
  /** A usage error or an internal failure: the tool's result is isError. */
  error: boolean;
  cancelled: boolean;
}

function parseDoc(text: string): unknown {
  const t = text.trim();
  if (!t.startsWith("{") && !t.startsWith("[")) return undefined;
  try {
    return JSON.parse(t);
  } catch {
    return undefined;
  }
}

function textResult(text: string, structured: Record<string, unknown>, isError = false): CallToolResult {
  return { content: [{ type: "text", text }], structuredContent: structured, ...(isError ? { isError: true } : {}) };
}

function structuredOf(r: Ran): Record<string, unknown> {
  const base = r.doc && typeof r.doc === "object" && !Array.isArray(r.doc) ? { ...(r.doc as Record<string, unknown>) } : r.doc === undefined ? {} : { result: r.doc };
  return { ...base, exit_code: r.code, exit: r.exit };
}

function summary(tool: Tool, r: Ran): string {
  const head = `mogui ${tool.path}: exit ${r.code} (${r.exit})`;
  const err = r.stderr.trim();
  const out = r.stdout.trim();
  return [head, ...(err ? [err] : []), ...(out ? [out] : [])].join("\n");
}

export async function serve(opts: ServeOptions): Promise<void> {
  const { ctx, registry } = opts;
  // Only protocol messages on stdout: the transport writes through the real stream; anything else that would write
  // to process.stdout (a stray console.log in a dependency) goes to stderr.
  const stdout = process.stdout;
  const realWrite = stdout.write.bind(stdout);
  const protocolOut = { write: (chunk: string) => realWrite(chunk), once: (ev: string, cb: () => void) => stdout.once(ev, cb) };
  stdout.write = ((chunk: unknown, ...rest: unknown[]) => (process.stderr.write as (...a: unknown[]) => boolean)(chunk, ...rest)) as typeof stdout.write;
  console.log = console.error;
  console.info = console.error;

  let toolsCache: Promise<Tool[]> | undefined;
  const tools = () => (toolsCache ??= loadTools(registry));
  const served = async () => (await tools()).filter((t) => !opts.readOnly || t.hints.readOnly);
  const confirmations = new Confirmations(ctx.now);
  const ledgerPath = join(moguiHome(ctx), "mcp-ledger.jsonl");
  const diag = (line: string) => process.stderr.write(`mogui mcp: ${line}\n`);

  function record(row: Record<string, unknown>): void {
    try {
      appendRow(ledgerPath, { event: "mcp_call", ts: Math.floor(ctx.now() / 1000), read_only_server: opts.readOnly, ...row });
    } catch (e) {
      diag(`the ledger row was not written: ${errorMessage(e)}`);
    }
  }

  async function run(tool: Tool, argv: string[], signal: AbortSignal, onProgress?: Ctx["onProgress"]): Promise<Ran> {
    let out = "";
    let err = "";
    const runCtx: Partial<Ctx> = {
      io: { stdout: (t) => void (out += t), stderr: (t) => void (err += t), stdoutIsTTY: false, stderrIsTTY: false },
      env: ctx.env,
      cwd: ctx.cwd,
      runner: withSignal(realRunner, signal),
      now: ctx.now,
      self: ctx.self,
      color: "never",
      onProgress,
    };
    const aborted = new Promise<"cancelled">((res) => {
      if (signal.aborted) res("cancelled");
      signal.addEventListener("abort", () => res("cancelled"), { once: true });
    });
    const code = await Promise.race([opts.main(argv, runCtx), aborted]);
    if (code === "cancelled") return { code: 130, exit: "cancelled", stdout: out, stderr: err, doc: undefined, error: true, cancelled: true };
    const { exit, error } = classify(tool, code, err);
    return { code, exit, stdout: out, stderr: err, doc: tool.json ? parseDoc(out) : undefined, error, cancelled: false };
  }

  async function call(name: string, args: Record<string, unknown>, signal: AbortSignal, progress?: (p: number, total?: number, message?: string) => Promise<void>): Promise<CallToolResult> {
    const started = performance.now();
    const all = await tools();
    const tool = all.find((t) => t.name === name);
    const argsHash = sha256(canonicalArgs(args));
    const row = (exitCode: number, exit: string, confirm: string) => record({ tool: name, exit_code: exitCode, exit, confirm, args_sha256: argsHash, duration_ms: Math.round(performance.now() - started) });
    if (!tool) {
      row(2, "usage", "none");
      throw new McpError(ErrorCode.InvalidParams, `unknown tool: ${name}`);
    }
    if (opts.readOnly && !tool.hints.readOnly) {
      row(2, "usage", "none");
      return textResult(`${name} is not served: this server runs with --read-only`, { exit_code: 2, exit: "usage" }, true);
    }
    const usageError = (message: string, confirm = "none") => {
      row(2, "usage", confirm);
      return textResult(`mogui ${tool.path}: ${message}`, { exit_code: 2, exit: "usage" }, true);
    };
    let argv: string[];
    try {
      argv = argvOf(tool, args, { add: [] });
    } catch (e) {
      if (e instanceof ToolArgError) return usageError(e.message);
      throw e;
    }
    const stdin = stdinProblem(tool, args);
    if (stdin) return usageError(stdin);
    const token = typeof args[CONFIRM_ARG] === "string" ? (args[CONFIRM_ARG] as string) : undefined;
    let confirmState = "none";
    void progress?.(0, undefined, `mogui ${tool.path}: started`);
    let last = 0;
    const onProgress: Ctx["onProgress"] = (done, total, item) => {
      const p = Math.max(done, last + 1e-3);
      last = p;
      void progress?.(p, total, item);
    };
    if (acts(tool, args)) {
      const w = tool.hints.confirmWith;
      const planArgv = !w ? undefined : "add" in w ? argvOf(tool, args, { add: [w.add] }) : argvOf(tool, args, { remove: [w.remove] });
      let plan: unknown;
      if (planArgv) {
        const p = await run(tool, planArgv, signal, onProgress);
        if (p.cancelled || p.error || p.code !== 0) {
          row(p.code, p.exit, p.cancelled ? "none" : "plan_failed");
          const text = `${summary(tool, p)}\nThe plan (the dry run) failed; nothing was done.`;
          return textResult(text, structuredOf(p), true);
        }
        plan = p.doc ?? p.stdout;
      } else {
        // No dry run: the plan is the call itself, once the command's own parser accepts it.
        try {
          parseArgv(tool.path, argv.slice(tool.path.split(" ").length), tool.cmd.args, tool.cmd.rules, { typed: true });
        } catch (e) {
          if (e instanceof UsageError) return usageError(e.message);
          throw e;
        }
        plan = { tool: name, arguments: JSON.parse(canonicalArgs(args, [CONFIRM_ARG])), note: "this command has no dry run: the plan is the call" };
      }
      const canon = canonicalArgs(args, [CONFIRM_ARG]);
      const hash = planHash(plan, [...VOLATILE, ...(tool.hints.volatile ?? [])]);
      if (!token) {
        const issued = confirmations.issue(name, canon, hash);
        row(0, "ok", "issued");
        const text = [`mogui ${tool.path}: PLAN ONLY, nothing was done. This tool is destructive: call it again with the same`, "arguments plus confirm (structuredContent.confirm) to act, while the plan is unchanged.", JSON.stringify(plan, null, 2)].join(
          "\n",
        );
        return textResult(text, { plan, confirm: issued, exit_code: 0, exit: "ok", confirm_required: true });
      }
      const refused = confirmations.redeem(token, name, canon, hash);
      if (refused) {
        row(2, "usage", `refused:${refused}`);
        return textResult(`mogui ${tool.path}: confirm refused: ${REFUSALS[refused]}`, { exit_code: 2, exit: "usage", confirm_refused: refused }, true);
      }
      try {
        checkWritable(ledgerPath);
      } catch (e) {
        row(2, "ledgerUnavailable", "refused:ledger");
        return textResult(`mogui ${tool.path}: the MCP ledger is not writable, nothing was done: ${errorMessage(e)}`, { exit_code: 2, exit: "ledgerUnavailable" }, true);
      }
      confirmState = "accepted";
      argv = argvOf(tool, args, { add: tool.hints.actWith ?? [] });
    }
    const r = await run(tool, argv, signal, onProgress);
    row(r.code, r.exit, confirmState);
    // Awaited: the last progress is written before the result (the protocol allows none after it), so it is never
    // overtaken by the response.
    await progress?.(last + 1, last + 1, `mogui ${tool.path}: exit ${r.code}`);
    return textResult(summary(tool, r), structuredOf(r), r.error);
  }

  const server = new Server(
    { name: "mogui", version: VERSION },
    {
      capabilities: { tools: { listChanged: false } },
      instructions: [
        "mogui's commands as tools (tool = command path with _; arguments = the command's long flag names).",
        "Results carry the command's JSON document plus exit_code and exit (the declared exit name).",
        "A destructive tool never acts on a first call: it returns structuredContent.plan and structuredContent.confirm;",
        "show the plan, then call again with the same arguments plus confirm to act. Tokens are single use.",
      ].join(" "),
    },
  );
  // SIGTERM / SIGINT (a client stopping the server, spec: after closing stdin) stop the calls in flight, their
  // children included (the runner starts them in their own process groups, which the signal would not reach), then
  // the signal takes its default course.
  const shutdown = new AbortController();
  for (const sig of ["SIGTERM", "SIGINT"] as const) {
    process.once(sig, () => {
      shutdown.abort();
      setTimeout(() => process.kill(process.pid, sig), 50);
    });
  }
  // Requests still being answered when stdin ends (a client that pipes its lines and closes) are answered first.
  const inflight = new Set<Promise<unknown>>();
  const track = <T>(p: Promise<T>): Promise<T> => {
    inflight.add(p);
    void p.finally(() => inflight.delete(p)).catch(() => undefined);
    return p;
  };
  server.setRequestHandler(ListToolsRequestSchema, () => track(listTools()));
  const listTools = async () => ({
    tools: (await served()).map((t) => ({
      name: t.name,
      title: `mogui ${t.path}`,
      description: t.hints.destructive
        ? `${t.cmd.meta.description}\nDestructive: a call that acts first returns the plan (structuredContent.plan) and a token (structuredContent.confirm); the same call with confirm: <token> acts while the plan is unchanged.`
        : t.cmd.meta.description,
      inputSchema: t.inputSchema as { type: "object" },
      outputSchema: OUTPUT_SCHEMA as { type: "object" },
      annotations: {
        title: `mogui ${t.path}`,
        readOnlyHint: t.hints.readOnly,
        destructiveHint: t.hints.destructive,
        idempotentHint: t.hints.idempotent,
        openWorldHint: t.hints.openWorld,
      },
    })),
  });
  server.setRequestHandler(CallToolRequestSchema, (req, extra) => track(callTool(req, extra)));
  const callTool = async (
    req: { params: { name: string; arguments?: Record<string, unknown>; _meta?: { progressToken?: string | number } } },
    extra: { signal: AbortSignal; sendNotification: (n: { method: "notifications/progress"; params: { progressToken: string | number; progress: number; total?: number; message?: string } }) => Promise<void> },
  ): Promise<CallToolResult> => {
    const token = req.params._meta?.progressToken;
    const progress =
      token === undefined
        ? undefined
        : (p: number, total?: number, message?: string) =>
            extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: p, ...(total !== undefined ? { total } : {}), ...(message ? { message } : {}) } }).catch(() => undefined);
    try {
      return await call(req.params.name, (req.params.arguments ?? {}) as Record<string, unknown>, AbortSignal.any([extra.signal, shutdown.signal]), progress);
    } catch (e) {
      if (e instanceof McpError) throw e;
      diag(`internal error in ${req.params.name}: ${errorMessage(e)}`);
      return textResult(`mogui: internal error: ${errorMessage(e)}`, { exit_code: 1, exit: "internal" }, true);
    }
  };
  server.onerror = (e) => diag(e.message);
  // Load the command modules while the client reads the initialize reply: the first tools/list is then warm.
  server.oninitialized = () => void tools().catch((e: Error) => diag(`loading the tools failed: ${e.message}`));

  const transport = new StdioServerTransport(process.stdin, protocolOut as unknown as typeof process.stdout);
  const closed = new Promise<void>((res) => {
    process.stdin.once("end", () => res());
    process.stdin.once("close", () => res());
    transport.onclose = () => res();
  });
  await server.connect(transport);
  await closed;
  while (inflight.size > 0) await Promise.allSettled([...inflight]);
  // The answers are sent once their handlers' promises settle: let those sends run before closing.
  for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
  await server.close().catch(() => undefined);
}
