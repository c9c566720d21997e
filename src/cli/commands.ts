/** Commands contributed by applications (registered here so main.ts stays small). */
import { heatCommand } from './heat.js';
import { edmCommand } from './edm.js';
import { sweCommand } from './swe.js';
import { sfftCommand } from './sfft.js';

export interface CliCommand {
  name: string;
  usage: string;
  summary: string;
  run(args: string[]): Promise<void> | void;
}

export const extraCommands: CliCommand[] = [heatCommand, edmCommand, sweCommand, sfftCommand];
