/**
 * The one argument parser of the `butterfly` commands. Each command declares its options (name, whether it
 * takes a value, help text); the parser rejects anything undeclared, and the typed getters turn a bad value
 * into an ArgumentError naming the flag and the text given (`--grid: expected an integer ≥ 1, got "abc"`).
 * The help text is generated from the same declaration, so every documented option exists and vice versa.
 */
import { ArgumentError } from '../errors.js';

export interface OptionSpec {
  /** Placeholder of the value (`N`, `file`, `auto|cpu`); absent for a bare flag. */
  value?: string;
  help: string;
}

export interface CommandSpec {
  name: string;
  /** One line for `butterfly help`. */
  summary: string;
  /** Positional arguments: their synopsis (e.g. `<n | shape>`) and how many are allowed. */
  positionals?: { synopsis: string; max: number; help?: string };
  /** Keyed by the flag with its dashes (`--grid`). */
  options: Record<string, OptionSpec>;
  /** Extra paragraphs after the options. */
  notes?: string;
}

const HELP_FLAGS = new Set(['--help', '-h']);

/** The usage text of a command, generated from its declaration. */
export function formatHelp(spec: CommandSpec): string {
  const lines = [
    `usage: butterfly ${spec.name}${spec.positionals ? ` ${spec.positionals.synopsis}` : ''} [options]`,
    `  ${spec.summary}`,
    '',
  ];
  if (spec.positionals?.help) lines.push(...spec.positionals.help.split('\n').map((l) => `  ${l}`), '');
  const entries = Object.entries(spec.options).map(
    ([name, o]) => [`${name}${o.value ? ` ${o.value}` : ''}`, o.help] as const,
  );
  entries.push(['--help, -h', 'this text']);
  const width = Math.min(28, Math.max(...entries.map(([l]) => l.length)) + 2);
  for (const [left, help] of entries) {
    const [first, ...rest] = help.split('\n');
    if (left.length + 2 > width) lines.push(`  ${left}`, `  ${' '.repeat(width)}${first}`);
    else lines.push(`  ${left.padEnd(width)}${first}`);
    for (const r of rest) lines.push(`  ${' '.repeat(width)}${r}`);
  }
  if (spec.notes) lines.push('', spec.notes);
  return lines.join('\n');
}

export interface NumberBounds {
  min?: number;
  max?: number;
  /** Strict lower bound (a time step, a length in metres). */
  above?: number;
}

function boundsText(what: string, b: NumberBounds): string {
  const parts: string[] = [];
  if (b.above !== undefined) parts.push(`> ${b.above}`);
  if (b.min !== undefined) parts.push(`≥ ${b.min}`);
  if (b.max !== undefined) parts.push(`≤ ${b.max}`);
  return parts.length ? `${what} ${parts.join(' and ')}` : what;
}

function inBounds(v: number, b: NumberBounds): boolean {
  return (
    (b.above === undefined || v > b.above) && (b.min === undefined || v >= b.min) && (b.max === undefined || v <= b.max)
  );
}

/** Parsed arguments of one command; the getters validate as they read. */
export class ParsedArgs {
  constructor(
    readonly spec: CommandSpec,
    /** `--help` or `-h` was given: print formatHelp(spec) and do nothing else. */
    readonly help: boolean,
    readonly positionals: readonly string[],
    private readonly values: ReadonlyMap<string, string | true>,
  ) {}

  has(name: string): boolean {
    this.declared(name);
    return this.values.has(name);
  }

  /** A bare flag: true when given. */
  flag(name: string): boolean {
    this.declared(name);
    return this.values.has(name);
  }

  string(name: string): string | undefined;
  string(name: string, fallback: string): string;
  string(name: string, fallback?: string): string | undefined {
    this.declared(name);
    const v = this.values.get(name);
    return v === undefined ? fallback : (v as string);
  }

  int(name: string): number | undefined;
  int(name: string, fallback: number, bounds?: NumberBounds): number;
  int(name: string, fallback?: number, bounds: NumberBounds = {}): number | undefined {
    const text = this.string(name);
    if (text === undefined) return fallback;
    const v = /^[+-]?\d+$/.test(text.trim()) ? Number(text) : NaN;
    if (!Number.isSafeInteger(v) || !inBounds(v, bounds))
      throw new ArgumentError(name, text, boundsText('an integer', bounds));
    return v;
  }

