/**
 * WebGPU device acquisition.
 *
 * Order of preference: a GPUDevice the caller gives us; else `navigator.gpu` (browser, or any runtime
 * that provides it); else the `webgpu` npm package (Dawn) in Node. In Node we first ask Dawn's default
 * backends for a hardware adapter (Vulkan on Linux); when there is none, or only a CPU/software Vulkan
 * driver (lavapipe, SwiftShader: their compute paths abort under Dawn on these machines), we fall back
 * to Mesa's llvmpipe through Dawn's OpenGL ES backend, which runs compute shaders correctly.
 *
 * We always request the adapter's real limits: WebGPU's defaults (16 KiB workgroup storage,
 * 256 invocations, 128 MiB bindings) are far below what GPUs offer and would cap our FFT sizes.
 */
import { ArgumentError, BackendUnavailableError, DeviceError, DestroyedError, DeviceLimitError } from '../../errors.js';
import type { DeviceLimits } from '../../planner/device-limits.js';
// The planners' plain-data view of the device, re-exported for existing importers.
export type { DeviceLimits } from '../../planner/device-limits.js';

/**
 * The most bytes one host array read back from the device may hold: V8 (Node 20, Chrome) refuses typed
 * arrays of more than 2^32 elements, and a read-back is a byte array before it becomes a Float32Array.
 */
export const MAX_READBACK_BYTES = 2 ** 32;

/** Refuses a read-back of `bytes` up front (before any GPU work), naming what would have been read. */
export function checkReadback(bytes: number, what: string): void {
  if (!(bytes <= MAX_READBACK_BYTES)) {
    throw new DeviceLimitError(
      'bytes of one host array',
      bytes,
      MAX_READBACK_BYTES,
      `${what} (larger than one JavaScript typed array; use a plan's encode/execute on GPUBuffers)`,
    );
  }
}

/** The device that created each GPUBuffer and GPUCommandEncoder, where known (see trackDevice). */
const owners = new WeakMap<object, GPUDevice>();
/** Devices whose createBuffer / createCommandEncoder record ownership; complete: tracked since creation. */
const tracked = new WeakMap<GPUDevice, { complete: boolean }>();

/**
 * WebGPU cannot tell which device made a buffer, and binding one of another device only fails later, at
 * the caller's submit. Wrapping the device's factories records the owner of everything made on it.
 */
function trackDevice(device: GPUDevice, complete: boolean): void {
  if (tracked.has(device)) return;
  tracked.set(device, { complete });
  const createBuffer = device.createBuffer;
  const createCommandEncoder = device.createCommandEncoder;
  try {
    device.createBuffer = function (this: GPUDevice, desc: GPUBufferDescriptor): GPUBuffer {
      const b = createBuffer.call(this, desc);
      owners.set(b, device);
      return b;
    };
    device.createCommandEncoder = function (this: GPUDevice, desc?: GPUCommandEncoderDescriptor): GPUCommandEncoder {
      const e = createCommandEncoder.call(this, desc);
      owners.set(e, device);
      return e;
    };
  } catch {
    // A frozen device object: ownership stays unknown and validation errors still surface as DeviceError.
    tracked.set(device, { complete: false });
  }
}

export type BackendKind = 'given' | 'navigator' | 'dawn' | 'dawn-gles';

export interface AdapterDescription {
  backend: BackendKind;
  vendor: string;
  architecture: string;
  device: string;
  description: string;
  /** true for CPU implementations (llvmpipe, SwiftShader, lavapipe, WARP). */
  software: boolean;
}

const LIMIT_NAMES: (keyof DeviceLimits)[] = [
  'maxComputeWorkgroupStorageSize',
  'maxComputeInvocationsPerWorkgroup',
  'maxComputeWorkgroupSizeX',
  'maxComputeWorkgroupsPerDimension',
  'maxStorageBufferBindingSize',
  'maxBufferSize',
  'minStorageBufferOffsetAlignment',
  'maxStorageBuffersPerShaderStage',
  'maxUniformBufferBindingSize',
];

/**
 * A device plus what we learned about it. All GPU work of the library goes through one of these, so that
 * device loss and uncaptured errors are observed in one place.
 */
