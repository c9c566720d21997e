/** The `butterfly` commands, each a declaration (options, help) and a run function over parsed arguments. */
import type { CommandSpec, ParsedArgs } from './args.js';

export interface CliCommand {
  spec: CommandSpec;
  /** False where this invocation needs no WebGPU adapter (no Dawn start-up, nothing to filter). */
  usesGpu?(args: ParsedArgs): boolean;
  run(args: ParsedArgs): Promise<void> | void;
  /** Print the usage when run without any argument (instead of running with the defaults). */
  usageWithoutArgs?: boolean;
}