  number(name: string): number | undefined;
  number(name: string, fallback: number, bounds?: NumberBounds): number;
  number(name: string, fallback?: number, bounds: NumberBounds = {}): number | undefined {
    const text = this.string(name);
    if (text === undefined) return fallback;
    const v = text.trim() === '' ? NaN : Number(text);
    if (!Number.isFinite(v) || !inBounds(v, bounds))
      throw new ArgumentError(name, text, boundsText('a number', bounds));
    return v;
  }

  /** A number that must be given. */
  requiredNumber(name: string, bounds: NumberBounds = {}): number {
    const v = this.number(name);
    if (v === undefined) throw new ArgumentError(name, undefined, `${boundsText('a number', bounds)} (required here)`);
    return this.number(name, v, bounds);
  }

  choice<T extends string>(name: string, choices: readonly T[], fallback: T): T {
    const v = this.string(name);
    if (v === undefined) return fallback;
    if (!(choices as readonly string[]).includes(v))
      throw new ArgumentError(name, v, `${choices.slice(0, -1).join(', ')} or ${choices[choices.length - 1]}`);
    return v as T;
  }

  /** Comma-separated integers and inclusive ranges: `1-7`, `1,4,7`, `2,5-6`. */
  intList(name: string, bounds: NumberBounds = {}): number[] | undefined {
    const text = this.string(name);
    if (text === undefined) return undefined;
    const what = `${boundsText('integers', bounds)}, as a list and/or ranges (e.g. 1-7 or 1,4,7)`;
    const out: number[] = [];
    for (const part of text.split(',')) {
      const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
      if (!m) throw new ArgumentError(name, text, what);
      const a = Number(m[1]);
      const b = m[2] === undefined ? a : Number(m[2]);
      if (b < a || !inBounds(a, bounds) || !inBounds(b, bounds)) throw new ArgumentError(name, text, what);
      for (let i = a; i <= b; i++) out.push(i);
    }
    return out;
  }

  private declared(name: string): void {
    if (!(name in this.spec.options)) throw new Error(`internal: ${this.spec.name} reads undeclared option ${name}`);
  }
}

/**
 * Parses `argv` against a command's declaration: `--name value`, `--name=value`, bare `--name`; `--help`/`-h`
 * anywhere. Undeclared options, missing values, values given to bare flags, repeated options and surplus
 * positionals are ArgumentErrors. A value may start with `-` when it is a number (`--axes -1`).
 */
export function parseArgs(spec: CommandSpec, argv: readonly string[]): ParsedArgs {
  const values = new Map<string, string | true>();
  const positionals: string[] = [];
  // --help wins over everything else on the line, even options that would be errors.
  if (argv.some((a) => HELP_FLAGS.has(a))) return new ParsedArgs(spec, true, [], values);
  const names = Object.keys(spec.options);
  const isOption = (a: string) => a.startsWith('-') && !/^-\.?\d/.test(a);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!isOption(a)) {
      if (!spec.positionals) throw new ArgumentError('argument', a, 'options of the form --name value (see --help)');
      if (positionals.length >= spec.positionals.max) {
        throw new ArgumentError(
          'argument',
          a,
          `at most ${spec.positionals.max} ${spec.positionals.synopsis} (already have ${JSON.stringify(positionals.join(' '))})`,
        );
      }
      positionals.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(0, eq) : a;
    const o = spec.options[name];
    if (!o)
      throw new ArgumentError('option', a, `one of ${[...names, '--help'].join(', ')} (butterfly ${spec.name} --help)`);
    if (values.has(name))
      throw new ArgumentError(name, eq > 0 ? a.slice(eq + 1) : argv[i + 1], 'at most one value (given twice)');
    if (!o.value) {
      if (eq > 0) throw new ArgumentError(name, a.slice(eq + 1), 'no value (it is a flag)');
      values.set(name, true);
      continue;
    }
    let value: string | undefined;
    if (eq > 0) value = a.slice(eq + 1);
    else if (i + 1 < argv.length && !isOption(argv[i + 1])) value = argv[++i];
    if (value === undefined || value === '') throw new ArgumentError(name, value, `a value after it (${o.value})`);
    values.set(name, value);
  }
  return new ParsedArgs(spec, false, positionals, values);
}

/** Numbers for people: integers as they are, others to `digits` significant digits (no trailing zeros). */
export function fmt(x: number, digits = 4): string {
  if (!Number.isFinite(x)) return String(x);
  if (Number.isInteger(x) && Math.abs(x) < 1e15) return String(x);
  const a = Math.abs(x);
  if (a !== 0 && (a < 1e-3 || a >= 1e9)) return x.toExponential(digits - 1).replace(/\.?0+e/, 'e');
  return String(Number(x.toPrecision(digits)));
}