export class GpuContext {
  readonly limits: DeviceLimits;
  readonly features: ReadonlySet<string>;
  readonly timestamps: boolean;
  private lostInfo: { reason: string; message: string } | null = null;
  private destroyed = false;
  private readonly lostListeners = new Set<(reason: string) => void>();
  /** Validation / out-of-memory errors no error scope caught (work the caller submitted), oldest first. */
  private uncaptured: string[] = [];

  constructor(
    readonly device: GPUDevice,
    readonly adapter: AdapterDescription,
    private readonly ownsDevice: boolean,
  ) {
    this.limits = readLimits(device.limits);
    this.features = new Set([...device.features] as string[]);
    this.timestamps = this.features.has('timestamp-query');
    device.lost.then((info) => {
      this.lostInfo = { reason: String(info.reason), message: info.message };
      for (const l of this.lostListeners) l(this.lostInfo.reason);
    });
    // Buffers and encoders made before a given device reached us are of unknown origin (accepted).
    trackDevice(device, ownsDevice);
    // Errors of work encoded by a plan but submitted by the caller reach no scope of ours: record them and
    // throw at the library's next call on this context. Default handling (the console message) is kept.
    const target = device as unknown as { addEventListener?: (t: string, l: (ev: Event) => void) => void };
    target.addEventListener?.('uncapturederror', (ev: Event) => {
      const err = (ev as unknown as { error?: { message?: string; constructor?: { name?: string } } }).error;
      if (this.uncaptured.length < 8)
        this.uncaptured.push(`${err?.constructor?.name ?? 'GPUError'}: ${err?.message ?? String(err)}`);
    });
  }

  get isLost(): boolean {
    return this.lostInfo !== null;
  }

  get isDestroyed(): boolean {
    return this.destroyed;
  }

  onLost(listener: (reason: string) => void): () => void {
    this.lostListeners.add(listener);
    return () => this.lostListeners.delete(listener);
  }

  /** Throws a library error when this context can no longer run work. */
  assertUsable(what = 'GPU context'): void {
    if (this.destroyed) throw new DestroyedError(`${what}: the GPU context was destroyed`);
    if (this.lostInfo) {
      throw new DeviceError(
        `${what}: the GPU device was lost (${this.lostInfo.reason}: ${this.lostInfo.message}); ` +
          'acquire a new context with acquireGpu() and create new plans',
      );
    }
    if (this.uncaptured.length > 0) {
      const errs = this.uncaptured;
      this.uncaptured = [];
      throw new DeviceError(
        `${what}: WebGPU reported ${errs.length === 1 ? 'an error' : `${errs.length} errors`} in work submitted earlier on this device ` +
          `(commands encoded with encode() and submitted by the caller, or other work on a shared device): ${errs.join(' | ')}`,
      );
    }
  }

  /**
   * Rejects, before anything is encoded, a GPUBuffer the plan cannot bind: not a buffer, of another
   * device, too small or without STORAGE usage. Buffers of a device handed to acquireGpu({ device }) that
   * were created before it are of unknown origin and accepted (a wrong one then fails as a DeviceError).
   */
  checkBuffer(argument: string, buffer: GPUBuffer, minBytes = 0): void {
    const b = buffer as unknown as { size?: unknown; usage?: unknown } | null;
    if (!b || typeof b !== 'object' || typeof b.size !== 'number' || typeof b.usage !== 'number') {
      throw new ArgumentError(argument, buffer, 'a GPUBuffer');
    }
    const owner = owners.get(buffer);
    if (owner ? owner !== this.device : tracked.get(this.device)?.complete) {
      throw new ArgumentError(
        argument,
        `GPUBuffer${buffer.label ? ` "${buffer.label}"` : ''} of another GPUDevice`,
        "a buffer created on the plan's device (create the plan with { gpu: ctx } and the buffer with ctx.device.createBuffer or createStorageBuffer(ctx, …))",
      );
    }
    if ((b.usage & GPUBufferUsage.STORAGE) === 0)
      throw new ArgumentError(argument, `GPUBuffer with usage ${b.usage}`, 'a buffer with GPUBufferUsage.STORAGE');
    if (b.size < minBytes)
      throw new ArgumentError(argument, `GPUBuffer of ${b.size} bytes`, `at least ${minBytes} bytes`);
  }

