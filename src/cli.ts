#!/usr/bin/env bun
// The composition root: the one file of src/ that may import commands/ (the command tree is injected into main).
import { main } from "../commands/index.ts";

// A reader that goes away (`mogui demo | head -1`) is not an error of ours: later writes are dropped quietly, like
// any Unix filter's, and the command's own exit code stands. Any other write error fails the run.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code !== "EPIPE") process.exitCode = 1;
  });
}

process.exitCode = await main(process.argv.slice(2));
