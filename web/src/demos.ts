/**
 * The demos, in the order they start. Each is a module with start(env): it builds its panel, runs its
 * verified computation (exporting the checks to window.__butterfly.demos[id]) and then animates.
 * A demo is listed here only when the library API it shows exists.
 */
import type { Env } from './common.js';
import * as spectrogram from './panels/spectrogram.js';
import * as heat from './panels/heat.js';
import * as shallowWater from './panels/shallow-water.js';
import * as benchmark from './panels/benchmark.js';

export interface Demo {
  id: string;
  start(env: Env): Promise<void>;
}

export const DEMOS: Demo[] = [
  { id: 'spectrogram', start: spectrogram.start },
  { id: 'heat', start: heat.start },
  { id: 'shallow-water', start: shallowWater.start },
  { id: 'bench', start: benchmark.start },
];
