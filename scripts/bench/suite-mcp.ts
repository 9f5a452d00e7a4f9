// `mogui mcp` (issue 27): server start to the `initialize` reply, the first and a warm `tools/list` round trip, and a
// read-only `tools/call` round trip (approval_classify, in-process), each as a ratio against `mogui --version`
// measured in the same rounds (one of each per round, so a load spike on a shared machine hits both sides alike).
import { join } from "node:path";
import { fmt, once, printTable, ratio } from "./measure.ts";

const INIT = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "0" } } };

interface Round {
  init: number;
  listCold: number;
  listWarm: number;
  call: number;
}

async function session(bin: string, env: Record<string, string>): Promise<Round> {
  const t0 = performance.now();
  const p = Bun.spawn([bin, "mcp"], { env, stdin: "pipe", stdout: "pipe", stderr: "ignore" });
  const reader = (p.stdout as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buf = "";
  const line = async (): Promise<Record<string, unknown>> => {
    for (;;) {
      const nl = buf.indexOf("\n");
      if (nl >= 0) {
        const l = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        return JSON.parse(l) as Record<string, unknown>;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error("mogui mcp closed stdout");
      buf += decoder.decode(value, { stream: true });
    }
  };
  const send = (m: unknown) => {
    p.stdin.write(`${JSON.stringify(m)}\n`);
    p.stdin.flush();
  };
  const roundTrip = async (m: { id: number }): Promise<number> => {
    const t = performance.now();
    send(m);
    const r = await line();
    if (r.id !== m.id || r.error) throw new Error(`unexpected reply: ${JSON.stringify(r).slice(0, 200)}`);
    return performance.now() - t;
  };
  send(INIT);
  const first = await line();
  if (first.id !== 1) throw new Error("no initialize reply");
  const init = performance.now() - t0;
  send({ jsonrpc: "2.0", method: "notifications/initialized" });
  const listCold = await roundTrip({ jsonrpc: "2.0", id: 2, method: "tools/list" } as { id: number });
  const listWarm = await roundTrip({ jsonrpc: "2.0", id: 3, method: "tools/list" } as { id: number });
  const call = await roundTrip({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "approval_classify", arguments: { "writes-shared": true } } } as { id: number });
  p.stdin.end();
  await p.exited;
  return { init, listCold, listWarm, call };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export default async function mcpSuite({ runs, bin, tmp }: { runs: number; bin: string; tmp: string }): Promise<number> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: tmp, MOGUI_HOME: join(tmp, "home"), NO_COLOR: "1" };
  const version = { argv: [bin, "--version"], env };
  once(version);
  await session(bin, env);
  const v: number[] = [];
  const rounds: Round[] = [];
  for (let i = 0; i < runs; i++) {
    v.push(once(version));
    rounds.push(await session(bin, env));
  }
  const base = median(v);
  const row = (name: string, xs: number[]) => [name, fmt(median(xs)), ratio(median(xs), base)];
  printTable([
    ["measure", "median", "ratio vs --version"],
    ["mogui --version (baseline, whole process)", fmt(base), "1.00"],
    row(
      "mcp: spawn to initialize reply",
      rounds.map((r) => r.init),
    ),
    row(
      "mcp: first tools/list round trip",
      rounds.map((r) => r.listCold),
    ),
    row(
      "mcp: warm tools/list round trip",
      rounds.map((r) => r.listWarm),
    ),
    row(
      "mcp: read-only call round trip (approval_classify)",
      rounds.map((r) => r.call),
    ),
  ]);
  console.log(`\nruns: ${runs} rounds (one --version, one server session each)`);
  return 0;
}
