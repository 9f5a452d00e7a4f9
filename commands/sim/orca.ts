import { defineMoguiCommand } from "../../src/lib/command.ts";
export default defineMoguiCommand({
  meta: { name: "sim orca", description: "placeholder" },
  usage: ["sim orca <orca args>"],
  args: {},
  passthrough: true,
  async run() {
    return 0;
  },
});
