/**
 * `orchestration check` (docs/orca-cli.md §6). Default mode hands out FIFO Deliveries (<= 50 messages) and replays the
 * same batch until `--ack`; `--unread` consumes, `--peek`/`--all` only look. `--wait` polls the state file until a
 * matching message arrives (keepalive JSON lines on stderr) and a timeout is `count:0, timedOut:true`, exit 0.
 */
import { optBool, optInt, optString } from "./argv.ts";
import { type Call, type CommandTable, now } from "./call.ts";
import { invalidArgument, SimError } from "./errors.ts";
import { iso, orchId } from "./ids.ts";
import { boundRun, requireCaller } from "./orch-common.ts";
import type { Outcome } from "./output.ts";
import type { MessageRow, SimState } from "./types.ts";

type Mode = "delivery" | "unread" | "peek" | "all";
interface Batch {
  messages: MessageRow[];
  deliveryId?: string | null;
  replayed?: boolean;
}

/** Without --timeout-ms the real CLI waits indefinitely; the simulator gives up after 10 minutes. */
const DEFAULT_WAIT_MS = 10 * 60_000;
const POLL_MS = 50;
const BATCH = 50;

function take(s: SimState, handle: string, mode: Mode, types: string[] | undefined, at: string): Batch {
  const mine = s.messages.filter((m) => m.to_handle === handle && (!types || types.includes(m.type)));
  if (mode === "all") return { messages: mine };
  if (mode === "peek") return { messages: mine.filter((m) => !m.read) };
  if (mode === "unread") {
    const fresh = mine.filter((m) => !m.read);
    for (const m of fresh) Object.assign(m, { read: 1, delivered_at: m.delivered_at ?? at });
    return { messages: fresh };
  }
  const open = s.deliveries.find((d) => d.handle === handle && !d.acked);
  if (open) return { messages: s.messages.filter((m) => open.messageIds.includes(m.id)), deliveryId: open.id, replayed: true };
  const handed = new Set(s.deliveries.flatMap((d) => d.messageIds));
  const batch = mine.filter((m) => !m.read && !handed.has(m.id)).slice(0, BATCH);
  if (!batch.length) return { messages: [], deliveryId: null, replayed: false };
  const id = orchId("dlv");
  s.deliveries.push({ id, handle, messageIds: batch.map((m) => m.id), acked: false });
  for (const m of batch) m.delivered_at = m.delivered_at ?? at;
  return { messages: batch, deliveryId: id, replayed: false };
}

function acknowledge(call: Call, handle: string, id: string): void {
  call.store.tx((s) => {
    const d = s.deliveries.find((x) => x.id === id && x.handle === handle);
    if (!d) throw new SimError("invalid_argument", `Unknown delivery ${id} for ${handle}.`);
    d.acked = true;
    for (const m of s.messages) if (d.messageIds.includes(m.id)) m.read = 1;
  });
}

function render(b: Batch, runId: string | undefined): Outcome {
  const lines = b.messages.map((m) => `${m.id} [${m.type}] from=${m.from_handle} "${m.subject}"`);
  const result = { ...b, count: b.messages.length, ...(runId ? { runId } : {}) };
  if (!b.deliveryId) return { result, text: lines.join("\n") || "No messages." };
  const head = `Delivery ${b.deliveryId} [${b.replayed ? "replayed" : "new"}]`;
  return { result, text: [head, ...lines, `Acknowledge with: orca orchestration check --ack ${b.deliveryId}`].join("\n") };
}

function modeOf(call: Call): Mode {
  const modes = (["unread", "peek", "all"] as const).filter((m) => call.flags.has(m));
  if (modes.length > 1) throw invalidArgument("Choose only one of --unread, --peek, --all.");
  const mode = modes[0] ?? "delivery";
  if (mode === "peek" && optBool(call.flags, "wait")) throw new SimError("peek_wait_unsupported", "--peek cannot be combined with --wait.", undefined, true);
  return mode;
}

async function check(call: Call): Promise<Outcome> {
  const mode = modeOf(call);
  const types = optString(call.flags, "types")
    ?.split(",")
    .map((t) => t.trim())
    .filter(Boolean);
  const timeoutMs = optInt(call.flags, "timeout-ms");
  const handle = requireCaller(call, "terminal");
  const ack = optString(call.flags, "ack");
  if (ack) acknowledge(call, handle, ack);
  const runId = boundRun(call.store.read(), handle)?.id;
  const started = Date.now();
  const deadline = started + (timeoutMs ?? DEFAULT_WAIT_MS);
  const every = Number(call.ctx.env.ORCA_KEEPALIVE_INTERVAL_MS) || 15_000;
  let nextKeepalive = started + every;
  for (;;) {
    const b = call.store.tx((s) => take(s, handle, mode, types, iso(now(call))));
    if (b.messages.length || !optBool(call.flags, "wait")) return render(b, runId);
    if (Date.now() >= deadline) {
      return { result: { messages: [], count: 0, timedOut: true, ...(runId ? { runId } : {}) }, text: "Wait timed out; no messages were consumed." };
    }
    if (Date.now() >= nextKeepalive) {
      // The real orca's keepalive document (data the waiter skips), as is.
      call.ctx.io.stderr(`${JSON.stringify({ _keepalive: true, _heartbeat: true, elapsedMs: Date.now() - started, deadlineMs: timeoutMs ?? null })}\n`);
      nextKeepalive += every;
    }
    await Bun.sleep(POLL_MS);
  }
}

export const CHECK_COMMANDS: CommandTable = {
  "orchestration check": {
    flags: ["terminal", "run", "ack", "unread", "peek", "all", "types", "format", "wait", "timeout-ms", "retry-request"],
    usage: "orca orchestration check [--terminal <handle>] [--ack <delivery_id>] [--unread | --peek | --all] [--types <a,b>] [--wait] [--timeout-ms <n>] [--json]",
    run: check,
  },
};
