/**
 * The C library through bun:ffi, for the few calls Bun does not expose cheaply (flock(2) for the kernel locks,
 * isatty(3) without loading node:tty). Opened per caller with the symbols it needs; dlopen of the already-mapped
 * libc costs about 0.15 ms, so a command that never needs it never pays.
 */
import { dlopen, type FFIFunction, type Library } from "bun:ffi";

/** glibc is libc.so.6; musl's loader answers to the reserved name libc.so as itself; macOS has libSystem. */
const LIBC_NAMES: Record<string, string[]> = { linux: ["libc.so.6", "libc.so"], darwin: ["libSystem.B.dylib"] };

/** libc opened with `symbols`, or null where there is none to open (Windows) or it cannot be opened. */
export function openLibc<S extends Record<string, FFIFunction>>(symbols: S): Library<S> | null {
  for (const name of LIBC_NAMES[process.platform] ?? []) {
    try {
      return dlopen(name, symbols);
    } catch {
      /* the next name */
    }
  }
  return null;
}
