/**
 * The state file named by ORCA_SIM_STATE. Every mutation is one transaction under a cross-process lock
 * (read -> change -> write tmp + rename), so concurrent `orca` calls never lose each other's updates and a
 * reader never sees a half-written file. A transaction that throws writes nothing.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { withLock } from "../../../lib/lock.ts";
import { SimError } from "./errors.ts";
import { normalizeState } from "./normalize.ts";
import { pretty } from "./output.ts";
import type { SimState } from "./types.ts";
import { errorMessage } from "../../../lib/errors.ts";
import { atomicWrite } from "../../../lib/fs.ts";

export class Store {
  private cachedRuntimeId: string | undefined;

  constructor(
    readonly path: string,
    /** Builds the first state when the file does not exist yet (from ORCA_SIM_SCENARIO). */
    private readonly seed: () => SimState,
    private readonly now: () => number,
  ) {}

  private load(): { state: SimState; text: string | null } {
    if (!existsSync(this.path)) {
      const state = this.seed();
      return { state, text: null };
    }
    const text = readFileSync(this.path, "utf8");
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (e) {
      throw new SimError("runtime_error", `orca simulator: state file ${this.path} is not JSON: ${errorMessage(e)}`, undefined, true);
    }
    return { state: normalizeState(raw, this.now()), text };
  }

  /** A snapshot without the lock: for reads that change nothing. */
  read(): SimState {
    // The first call persists the seed, so generated ids and hashes stay the same on every later read.
    if (!existsSync(this.path)) return this.tx((s) => s);
    const { state } = this.load();
    this.cachedRuntimeId = state.runtimeId;
    return state;
  }

  tx<T>(fn: (s: SimState) => T): T {
    mkdirSync(dirname(this.path), { recursive: true });
    return withLock(`${this.path}.lock`, () => {
      const { state, text } = this.load();
      this.cachedRuntimeId = state.runtimeId;
      const out = fn(state);
      const next = pretty(state);
      if (next !== text) this.write(next);
      return out;
    });
  }

  private write(text: string): void {
    atomicWrite(this.path, text);
  }

  runtimeId(): string {
    return this.cachedRuntimeId ?? this.read().runtimeId;
  }
}
