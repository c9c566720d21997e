/**
 * Shared helpers of the reliability suites: error assertions that check the class AND the argument the
 * error names, timeouts (a hang must fail, not stall CI), a seeded property-test driver that prints its
 * case count, and float64 references.
 */
import assert from 'node:assert/strict';
import { ArgumentError, ButterflyError } from '../../src/errors.js';
import { rng } from '../../src/util/random.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ErrorClass = abstract new (...args: any[]) => Error;

/**
 * Awaits `fn()` (sync throw or rejected promise) and checks the error: an instance of `cls`, part of the
 * library's hierarchy, and — for ArgumentError — naming `argument` (exactly, in `.argument` and at the
 * start of the message). For other classes `argument` must appear in the message.
 */
export async function expectError(
  fn: () => unknown,
  cls: ErrorClass,
  argument?: string | RegExp,
  what = '',
): Promise<Error> {
  let err: unknown = null;
  try {
    await fn();
  } catch (e) {
    err = e;
  }
  const label = what ? `${what}: ` : '';
  assert.ok(err !== null, `${label}expected ${cls.name}, but the call succeeded`);
  assert.ok(
    err instanceof cls,
    `${label}expected ${cls.name}, got ${(err as Error)?.name}: ${(err as Error)?.message ?? String(err)}`,
  );
  assert.ok(err instanceof ButterflyError, `${label}${(err as Error).name} is not a ButterflyError`);
  const e = err as Error;
  if (argument !== undefined) {
    if (e instanceof ArgumentError) {
      if (typeof argument === 'string') {
        assert.equal(
          e.argument,
          argument,
          `${label}ArgumentError names "${e.argument}", expected "${argument}" (${e.message})`,
        );
        assert.ok(e.message.startsWith(`${argument}:`), `${label}message should start with the argument: ${e.message}`);
      } else assert.match(e.argument, argument, `${label}${e.message}`);
    } else if (typeof argument === 'string') {
      assert.ok(e.message.includes(argument), `${label}message should mention "${argument}": ${e.message}`);
    } else assert.match(e.message, argument, `${label}${e.message}`);
  }
  return e;
}

/** Rejects with an Error saying what hung when `p` does not settle within `ms`. */
export async function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms (hang)`)), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The seeded random source handed to generators. */
export interface Gen {
  next(): number;
  int(lo: number, hi: number): number;
  pick<T>(xs: readonly T[]): T;
  bool(p?: number): boolean;
  f64(n: number): Float64Array;
}

export function gen(seed: number): Gen {
  const r = rng(seed);
  const g: Gen = {
    next: r,
    int: (lo, hi) => lo + Math.floor(r() * (hi - lo + 1)),
    pick: (xs) => xs[Math.floor(r() * xs.length)],
    bool: (p = 0.5) => r() < p,
    f64: (n) => {
      const out = new Float64Array(n);
      for (let i = 0; i < n; i++) out[i] = 2 * r() - 1;
      return out;
    },
  };
  return g;
}

/** Totals printed at the end of each suite so CI shows how much was checked. */
export const counts = new Map<string, number>();
export function count(name: string, by = 1): void {
  counts.set(name, (counts.get(name) ?? 0) + by);
}

/**
 * Seeded property test: `cases` random cases from `seed`; each gets its own generator (seed + i) so a
 * failure names the one seed that reproduces it. Stops early (still counting) past `budgetMs`.
 * Returns the number of cases run, and prints it.
 */
export async function forAll(
  name: string,
  opts: { seed: number; cases: number; budgetMs?: number },
  prop: (g: Gen, i: number) => Promise<void> | void,
): Promise<number> {
  const t0 = performance.now();
  let i = 0;
  for (; i < opts.cases; i++) {
    if (opts.budgetMs !== undefined && performance.now() - t0 > opts.budgetMs) break;
    const seed = opts.seed + i;
    try {
      await prop(gen(seed), i);
    } catch (e) {
      const err = e as Error;
      err.message = `[property "${name}", case ${i}, seed ${seed}] ${err.message}`;
      throw err;
    }
  }
  console.log(`  property ${name}: ${i} random cases (seed ${opts.seed}, ${Math.round(performance.now() - t0)} ms)`);
  count('property cases', i);
  return i;
}

export function relL2(a: ArrayLike<number>, ref: ArrayLike<number>): number {
  assert.equal(a.length, ref.length, 'lengths differ');
  let num = 0;
  let den = 0;
  for (let i = 0; i < a.length; i++) {
    if (!Number.isFinite(a[i])) return Infinity;
    const d = a[i] - ref[i];
    num += d * d;
    den += ref[i] * ref[i];
  }
  if (den === 0) return Math.sqrt(num);
  return Math.sqrt(num / den);
}

export function norm2(a: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * a[i];
  return Math.sqrt(s);
}

export function allFinite(a: ArrayLike<number>): boolean {
  for (let i = 0; i < a.length; i++) if (!Number.isFinite(a[i])) return false;
  return true;
}

/** Naive float64 DFT of `batch` contiguous complex rows of length n (the independent reference). */
export function naiveDft(x: ArrayLike<number>, n: number, batch: number, inverse = false): Float64Array {
  const out = new Float64Array(2 * n * batch);
  const sign = inverse ? 1 : -1;
  for (let b = 0; b < batch; b++) {
    for (let k = 0; k < n; k++) {
      let re = 0;
      let im = 0;
      for (let j = 0; j < n; j++) {
        const ang = (sign * 2 * Math.PI * ((j * k) % n)) / n;
        const c = Math.cos(ang);
        const s = Math.sin(ang);
        const xr = x[2 * (b * n + j)];
        const xi = x[2 * (b * n + j) + 1];
        re += xr * c - xi * s;
        im += xr * s + xi * c;
      }
      out[2 * (b * n + k)] = re;
      out[2 * (b * n + k) + 1] = im;
    }
  }
  return out;
}

/** f32 relative-L2 bound used across the suites: measured errors sit 10–50× below it. */
export const f32Bound = (n: number): number => 2e-6 * Math.max(1, Math.log2(Math.max(2, n)));
/** float64 bound. */
export const f64Bound = (n: number): number => 1e-13 * Math.max(1, Math.log2(Math.max(2, n)));

/** Prints the counters collected in this process (call from an `after` hook). */
export function printCounts(suite: string): void {
  const parts = [...counts.entries()].map(([k, v]) => `${k} = ${v}`);
  console.log(`[reliability/${suite}] ${parts.join(', ') || 'nothing counted'}`);
}