  /** Rejects a command encoder of another device (see checkBuffer). */
  checkEncoder(argument: string, encoder: GPUCommandEncoder): void {
    const e = encoder as unknown as { beginComputePass?: unknown } | null;
    if (!e || typeof e !== 'object' || typeof e.beginComputePass !== 'function')
      throw new ArgumentError(argument, encoder, 'a GPUCommandEncoder');
    const owner = owners.get(encoder);
    if (owner ? owner !== this.device : tracked.get(this.device)?.complete) {
      throw new ArgumentError(
        argument,
        'GPUCommandEncoder of another GPUDevice',
        "an encoder of the plan's device (create the plan with { gpu: ctx } and the encoder with ctx.device.createCommandEncoder())",
      );
    }
  }

  /**
   * Runs `fn` inside validation and out-of-memory error scopes and turns what Dawn reports into a
   * DeviceError, so an invalid dispatch never passes silently.
   */
  async checked<T>(what: string, fn: () => T): Promise<T> {
    this.assertUsable(what);
    const d = this.device;
    d.pushErrorScope('out-of-memory');
    d.pushErrorScope('validation');
    let result: T | undefined;
    let thrown: unknown = null;
    try {
      result = fn();
    } catch (e) {
      thrown = e;
    }
    const [v, o] = await Promise.all([d.popErrorScope(), d.popErrorScope()]);
    if (thrown) throw thrown;
    if (o) throw new DeviceError(`${what}: the GPU is out of memory (${o.message})`);
    if (v) throw new DeviceError(`${what}: WebGPU validation error: ${v.message}`);
    return result as T;
  }

