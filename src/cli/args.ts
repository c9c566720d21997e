/** Command-line flags shared by the CLI commands: `--name value`, `--name=value`, bare `--name` = 'true'. */
export function flags(args: string[]): Record<string, string> {
  const o: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith('--')) throw new Error(`unexpected argument "${a}"`);
    const eq = a.indexOf('=');
    if (eq > 0) o[a.slice(2, eq)] = a.slice(eq + 1);
    else if (i + 1 < args.length && !args[i + 1].startsWith('--')) o[a.slice(2)] = args[++i];
    else o[a.slice(2)] = 'true';
  }
  return o;
}

/** The value after `name` in args (positional commands that also take flags). */
export function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}
