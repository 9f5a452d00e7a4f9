/**
 * Is a file descriptor a terminal? `process.stdin.isTTY` answers by loading node:tty, about 2 ms of a start: too much
 * in front of every command `sandbox run` starts. isatty(3) from the C library answers the same for a few
 * microseconds; where there is no libc to open, node:tty answers.
 */
import { FFIType } from "bun:ffi";
import { openLibc } from "./libc.ts";

let isattyFn: ((fd: number) => number) | null | undefined;

export function isTerminal(fd: number): boolean {
  if (isattyFn === undefined) isattyFn = (openLibc({ isatty: { args: [FFIType.i32], returns: FFIType.i32 } })?.symbols.isatty as ((fd: number) => number) | undefined) ?? null;
  if (isattyFn) return isattyFn(fd) === 1;
  return (require("node:tty") as typeof import("node:tty")).isatty(fd);
}
