/** What a code generator hands to a backend: plain data, no GPU objects. */
export interface KernelSource {
  /** Human-readable name, used for labels and error messages. */
  name: string;
  /** Stable key of everything that changed the generated code. */
  key: string;
  wgsl: string;
  entryPoint: string;
}

/** Serialises plain data with sorted keys, so equal inputs always give equal cache keys. */
export function stableKey(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(stableKey).join(',')}]`;
  const obj = value as Record<string, unknown>;
  return `{${Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${stableKey(obj[k])}`)
    .join(',')}}`;
}