  /** Releases the device if we created it. Plans made on this context become unusable. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    if (this.ownsDevice) this.device.destroy();
  }
}

function readLimits(l: GPUSupportedLimits): DeviceLimits {
  const out = {} as DeviceLimits;
  for (const k of LIMIT_NAMES) out[k] = Number((l as unknown as Record<string, number>)[k]);
  return out;
}

const SOFTWARE_RE = /llvmpipe|lavapipe|softpipe|swiftshader|warp|microsoft basic render|cpu/i;

function describeAdapter(adapter: GPUAdapter, backend: BackendKind): AdapterDescription {
  const info = (adapter as unknown as { info?: GPUAdapterInfo }).info;
  const vendor = info?.vendor ?? '';
  const architecture = info?.architecture ?? '';
  const device = info?.device ?? '';
  const description = info?.description ?? '';
  const fallback = Boolean((info as unknown as { isFallbackAdapter?: boolean })?.isFallbackAdapter);
  const software =
    fallback || backend === 'dawn-gles' || SOFTWARE_RE.test(`${vendor} ${architecture} ${device} ${description}`);
  return { backend, vendor, architecture, device, description, software };
}

/** Requests every adapter limit we use (and the features worth having), instead of WebGPU's defaults. */
async function requestDeviceWithLimits(adapter: GPUAdapter): Promise<GPUDevice> {
  const requiredLimits: Record<string, number> = {};
  for (const k of LIMIT_NAMES) {
    const v = (adapter.limits as unknown as Record<string, number>)[k];
    if (typeof v === 'number') requiredLimits[k] = v;
  }
  // 'subgroups': the FFT planner's shuffle exchanges (planner/fft-subgroup.ts), used only where the adapter has it.
  const wanted: GPUFeatureName[] = ['timestamp-query', 'subgroups' as GPUFeatureName];
  const requiredFeatures = wanted.filter((f) => adapter.features.has(f));
  return adapter.requestDevice({ requiredLimits, requiredFeatures });
}

export interface AcquireOptions {
  /** Use this device (the library will not destroy it). */
  device?: GPUDevice;
  /**
   * 'auto' (default): hardware adapter if there is one, else the software adapter.
   * 'hardware': fail rather than fall back. 'software': Mesa llvmpipe via Dawn's GLES backend (Node).
   * The environment variable BUTTERFLY_ADAPTER overrides 'auto'.
   */
  adapter?: 'auto' | 'hardware' | 'software';
}

type DawnModule = { create(flags: string[]): GPU; globals: Record<string, unknown> };
let dawnModule: Promise<DawnModule | null> | null = null;
// Dawn GPU instances must outlive their devices; keep them referenced for the process lifetime.
const dawnInstances: GPU[] = [];

async function loadDawn(): Promise<DawnModule | null> {
  if (!dawnModule) {
    dawnModule = (async () => {
      try {
        const specifier = 'webgpu';
        const mod = (await import(/* @vite-ignore */ specifier)) as DawnModule;
        // WebGPU's constant namespaces (GPUBufferUsage, GPUMapMode, ...) are globals in browsers.
        for (const [k, v] of Object.entries(mod.globals)) {
          if (!(k in globalThis)) (globalThis as Record<string, unknown>)[k] = v;
        }
        return mod;
      } catch {
        return null;
      }
    })();
  }
  return dawnModule;
}

/** Obtains a GPU device following the order of preference above. Throws BackendUnavailableError. */
export async function acquireGpu(options: AcquireOptions = {}): Promise<GpuContext> {
  if (options.device) {
    const fakeAdapter = { info: (options.device as unknown as { adapterInfo?: GPUAdapterInfo }).adapterInfo };
    return new GpuContext(options.device, describeAdapter(fakeAdapter as unknown as GPUAdapter, 'given'), false);
  }
  const { adapter, desc } = (await findAdapter(options, false))!;
  return new GpuContext(await requestDeviceWithLimits(adapter), desc, true);
}

/**
 * Whether acquireGpu() would find a hardware adapter, without creating a device: all 'auto' needs to know. On a
 * machine with only llvmpipe, creating its device made the first one-shot call 40 ms slower.
 */
export async function hardwareAdapterAvailable(): Promise<boolean> {
  try {
    return (await findAdapter({}, true)) !== null;
  } catch {
    return false;
  }
}

/**
 * The adapter acquireGpu takes, in its order of preference; with `hardwareOnly`, null where only a software one
 * would be left. Throws BackendUnavailableError where there is none.
 */
async function findAdapter(
  options: AcquireOptions,
  hardwareOnly: boolean,
): Promise<{ adapter: GPUAdapter; desc: AdapterDescription } | null> {
  const env = typeof process !== 'undefined' ? process.env?.BUTTERFLY_ADAPTER : undefined;
  const want =
    options.adapter && options.adapter !== 'auto' ? options.adapter : ((env as AcquireOptions['adapter']) ?? 'auto');
  const tried: string[] = [];

  const nav = (globalThis as { navigator?: { gpu?: GPU } }).navigator;
  if (nav?.gpu) {
    const adapter = await nav.gpu.requestAdapter({ powerPreference: 'high-performance' });
    if (adapter) {
      const desc = describeAdapter(adapter, 'navigator');
      return hardwareOnly && desc.software ? null : { adapter, desc };
    }
    tried.push('navigator.gpu returned no adapter');
  }

  const dawn = await loadDawn();
  if (!dawn) {
    throw new BackendUnavailableError(
      `no WebGPU implementation found (${tried.join('; ') || 'no navigator.gpu'}; the "webgpu" package could not be loaded)`,
    );
  }
  // BUTTERFLY_DAWN_FLAGS: extra flags for Dawn's Node instance (create() flags separated by ";", e.g.
  // "enable-dawn-features=disable_workgroup_init"), for measuring Dawn toggles; none by default.
  const dawnFlags =
    typeof process !== 'undefined' && process.env?.BUTTERFLY_DAWN_FLAGS
      ? process.env.BUTTERFLY_DAWN_FLAGS.split(';').filter(Boolean)
      : [];
  if (want !== 'software') {
    const gpu = dawn.create(dawnFlags);
    dawnInstances.push(gpu);
    const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
    if (adapter) {
      const desc = describeAdapter(adapter, 'dawn');
      if (!desc.software) return { adapter, desc };
      tried.push(`Dawn's default backend offered only a software adapter (${desc.device || desc.description})`);
    } else tried.push("Dawn's default backends found no hardware adapter");
    if (want === 'hardware') throw new BackendUnavailableError(`no hardware WebGPU adapter: ${tried.join('; ')}`);
  }
  if (hardwareOnly) return null;
  if (typeof process !== 'undefined' && process.env && !process.env.EGL_PLATFORM) {
    // llvmpipe needs no display; without this EGL looks for an X11/Wayland one and finds none.
    process.env.EGL_PLATFORM = 'surfaceless';
  }
  const gpu = dawn.create(['backend=opengles']);
  dawnInstances.push(gpu);
  const adapter = await gpu.requestAdapter({ featureLevel: 'compatibility' } as GPURequestAdapterOptions);
  if (!adapter) {
    tried.push(
      "Dawn's OpenGL ES backend found no adapter (install Mesa: libegl1 libgles2 libegl-mesa0 libgl1-mesa-dri)",
    );
    throw new BackendUnavailableError(`no WebGPU adapter available: ${tried.join('; ')}`);
  }
  return { adapter, desc: describeAdapter(adapter, 'dawn-gles') };
}

let defaultGpu: Promise<GpuContext> | null = null;

/** A process-wide shared context, created on first use and replaced when lost or destroyed. */
export async function defaultGpuContext(options: AcquireOptions = {}): Promise<GpuContext> {
  if (defaultGpu) {
    const ctx = await defaultGpu.catch(() => null);
    if (ctx && !ctx.isLost && !ctx.isDestroyed) return ctx;
  }
  defaultGpu = acquireGpu(options);
  return defaultGpu;
}

/** Copies `size` bytes of a storage buffer back to the host. */
export async function readBuffer(ctx: GpuContext, src: GPUBuffer, offset: number, size: number): Promise<ArrayBuffer> {
  ctx.assertUsable('readBuffer');
  checkReadback(size, `reading ${size} bytes back`);
  const d = ctx.device;
  const staging = d.createBuffer({ size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  try {
    const enc = d.createCommandEncoder();
    enc.copyBufferToBuffer(src, offset, staging, 0, size);
    d.queue.submit([enc.finish()]);
    try {
      await staging.mapAsync(GPUMapMode.READ);
    } catch (e) {
      // mapAsync rejects with a DOMException (AbortError / OperationError) when the device is lost or the
      // source destroyed while the read is in flight; the lost promise settles a moment later.
      await new Promise((r) => setTimeout(r, 0));
      ctx.assertUsable('readBuffer');
      const err = e as Error;
      throw new DeviceError(
        `readBuffer: reading ${size} bytes back failed (${err?.name ?? 'Error'}: ${err?.message ?? String(e)})`,
      );
    }
    const copy = staging.getMappedRange().slice(0);
    staging.unmap();
    return copy;
  } finally {
    staging.destroy();
  }
}

/** Whether a view lies on a SharedArrayBuffer. */
export function isSharedView(data: ArrayBufferView): boolean {
  return typeof SharedArrayBuffer !== 'undefined' && data.buffer instanceof SharedArrayBuffer;
}

/** Creates a storage buffer initialised from `data` (padded to 4 bytes). */
export function createStorageBuffer(ctx: GpuContext, data: ArrayBufferView | number, label?: string): GPUBuffer {
  ctx.assertUsable('createStorageBuffer');
  const byteLength = typeof data === 'number' ? data : data.byteLength;
  const size = Math.max(16, Math.ceil(byteLength / 16) * 16);
  const buf = ctx.device.createBuffer({
    size,
    label,
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
  });
  if (typeof data !== 'number' && data.byteLength > 0) {
    let bytes = new Uint8Array(data.buffer as ArrayBuffer, data.byteOffset, data.byteLength);
    // writeBuffer takes no SharedArrayBuffer views (Dawn and the WebGPU IDL): such data goes through a copy.
    if (isSharedView(data)) bytes = bytes.slice();
    if (bytes.byteLength % 4 === 0)
      ctx.device.queue.writeBuffer(buf, 0, bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength);
    else {
      const padded = new Uint8Array(Math.ceil(bytes.byteLength / 4) * 4);
      padded.set(bytes);
      ctx.device.queue.writeBuffer(buf, 0, padded);
    }
  }
  return buf;
}
