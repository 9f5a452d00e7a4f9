/** Which host: `--host` > MOGUI_WORKER_HOST > herdr. */
import type { Ctx } from "../context.ts";
import { UsageError } from "../errors.ts";
import { HerdrHost } from "./herdr.ts";
import { OrcaHost } from "./orca.ts";
import { HOST_KINDS, type Host, type HostKind } from "./types.ts";

export function hostKind(ctx: Pick<Ctx, "env">, flag: string | undefined, cmd: string): HostKind {
  const raw = flag ?? ctx.env.MOGUI_WORKER_HOST ?? "herdr";
  if (!(HOST_KINDS as readonly string[]).includes(raw)) throw new UsageError(`host must be one of ${HOST_KINDS.join(", ")} (got '${raw}')`, cmd);
  return raw as HostKind;
}

export function makeHost(ctx: Ctx, kind: HostKind, timeoutMs?: number): Host {
  return kind === "orca" ? new OrcaHost(ctx, timeoutMs) : new HerdrHost(ctx, timeoutMs);
}

export type { Host, HostKind } from "./types.ts";
