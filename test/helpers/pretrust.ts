// The pretrust tests' refusal check (codex-worker-pretrust and cursor-worker-pretrust refuse the same way).
import { expect } from "bun:test";
import { PretrustError } from "../../src/dispatch/pretrust/common.ts";
import { errorMessage } from "../../src/lib/errors.ts";

/** Runs `fn`, which must throw a PretrustError; returns its message. */
export function pretrustFailure(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(PretrustError);
    return errorMessage(e);
  }
  throw new Error("expected a PretrustError");
}
