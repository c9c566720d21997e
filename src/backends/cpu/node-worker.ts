/**
 * Starting Node worker threads on one of the engine's entries (fft-worker.ts, page-worker.ts) with the parent's
 * flags, where the parent's command line allows it.
 */
export type WorkerThreads = typeof import('node:worker_threads');
type NodeWorkerCtor = WorkerThreads['Worker'];
let nodeThreads: Promise<WorkerThreads> | null = null;

/** node:worker_threads, imported once (a dynamic import keeps browser bundles free of it). */
export function nodeWorkerThreads(): Promise<WorkerThreads> {
  return (nodeThreads ??= import(/* @vite-ignore */ 'node:worker_threads' as string) as Promise<WorkerThreads>);
}

/** Flags of string input: they would apply to the worker's entry, a file, and fail it (`pairs` take an argument). */
const STRING_INPUT = { pairs: ['-e', '--eval', '-p', '--print'], prefixes: ['--input-type', '--eval=', '--print='] };

/**
 * A Node worker on `entry`, inheriting the parent's flags as they are unless the parent ran string input
 * (node -e, --input-type), whose flags are then left out. A list given explicitly may not hold process-wide flags
 * (--max-old-space-size, --stack-size: the worker shares them anyway); Node names those it refuses, and they are
 * dropped.
 */
export function startNodeWorker(
  W: NodeWorkerCtor,
  entry: URL,
  options: import('node:worker_threads').WorkerOptions,
): InstanceType<NodeWorkerCtor> {
  const argv = process.execArgv;
  const isString = (a: string) => STRING_INPUT.pairs.includes(a) || STRING_INPUT.prefixes.some((p) => a.startsWith(p));
  if (!argv.some(isString)) return new W(entry, options);
  const execArgv: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (STRING_INPUT.pairs.includes(argv[i]!)) i++;
    else if (!isString(argv[i]!)) execArgv.push(argv[i]!);
  }
  try {
    return new W(entry, { ...options, execArgv });
  } catch (e) {
    if ((e as { code?: string }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw e;
    const refused = new Set((e as Error).message.replace(/^[^:]*:\s*/, '').split(/,\s*/));
    return new W(entry, { ...options, execArgv: execArgv.filter((a) => !refused.has(a)) });
  }
}
