// src/errors.ts
var ButterflyError = class extends Error {
  name = "ButterflyError";
};
var ArgumentError = class extends ButterflyError {
  constructor(argument, value, expected) {
    super(`${argument}: expected ${expected}, got ${describe(value)}`);
    this.argument = argument;
    this.value = value;
    this.expected = expected;
  }
  argument;
  value;
  expected;
  name = "ArgumentError";
};
var UnsupportedError = class extends ButterflyError {
  name = "UnsupportedError";
};
var DeviceLimitError = class extends ButterflyError {
  constructor(limit, needed, available, detail) {
    super(`${detail}: needs ${limit} = ${needed}, the device allows ${available}`);
    this.limit = limit;
    this.needed = needed;
    this.available = available;
  }
  limit;
  needed;
  available;
  name = "DeviceLimitError";
};
var DestroyedError = class extends ButterflyError {
  name = "DestroyedError";
};
var DeviceError = class extends ButterflyError {
  name = "DeviceError";
};
var BackendUnavailableError = class extends ButterflyError {
  name = "BackendUnavailableError";
};
function describe(v) {
  if (v === null) return "null";
  if (v === void 0) return "undefined";
  if (typeof v === "number" || typeof v === "boolean" || typeof v === "bigint") return String(v);
  if (typeof v === "string") return JSON.stringify(v.length > 40 ? v.slice(0, 40) + "\u2026" : v);
  if (ArrayBuffer.isView(v)) {
    const n = v.length ?? v.byteLength;
    return `${v.constructor.name}(length ${n})`;
  }
  if (Array.isArray(v)) return `array(length ${v.length})`;
  if (typeof v === "object") return v.constructor?.name ?? "object";
  return typeof v;
}

// src/backends/webgpu/device.ts
var LIMIT_NAMES = [
  "maxComputeWorkgroupStorageSize",
  "maxComputeInvocationsPerWorkgroup",
  "maxComputeWorkgroupSizeX",
  "maxComputeWorkgroupsPerDimension",
  "maxStorageBufferBindingSize",
  "maxBufferSize",
  "minStorageBufferOffsetAlignment",
  "maxStorageBuffersPerShaderStage",
  "maxUniformBufferBindingSize"
];
var GpuContext = class {
  constructor(device2, adapter, ownsDevice) {
    this.device = device2;
    this.adapter = adapter;
    this.ownsDevice = ownsDevice;
    this.limits = readLimits(device2.limits);
    this.features = /* @__PURE__ */ new Set([...device2.features]);
    this.timestamps = this.features.has("timestamp-query");
    device2.lost.then((info) => {
      this.lostInfo = { reason: String(info.reason), message: info.message };
      for (const l of this.lostListeners) l(this.lostInfo.reason);
    });
  }
  device;
  adapter;
  ownsDevice;
  limits;
  features;
  timestamps;
  lostInfo = null;
  destroyed = false;
  lostListeners = /* @__PURE__ */ new Set();
  get isLost() {
    return this.lostInfo !== null;
  }
  get isDestroyed() {
    return this.destroyed;
  }
  onLost(listener) {
    this.lostListeners.add(listener);
    return () => this.lostListeners.delete(listener);
  }
  /** Throws a library error when this context can no longer run work. */
  assertUsable(what = "GPU context") {
    if (this.destroyed) throw new DestroyedError(`${what}: the GPU context was destroyed`);
    if (this.lostInfo) {
      throw new DeviceError(
        `${what}: the GPU device was lost (${this.lostInfo.reason}: ${this.lostInfo.message}); acquire a new context with acquireGpu() and create new plans`
      );
    }
  }
  /**
   * Runs `fn` inside validation and out-of-memory error scopes and turns what Dawn reports into a
   * DeviceError, so an invalid dispatch never passes silently.
   */
  async checked(what, fn) {
    this.assertUsable(what);
    const d = this.device;
    d.pushErrorScope("out-of-memory");
    d.pushErrorScope("validation");
    let result;
    let thrown = null;
    try {
      result = fn();
    } catch (e) {
      thrown = e;
    }
    const [v, o] = await Promise.all([d.popErrorScope(), d.popErrorScope()]);
    if (thrown) throw thrown;
    if (o) throw new DeviceError(`${what}: the GPU is out of memory (${o.message})`);
    if (v) throw new DeviceError(`${what}: WebGPU validation error: ${v.message}`);
    return result;
  }
  /** Releases the device if we created it. Plans made on this context become unusable. */
  destroy() {
    if (this.destroyed) return;
    this.destroyed = true;
    if (this.ownsDevice) this.device.destroy();
  }
};
function readLimits(l) {
  const out2 = {};
  for (const k of LIMIT_NAMES) out2[k] = Number(l[k]);
  return out2;
}
var SOFTWARE_RE = /llvmpipe|lavapipe|softpipe|swiftshader|warp|microsoft basic render|cpu/i;
function describeAdapter(adapter, backend) {
  const info = adapter.info;
  const vendor = info?.vendor ?? "";
  const architecture = info?.architecture ?? "";
  const device2 = info?.device ?? "";
  const description = info?.description ?? "";
  const fallback = Boolean(info?.isFallbackAdapter);
  const software2 = fallback || backend === "dawn-gles" || SOFTWARE_RE.test(`${vendor} ${architecture} ${device2} ${description}`);
  return { backend, vendor, architecture, device: device2, description, software: software2 };
}
async function requestDeviceWithLimits(adapter) {
  const requiredLimits = {};
  for (const k of LIMIT_NAMES) {
    const v = adapter.limits[k];
    if (typeof v === "number") requiredLimits[k] = v;
  }
  const wanted = ["timestamp-query"];
  const requiredFeatures = wanted.filter((f) => adapter.features.has(f));
  return adapter.requestDevice({ requiredLimits, requiredFeatures });
}
var dawnModule = null;
var dawnInstances = [];
async function loadDawn() {
  if (!dawnModule) {
    dawnModule = (async () => {
      try {
        const specifier = "webgpu";
        const mod = await import(
          /* @vite-ignore */
          specifier
        );
        for (const [k, v] of Object.entries(mod.globals)) {
          if (!(k in globalThis)) globalThis[k] = v;
        }
        return mod;
      } catch {
        return null;
      }
    })();
  }
  return dawnModule;
}
async function acquireGpu(options = {}) {
  if (options.device) {
    const fakeAdapter = { info: options.device.adapterInfo };
    return new GpuContext(options.device, describeAdapter(fakeAdapter, "given"), false);
  }
  const env = typeof process !== "undefined" ? process.env?.BUTTERFLY_ADAPTER : void 0;
  const want = options.adapter && options.adapter !== "auto" ? options.adapter : env ?? "auto";
  const tried = [];
  const nav = globalThis.navigator;
  if (nav?.gpu) {
    const adapter2 = await nav.gpu.requestAdapter({ powerPreference: "high-performance" });
    if (adapter2) {
      const desc = describeAdapter(adapter2, "navigator");
      return new GpuContext(await requestDeviceWithLimits(adapter2), desc, true);
    }
    tried.push("navigator.gpu returned no adapter");
  }
  const dawn = await loadDawn();
  if (!dawn) {
    throw new BackendUnavailableError(
      `no WebGPU implementation found (${tried.join("; ") || "no navigator.gpu"}; the "webgpu" package could not be loaded)`
    );
  }
  const dawnFlags = typeof process !== "undefined" && process.env?.BUTTERFLY_DAWN_FLAGS ? process.env.BUTTERFLY_DAWN_FLAGS.split(";").filter(Boolean) : [];
  if (want !== "software") {
    const gpu2 = dawn.create(dawnFlags);
    dawnInstances.push(gpu2);
    const adapter2 = await gpu2.requestAdapter({ powerPreference: "high-performance" });
    if (adapter2) {
      const desc = describeAdapter(adapter2, "dawn");
      if (!desc.software) return new GpuContext(await requestDeviceWithLimits(adapter2), desc, true);
      tried.push(`Dawn's default backend offered only a software adapter (${desc.device || desc.description})`);
    } else tried.push("Dawn's default backends found no hardware adapter");
    if (want === "hardware") throw new BackendUnavailableError(`no hardware WebGPU adapter: ${tried.join("; ")}`);
  }
  if (typeof process !== "undefined" && process.env && !process.env.EGL_PLATFORM) {
    process.env.EGL_PLATFORM = "surfaceless";
  }
  const gpu = dawn.create(["backend=opengles"]);
  dawnInstances.push(gpu);
  const adapter = await gpu.requestAdapter({ featureLevel: "compatibility" });
  if (!adapter) {
    tried.push("Dawn's OpenGL ES backend found no adapter (install Mesa: libegl1 libgles2 libegl-mesa0 libgl1-mesa-dri)");
    throw new BackendUnavailableError(`no WebGPU adapter available: ${tried.join("; ")}`);
  }
  return new GpuContext(await requestDeviceWithLimits(adapter), describeAdapter(adapter, "dawn-gles"), true);
}
var defaultGpu = null;
async function defaultGpuContext(options = {}) {
  if (defaultGpu) {
    const ctx2 = await defaultGpu.catch(() => null);
    if (ctx2 && !ctx2.isLost && !ctx2.isDestroyed) return ctx2;
  }
  defaultGpu = acquireGpu(options);
  return defaultGpu;
}
async function readBuffer(ctx2, src2, offset, size) {
  ctx2.assertUsable("readBuffer");
  const d = ctx2.device;
  const staging = d.createBuffer({ size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  try {
    const enc = d.createCommandEncoder();
    enc.copyBufferToBuffer(src2, offset, staging, 0, size);
    d.queue.submit([enc.finish()]);
    try {
      await staging.mapAsync(GPUMapMode.READ);
    } catch (e) {
      await new Promise((r) => setTimeout(r, 0));
      ctx2.assertUsable("readBuffer");
      const err = e;
      throw new DeviceError(`readBuffer: reading ${size} bytes back failed (${err?.name ?? "Error"}: ${err?.message ?? String(e)})`);
    }
    const copy2 = staging.getMappedRange().slice(0);
    staging.unmap();
    return copy2;
  } finally {
    staging.destroy();
  }
}
function createStorageBuffer(ctx2, data, label) {
  ctx2.assertUsable("createStorageBuffer");
  const byteLength = typeof data === "number" ? data : data.byteLength;
  const size = Math.max(16, Math.ceil(byteLength / 16) * 16);
  const buf = ctx2.device.createBuffer({
    size,
    label,
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST
  });
  if (typeof data !== "number" && data.byteLength > 0) {
    const bytes2 = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    if (bytes2.byteLength % 4 === 0) ctx2.device.queue.writeBuffer(buf, 0, bytes2.buffer, bytes2.byteOffset, bytes2.byteLength);
    else {
      const padded = new Uint8Array(Math.ceil(bytes2.byteLength / 4) * 4);
      padded.set(bytes2);
      ctx2.device.queue.writeBuffer(buf, 0, padded);
    }
  }
  return buf;
}

// src/planner/fft-problem.ts
var NORMS = ["backward", "ortho", "forward"];
function isPositiveInteger(v) {
  return typeof v === "number" && Number.isSafeInteger(v) && v >= 1;
}
function layout(name, l, n) {
  const out2 = { offset: l?.offset ?? 0, stride: l?.stride ?? 1, dist: l?.dist ?? n };
  if (!Number.isSafeInteger(out2.offset) || out2.offset < 0) throw new ArgumentError(`${name}.offset`, out2.offset, "a non-negative integer");
  if (!isPositiveInteger(out2.stride)) throw new ArgumentError(`${name}.stride`, out2.stride, "a positive integer");
  if (!Number.isSafeInteger(out2.dist) || out2.dist < 0) throw new ArgumentError(`${name}.dist`, out2.dist, "a non-negative integer");
  return out2;
}
function fftProblem(init) {
  if (!isPositiveInteger(init.n)) throw new ArgumentError("n", init.n, "a positive integer transform length");
  const batch = init.batch === void 0 ? 1 : init.batch;
  if (!isPositiveInteger(batch)) throw new ArgumentError("batch", batch, "a positive integer");
  const direction2 = init.direction ?? "forward";
  if (direction2 !== "forward" && direction2 !== "inverse") throw new ArgumentError("direction", direction2, "'forward' or 'inverse'");
  const norm = init.norm ?? "backward";
  if (!NORMS.includes(norm)) throw new ArgumentError("norm", norm, "'backward', 'ortho' or 'forward'");
  return Object.freeze({
    n: init.n,
    batch,
    direction: direction2,
    norm,
    input: layout("input", init.input, init.n),
    output: layout("output", init.output, init.n)
  });
}
function normScale(n, direction2, norm) {
  if (norm === "ortho") return 1 / Math.sqrt(n);
  if (norm === "backward") return direction2 === "inverse" ? 1 / n : 1;
  return direction2 === "forward" ? 1 / n : 1;
}
function layoutSpan(l, n, batch) {
  return l.offset + (batch - 1) * l.dist + (n - 1) * l.stride + 1;
}

// src/core/digits.ts
var MAX_LAYOUT_SIZE = 2 ** 30;
function validateLayout(radices, argument = "radices") {
  if (!Array.isArray(radices)) throw new ArgumentError(argument, radices, "an array of radices (integers \u2265 2)");
  let size = 1;
  for (let i = 0; i < radices.length; i++) {
    const r = radices[i];
    if (typeof r !== "number" || !Number.isInteger(r) || r < 2) {
      throw new ArgumentError(`${argument}[${i}]`, r, "an integer radix \u2265 2");
    }
    size *= r;
    if (size > MAX_LAYOUT_SIZE) {
      throw new ArgumentError(argument, radices, `a layout whose product is at most 2^30`);
    }
  }
}

// src/core/stockham.ts
function stockhamOperatorString(radices) {
  validateLayout(radices, "radices");
  const n = radices.length;
  const terms = [];
  for (let s = 0; s < n; s++) terms.push({ op: "B", i: n }, { op: "S", i: n, j: s + 1 });
  return terms;
}

// src/core/operator-string.ts
var SUPERSCRIPT = "\u2070\xB9\xB2\xB3\u2074\u2075\u2076\u2077\u2078\u2079";
var UNICODE_SYMBOL = { G: "\u0393", S: "\u03C3", R: "\u03C1", B: "B" };
function superscript(v) {
  return String(v).split("").map((c) => SUPERSCRIPT[Number(c)]).join("");
}
function termArgs(term) {
  switch (term.op) {
    case "B":
      return [term.i];
    case "R":
      return [term.i, term.j];
    default:
      return term.k !== void 0 && term.l !== void 0 ? [term.i, term.j, term.k, term.l] : [term.i, term.j];
  }
}
function termPower(term) {
  if (term.op === "B") return term.r ?? 1;
  if (term.op === "R") return 1;
  return term.m ?? 1;
}
function formatTerm(term, style = "unicode") {
  const args2 = termArgs(term).join(",");
  const power = termPower(term);
  if (style === "ascii") return `${term.op}${power === 1 ? "" : `^${power}`}(${args2})`;
  return `${UNICODE_SYMBOL[term.op]}${power === 1 ? "" : superscript(power)}[${args2}]`;
}
function formatOperatorString(terms, style = "unicode") {
  return terms.map((t) => formatTerm(t, style)).join(" ");
}

// src/planner/fft-workgroup.ts
function pairedLastRadices(n, maxRadix) {
  const bits = Math.log2(n);
  const rb = Math.log2(maxRadix);
  const q = Math.floor(bits / rb);
  const rem = bits - q * rb;
  const full = (k) => Array.from({ length: k }, () => maxRadix);
  if (rem > 0 && q >= 1) return [...full(q), 1 << rem].sort((a, b) => b - a);
  return [...full(q - 1), maxRadix / 2, 2];
}
function isPowerOfTwo(n) {
  return Number.isSafeInteger(n) && n >= 1 && (n & n - 1) === 0;
}
function factorRadices(n, maxRadix = 16) {
  if (n === 1) return [1];
  let m = n;
  let twos = 0;
  while (m % 2 === 0) {
    m /= 2;
    twos++;
  }
  const odd = [];
  for (let p = 3; p * p <= m; p += 2) {
    while (m % p === 0) {
      odd.push(p);
      m /= p;
    }
  }
  if (m > 1) odd.push(m);
  const maxBits = Math.log2(maxRadix);
  const pow2 = [];
  if (twos > 0) {
    const stages = Math.ceil(twos / maxBits);
    const base = Math.floor(twos / stages);
    const extra = twos % stages;
    for (let s = 0; s < stages; s++) pow2.push(2 ** (base + (s < extra ? 1 : 0)));
  }
  return [...pow2, ...odd.sort((a, b) => b - a)];
}
function largestWorkgroupFft(limits, options = {}) {
  let best = 1;
  for (let n = 2; n <= 1 << 16; n *= 2) {
    try {
      planWorkgroupFft(n, 1, limits, options);
      best = n;
    } catch {
      break;
    }
  }
  return best;
}
function planWorkgroupFft(n, batch, limits, options = {}) {
  if (!Number.isSafeInteger(n) || n < 1) throw new ArgumentError("n", n, "a positive integer");
  const maxRadix = options.maxRadix ?? (n >= 8192 && !options.pass ? 32 : 16);
  if (!isPowerOfTwo(maxRadix) || maxRadix < 2 || maxRadix > 64) throw new ArgumentError("maxRadix", maxRadix, "a power of two in 2..64");
  const maxSingle = options.maxSingleInvocation ?? 16;
  const target = options.targetWorkgroupSize ?? (n <= 4 ? 128 : 32);
  const maxInv = Math.min(limits.maxComputeInvocationsPerWorkgroup, limits.maxComputeWorkgroupSizeX);
  const balanced = n <= maxSingle && isPowerOfTwo(n) ? [n] : factorRadices(n, maxRadix);
  if (balanced.some((r) => r > 64)) {
    throw new UnsupportedError(
      `n = ${n} has the prime factor ${Math.max(...balanced)}, larger than the register radices (\u2264 64) of the workgroup FFT`
    );
  }
  const oddLast = Math.ceil(n / balanced[balanced.length - 1] / Math.ceil(n / Math.max(...balanced))) % 2 === 1;
  const radices = options.evenLastButterflies && balanced.length > 1 && isPowerOfTwo(n) && oddLast ? pairedLastRadices(n, maxRadix) : balanced;
  const l = Math.ceil(n / Math.max(...radices));
  const stages = [];
  let stride = 1;
  for (const r of radices) {
    stages.push({ radix: r, stride, butterfliesPerInvocation: Math.ceil(n / r / l) });
    stride *= r;
  }
  const registers = Math.max(...stages.map((s) => s.radix * s.butterfliesPerInvocation));
  if (l > maxInv) {
    throw new DeviceLimitError("maxComputeInvocationsPerWorkgroup", l, maxInv, `a single-workgroup FFT of n = ${n}`);
  }
  const storage = limits.maxComputeWorkgroupStorageSize;
  const padShift = 4;
  const padded = (count, pad2) => pad2 ? count + (count >> padShift) + 1 : count;
  let exchange = "none";
  let pad = false;
  let elemBytes = 0;
  const split4Ok = isPowerOfTwo(n) && stages.length >= 3 && l % 2 === 0 && radices[0] < l && radices[0] <= 16;
  const replan16 = () => planWorkgroupFft(n, batch, limits, { ...options, maxRadix: 16 });
  const split4By16 = !split4Ok && isPowerOfTwo(n) && maxRadix > 16 && !options.pass;
  if (stages.length > 1) {
    const candidates = [];
    const order = n >= 1024 ? ["split", "complex", "split4"] : ["complex", "split"];
    if (options.exchange === "split4" && !split4Ok) {
      if (split4By16) return replan16();
      throw new ArgumentError("exchange", "split4", `a power-of-two n in \u2265 3 stages with an even number of invocations (n = ${n}: radices ${radices.join("\xB7")}, ${l} invocations)`);
    }
    for (const ex of options.exchange ? [options.exchange] : order) {
      if (ex === "split4" && !split4Ok) continue;
      for (const p of options.padding === void 0 ? [true, false] : [options.padding]) candidates.push([ex, p]);
    }
    const bytes2 = (ex, p) => ex === "split4" ? padded(n / 2, p) * 4 : padded(n, p) * (ex === "complex" ? 8 : 4);
    const fit = candidates.find(([ex, p]) => bytes2(ex, p) <= storage);
    if (!fit && split4By16 && !options.exchange && bytes2("split4", false) <= storage) return replan16();
    if (!fit) {
      const needed = split4Ok ? bytes2("split4", false) : padded(n, false) * 4;
      throw new DeviceLimitError("maxComputeWorkgroupStorageSize", needed, storage, `a single-workgroup FFT of n = ${n}`);
    }
    [exchange, pad] = fit;
    elemBytes = exchange === "complex" ? 8 : 4;
  }
  const pass = options.pass;
  if (pass) {
    const direct = (options.passLoads ?? "direct") === "direct";
    const cols = options.minColumns ?? 4;
    const complexFits = cols * passRowStride(n) * 8 <= storage;
    const splitOk = direct && stages.length > 1;
    exchange = splitOk && (options.exchange === "split" || !options.exchange && !complexFits) ? "split" : "complex";
    pad = true;
    elemBytes = exchange === "complex" ? 8 : 4;
  }
  const staging = !pass && stages.length === 1 && n > 1 && (options.staging ?? true);
  if (staging) {
    exchange = "complex";
    pad = true;
    elemBytes = 8;
  }
  const rowStride = pass ? passRowStride(n) : padded(exchange === "split4" ? n / 2 : n, pad);
  let b = Math.max(pass ? options.minColumns ?? 4 : 1, Math.floor(target / l));
  if (elemBytes > 0) b = Math.min(b, Math.floor(storage / (rowStride * elemBytes)));
  if (pass && b < (options.minColumns ?? 4)) {
    throw new DeviceLimitError("maxComputeWorkgroupStorageSize", (options.minColumns ?? 4) * rowStride * elemBytes, storage, `a ${n}-point pass with ${options.minColumns ?? 4} columns`);
  }
  b = Math.min(b, Math.floor(maxInv / l));
  if (options.maxProblemsPerWorkgroup) b = Math.min(b, options.maxProblemsPerWorkgroup);
  b = 2 ** Math.floor(Math.log2(Math.max(1, Math.min(b, nextPow2(batch)))));
  if (pass && pass.total % n !== 0) throw new ArgumentError("pass.total", pass.total, `a multiple of the pass length ${n}`);
  return {
    algorithm: "stockham-workgroup",
    n,
    radices,
    stages,
    operators: radices.length === 1 && radices[0] === 1 ? "" : formatOperatorString(stockhamOperatorString(radices), "ascii"),
    registers,
    invocationsPerProblem: l,
    problemsPerWorkgroup: b,
    workgroupSize: l * b,
    exchange,
    padShift: pad ? padShift : 0,
    workgroupBytes: staging ? 8 * b * (n + 1) : elemBytes * b * rowStride,
    // One table read per butterfly and powers by multiplication: table reads were the bottleneck of
    // large n (4096: 0.41 → 0.63 of copy bandwidth on an H200), at ~2× the (still tiny) rounding error.
    twiddles: options.twiddles ?? "recurrence",
    staging,
    ...pass ? {
      pass: {
        total: pass.total,
        stride: pass.stride,
        store: passStore(pass, options, exchange),
        outerTwiddle: pass.outerTwiddle ?? true,
        loads: options.passLoads ?? "direct",
        batchFastest: pass.batchFastest ?? false
      }
    } : {},
    bytesPerProblem: 16 * n
  };
}
function passStore(pass, options, exchange) {
  const direct = (options.passLoads ?? "direct") === "direct";
  if (pass.stride > 1) return direct ? "direct" : "column";
  const rowsOk = direct && exchange === "complex" && !pass.batchFastest;
  return options.passStore === "rows" && rowsOk ? "rows" : "direct";
}
function passRowStride(n) {
  const p = n + (n >> 4) + 1;
  return p % 2 === 0 ? p + 1 : p;
}
function nextPow2(x) {
  return 2 ** Math.ceil(Math.log2(Math.max(1, x)));
}

// src/planner/fft-multipass.ts
function largestPassLength(limits, options = {}) {
  let best = 0;
  for (let r = 2; r <= 1 << 16; r *= 2) {
    try {
      planWorkgroupFft(r, 1 << 20, limits, { ...options, pass: { total: r * 2, stride: 1 } });
      best = r;
    } catch {
      break;
    }
  }
  return best;
}
function planFft(n, batch, limits, options = {}) {
  try {
    return planWorkgroupFft(n, batch, limits, options);
  } catch (e) {
    if (e instanceof ArgumentError) throw e;
    if (e instanceof UnsupportedError && !isSmooth(n)) throw e;
    return planMultiPass(n, batch, limits, options);
  }
}
function primeFactors(n) {
  const f = [];
  let m = n;
  for (let p = 2; p * p <= m; p += p === 2 ? 1 : 2) {
    while (m % p === 0) {
      f.push(p);
      m /= p;
    }
  }
  if (m > 1) f.push(m);
  return f;
}
function isSmooth(n) {
  return primeFactors(n).every((p) => p <= 64);
}
function passLengths(n, rmax) {
  if (n <= rmax) return [n];
  if (isPowerOfTwo(n) && isPowerOfTwo(rmax)) {
    const bits = Math.log2(n);
    const passes = Math.ceil(bits / Math.log2(rmax));
    const base = Math.floor(bits / passes);
    const extra = bits % passes;
    return Array.from({ length: passes }, (_, i) => 2 ** (base + (i < extra ? 1 : 0)));
  }
  const factors = primeFactors(n).sort((a, b) => b - a);
  if (factors[0] > rmax) throw new UnsupportedError(`n = ${n} has the prime factor ${factors[0]}, larger than the longest pass (${rmax})`);
  for (let passes = Math.ceil(Math.log(n) / Math.log(rmax)); passes <= factors.length; passes++) {
    const bins = new Array(passes).fill(1);
    let ok = true;
    for (const f of factors) {
      let best = -1;
      for (let i = 0; i < passes; i++) if (bins[i] * f <= rmax && (best < 0 || bins[i] < bins[best])) best = i;
      if (best < 0) {
        ok = false;
        break;
      }
      bins[best] *= f;
    }
    if (ok) return bins.sort((a, b) => b - a);
  }
  throw new UnsupportedError(`n = ${n} cannot be split into passes of at most ${rmax}`);
}
function planMultiPass(n, batch, limits, options = {}, batchFastest = false) {
  if (!Number.isSafeInteger(n) || n < 2) throw new ArgumentError("n", n, "an integer \u2265 2");
  if (!isSmooth(n)) {
    throw new UnsupportedError(`n = ${n} has a prime factor larger than 64; WebGPU handles such lengths by Bluestein in a later version (use the CPU backend)`);
  }
  const opts = { minColumns: 8, ...options };
  const rmax = Math.min(largestPassLength(limits, opts), options.maxPassLength ?? 256);
  if (rmax < 2) throw new UnsupportedError("the device holds no multi-pass FFT column in workgroup memory");
  const lengths2 = passLengths(n, rmax);
  const firstColumns = options.firstPassColumns ?? (isPowerOfTwo(n) && !batchFastest && !(lengths2[0] === 128 && n >= 1 << 20) ? 4 : void 0);
  const passes = [];
  let stride = 1;
  for (const [i, r] of lengths2.entries()) {
    const cols = i === lengths2.length - 1 && options.lastPassColumns ? { minColumns: options.lastPassColumns } : i === 0 && firstColumns ? { minColumns: firstColumns } : {};
    passes.push(planWorkgroupFft(r, batch * (n / r), limits, { ...opts, ...cols, pass: { total: n, stride, batchFastest } }));
    stride *= r;
  }
  return { algorithm: "stockham-multipass", n, lengths: lengths2, passes, bytesPerProblem: 16 * n * passes.length };
}
function describeRecipe(recipe) {
  if (recipe.algorithm === "bluestein") {
    const inner = describeRecipe(recipe.inner);
    return { passes: 2 * inner.passes, radices: `bluestein L=${recipe.L}: ${inner.radices} (fwd+inv)`, mapping: inner.mapping, exchange: inner.exchange };
  }
  const list = recipe.algorithm === "stockham-multipass" ? recipe.passes : [recipe];
  return {
    passes: list.length,
    radices: list.map((r) => r.radices.join("\xB7")).join(" | "),
    mapping: list.map((r) => `${r.invocationsPerProblem}\xD7${r.problemsPerWorkgroup}`).join(" | "),
    exchange: list.map((r) => r.exchange).join(" | ")
  };
}

// src/planner/twiddles.ts
function twiddleTable64(n) {
  const t = new Float64Array(2 * n);
  for (let e = 0; e < n; e++) {
    const [c, s] = unitRoot(e, n);
    t[2 * e] = c;
    t[2 * e + 1] = s;
  }
  return t;
}
function twiddleTable32(n) {
  return Float32Array.from(twiddleTable64(n));
}
function unitRoot(e, n) {
  e %= n;
  if (e < 0) e += n;
  const e8 = 8 * e;
  const q = Math.floor(e8 / n);
  const rem = e8 - q * n;
  let c;
  let s;
  if (q % 2 === 0) {
    const a = Math.PI / 4 * (rem / n);
    c = Math.cos(a);
    s = Math.sin(a);
  } else {
    const a = Math.PI / 4 * ((n - rem) / n);
    c = Math.sin(a);
    s = Math.cos(a);
  }
  let x = c;
  let y = s;
  for (let k = 0; k < q >> 1; k++) [x, y] = [-y, x];
  return [x, -y];
}
function bluesteinChirp(m, direction2) {
  const sgn = direction2 === "forward" ? 1 : -1;
  const w = new Float64Array(2 * m);
  let sq = 0;
  for (let j = 0; j < m; j++) {
    const [c, s] = unitRoot(sq, 2 * m);
    w[2 * j] = c;
    w[2 * j + 1] = sgn * s;
    sq = (sq + 2 * j + 1) % (2 * m);
  }
  return w;
}
function bluesteinFilter(w, m, L) {
  const b = new Float64Array(2 * L);
  for (let j = 0; j < m; j++) {
    b[2 * j] = w[2 * j];
    b[2 * j + 1] = -w[2 * j + 1];
    if (j > 0) {
      b[2 * (L - j)] = w[2 * j];
      b[2 * (L - j) + 1] = -w[2 * j + 1];
    }
  }
  return b;
}

// src/backends/webgpu/pipelines.ts
var caches = /* @__PURE__ */ new WeakMap();
function stableKey(value) {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(stableKey).join(",")}]`;
  const obj = value;
  return `{${Object.keys(obj).filter((k) => obj[k] !== void 0).sort().map((k) => `${JSON.stringify(k)}:${stableKey(obj[k])}`).join(",")}}`;
}
function getPipeline(ctx2, src2) {
  ctx2.assertUsable(src2.name);
  let cache4 = caches.get(ctx2.device);
  if (!cache4) {
    cache4 = /* @__PURE__ */ new Map();
    caches.set(ctx2.device, cache4);
  }
  const hit = cache4.get(src2.key);
  if (hit) return hit;
  const p = compile(ctx2, src2);
  cache4.set(src2.key, p);
  p.catch(() => cache4.delete(src2.key));
  return p;
}
async function compile(ctx2, src2) {
  const d = ctx2.device;
  d.pushErrorScope("validation");
  const module = d.createShaderModule({ code: src2.wgsl, label: src2.name });
  const info = await module.getCompilationInfo();
  const errors = info.messages.filter((m) => m.type === "error");
  const pipeline = await d.createComputePipelineAsync({ layout: "auto", label: src2.name, compute: { module, entryPoint: src2.entryPoint } }).catch((e) => e);
  const scopeError = await d.popErrorScope();
  if (errors.length > 0 || pipeline instanceof Error || scopeError) {
    const msgs = errors.map((m) => `  line ${m.lineNum}:${m.linePos}: ${m.message}`).join("\n");
    const detail = pipeline instanceof Error ? pipeline.message : scopeError?.message ?? "";
    throw new DeviceError(`kernel ${src2.name} failed to compile:
${msgs}
${detail}`);
  }
  return pipeline;
}
function dispatchGrid(count, maxPerDim) {
  if (count <= maxPerDim) return [Math.max(1, count), 1];
  const y = Math.ceil(count / maxPerDim);
  if (y > maxPerDim) {
    throw new DeviceLimitError("maxComputeWorkgroupsPerDimension", y, maxPerDim, `a dispatch of ${count} workgroups (a 2-D grid of ${maxPerDim} \xD7 ${y})`);
  }
  const x = Math.ceil(count / y);
  return [x, y];
}

// src/codegen/dft-small.ts
function dftEmitter(prefix = "t") {
  let counter = 0;
  const lines = [];
  return { lines, fresh: (p = prefix) => `${p}${counter++}` };
}
function f32(x) {
  if (Object.is(x, -0) || x === 0) return "0.0";
  const s = x.toPrecision(9);
  return s.includes(".") || s.includes("e") ? s : `${s}.0`;
}
function twiddleExpr(em, x, k, m, sign) {
  const g = gcd(k, m);
  k /= g;
  m /= g;
  k %= m;
  if (k === 0) return x;
  if (8 % m === 0) {
    const e = k * (8 / m) % 8 * sign;
    const q = (e % 8 + 8) % 8;
    switch (q) {
      case 2:
        return `vec2<f32>(-(${x}).y, (${x}).x)`;
      // ·i
      case 4:
        return `(-(${x}))`;
      case 6:
        return `vec2<f32>((${x}).y, -(${x}).x)`;
      // ·(−i)
      case 1:
        return `(vec2<f32>((${x}).x - (${x}).y, (${x}).x + (${x}).y) * ${f32(Math.SQRT1_2)})`;
      case 3:
        return `(vec2<f32>(-(${x}).x - (${x}).y, (${x}).x - (${x}).y) * ${f32(Math.SQRT1_2)})`;
      case 5:
        return `(vec2<f32>((${x}).y - (${x}).x, -(${x}).x - (${x}).y) * ${f32(Math.SQRT1_2)})`;
      case 7:
        return `(vec2<f32>((${x}).x + (${x}).y, (${x}).y - (${x}).x) * ${f32(Math.SQRT1_2)})`;
    }
  }
  const a = sign * 2 * Math.PI * k / m;
  return `cmul(${x}, vec2<f32>(${f32(Math.cos(a))}, ${f32(Math.sin(a))}))`;
}
function gcd(a, b) {
  while (b) [a, b] = [b, a % b];
  return Math.abs(a);
}
function emitDft(em, inputs, sign) {
  const r = inputs.length;
  if (r === 1) return inputs.slice();
  if ((r & r - 1) === 0) return emitPow2(em, inputs, sign);
  if (r % 2 === 1) return emitOdd(em, inputs, sign);
  return emitSplit2(em, inputs, sign);
}
function emitPow2(em, x, sign) {
  const r = x.length;
  if (r === 2) {
    const a = em.fresh();
    const b = em.fresh();
    em.lines.push(`let ${a} = ${x[0]} + ${x[1]};`, `let ${b} = ${x[0]} - ${x[1]};`);
    return [a, b];
  }
  return emitSplit2(em, x, sign);
}
function emitSplit2(em, x, sign) {
  const r = x.length;
  const h = r / 2;
  const even = emitDft(em, x.filter((_, i) => i % 2 === 0), sign);
  const odd = emitDft(em, x.filter((_, i) => i % 2 === 1), sign);
  const out2 = new Array(r);
  for (let k = 0; k < h; k++) {
    const tw = twiddleExpr(em, odd[k], k, r, sign);
    let t = tw;
    if (tw !== odd[k]) {
      t = em.fresh();
      em.lines.push(`let ${t} = ${tw};`);
    }
    const a = em.fresh();
    const b = em.fresh();
    em.lines.push(`let ${a} = ${even[k]} + ${t};`, `let ${b} = ${even[k]} - ${t};`);
    out2[k] = a;
    out2[k + h] = b;
  }
  return out2;
}
function emitOdd(em, x, sign) {
  const r = x.length;
  const half = (r - 1) / 2;
  const s = [];
  const d = [];
  for (let i = 1; i <= half; i++) {
    const si = em.fresh("s");
    const di = em.fresh("d");
    em.lines.push(`let ${si} = ${x[i]} + ${x[r - i]};`, `let ${di} = ${x[i]} - ${x[r - i]};`);
    s.push(si);
    d.push(di);
  }
  const out2 = [];
  const y0 = em.fresh();
  em.lines.push(`let ${y0} = ${[x[0], ...s].join(" + ")};`);
  out2.push(y0);
  const pairs = [];
  for (let k = 1; k <= half; k++) {
    const a = em.fresh("a");
    const b = em.fresh("b");
    const cosTerms = s.map((si, i) => `${si} * ${f32(Math.cos(2 * Math.PI * (i + 1) * k / r))}`);
    const sinTerms = d.map((di, i) => `${di} * ${f32(Math.sin(2 * Math.PI * (i + 1) * k / r))}`);
    em.lines.push(`let ${a} = ${x[0]} + ${cosTerms.join(" + ")};`, `let ${b} = ${sinTerms.join(" + ")};`);
    const yk = em.fresh();
    const yr = em.fresh();
    const ib = `vec2<f32>(-${b}.y, ${b}.x)`;
    if (sign === 1) em.lines.push(`let ${yk} = ${a} + ${ib};`, `let ${yr} = ${a} - ${ib};`);
    else em.lines.push(`let ${yk} = ${a} - ${ib};`, `let ${yr} = ${a} + ${ib};`);
    pairs.push([yk, yr]);
  }
  for (let k = 1; k <= half; k++) out2[k] = pairs[k - 1][0];
  for (let k = 1; k <= half; k++) out2[r - k] = pairs[k - 1][1];
  return out2;
}

// src/codegen/fft-stockham-workgroup.ts
function stagedR2cOutDefault(invocationsPerProblem, outElemBytes) {
  return invocationsPerProblem * outElemBytes < 32;
}
var R2C_OUT_WGSL = `fn r2cOut(a: vec2<f32>, cb: vec2<f32>, w: vec2<f32>) -> vec2<f32> {
  let d = cmul(w, (a - cb) * 0.5);
  return (a + cb) * 0.5 + vec2<f32>(d.y, -d.x);
}`;
var FFT_PARAMS_BYTES = 32;
function generateWorkgroupFft(recipe, variant2) {
  const { n, stages, invocationsPerProblem: L, problemsPerWorkgroup: B, exchange, padShift } = recipe;
  const sign = variant2.direction === "forward" ? -1 : 1;
  const needsTwiddles = stages.some((s) => s.stride > 1);
  const P = recipe.registers;
  const staging = recipe.staging;
  const pass = recipe.pass;
  const directPass = !!pass && pass.loads === "direct";
  const outer = pass && pass.stride > 1 && pass.outerTwiddle ? outerTwiddleSplit(pass.stride * n) : null;
  const rowN = exchange === "split4" ? n / 2 : n;
  const paddedN = pass ? passRowStride(n) : staging ? n + 1 : exchange === "none" ? 0 : padShift > 0 ? rowN + (rowN >> padShift) + 1 : rowN;
  const pad = (e) => padShift > 0 ? `pad(${e})` : e;
  const SRC = variant2.inPlace ? "data" : "src";
  const DST = variant2.inPlace ? "data" : "dst";
  const io = variant2.io ?? { load: "complex", store: "complex", realLength: 0 };
  const realIn = io.load === "real";
  const realOut = io.store === "real";
  const srcType = io.custom?.srcType ?? (realIn ? "f32" : "vec2<f32>");
  const dstType = io.custom?.dstType ?? (realOut ? "f32" : "vec2<f32>");
  const r2cPost = io.store === "r2c";
  const r2cPass = r2cPost && !!pass;
  if (r2cPass && !r2cPassFusable(recipe)) throw new Error("r2c post-processing needs a single-workgroup recipe or a fusable last pass");
  const lastStage = stages[stages.length - 1];
  const pairedLast = r2cPost && !pass && !staging && stages.length >= 2 && lastStage.butterfliesPerInvocation % 2 === 0 && lastStage.butterfliesPerInvocation * L === n / lastStage.radix && variant2.pairedR2c !== false;
  const splitPost = r2cPost && exchange === "split" && !pairedLast;
  if (r2cPost && exchange === "split4" && !pairedLast) throw new Error("an R2C with the 'split4' exchange needs the paired last stage");
  const stageOut = r2cPost && !pass && !staging && exchange === "complex" && paddedN >= n + 1 && (variant2.stagedR2cOut ?? stagedR2cOutDefault(L, dstType === "f32" ? 4 : 8));
  const bfly = (s, m) => {
    const half = lastStage.butterfliesPerInvocation / 2;
    if (s === 0 && exchange === "split4") return `(${swapBits0("t", Math.log2(stages[0].radix))} + ${m * L}u)`;
    if (!pairedLast || s !== stages.length - 1 || m < half) return `(t + ${m * L}u)`;
    return pairedHigh(m - half, L, n / lastStage.radix);
  };
  const needsRealTable = io.load === "c2r" || r2cPost;
  const out2 = [];
  const bindings = [];
  if (variant2.inPlace) {
    out2.push("@group(0) @binding(0) var<storage, read_write> data: array<vec2<f32>>;");
    bindings.push("data");
  } else {
    out2.push(`@group(0) @binding(0) var<storage, read> src: array<${srcType}>;`);
    out2.push(`@group(0) @binding(1) var<storage, read_write> dst: array<${dstType}>;`);
    bindings.push("src", "dst");
  }
  if (needsTwiddles) {
    out2.push("@group(0) @binding(2) var<storage, read> twiddles: array<vec2<f32>>;");
    bindings.push("twiddles");
  }
  if (outer) {
    out2.push("@group(0) @binding(4) var<storage, read> outer: array<vec2<f32>>;");
    bindings.push("outer");
  }
  if (needsRealTable) {
    out2.push("@group(0) @binding(5) var<storage, read> rtw: array<vec2<f32>>;");
    bindings.push("real");
  }
  const hookCode = [io.custom?.rd, io.custom?.rdr, io.custom?.wr, io.custom?.wrr, io.custom?.inHelpers, io.custom?.outHelpers].join("\n");
  if (io.custom?.table && hookCode.includes("aux[")) {
    out2.push("@group(0) @binding(6) var<storage, read> aux: array<vec2<f32>>;");
    bindings.push("aux");
  }
  if (io.bluestein) {
    out2.push("@group(0) @binding(7) var<storage, read> blu: array<vec2<f32>>;");
    bindings.push("blu");
  }
  out2.push(...ioFunctions(io, SRC, DST));
  out2.push(
    "struct Params { batch: u32, grid_x: u32, in_offset: u32, in_stride: u32, in_dist: u32, out_offset: u32, out_stride: u32, out_dist: u32 }",
    "@group(0) @binding(3) var<uniform> params: Params;"
  );
  bindings.push("params");
  if (exchange !== "none") {
    const ty = exchange === "complex" ? "vec2<f32>" : "f32";
    out2.push(`var<workgroup> sh: array<${ty}, ${paddedN * B}>;`);
  }
  out2.push(
    "fn cmul(a: vec2<f32>, b: vec2<f32>) -> vec2<f32> { return vec2<f32>(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }"
  );
  if (padShift > 0) out2.push(`fn pad(i: u32) -> u32 { return i + (i >> ${padShift}u); }`);
  if (r2cPost) out2.push(R2C_OUT_WGSL);
  const body = [];
  body.push(
    "let wg = wid.x + wid.y * params.grid_x;",
    // Direct pass kernels interleave columns: neighbouring invocations serve neighbouring columns, so a
    // load of element e by every invocation touches consecutive addresses without staging.
    directPass ? `let t = lid / ${B}u;` : `let t = lid % ${L}u;`,
    directPass ? `let local_problem = lid % ${B}u;` : `let local_problem = lid / ${L}u;`
  );
  if (r2cPass) {
    body.push(...r2cPassAddressing(recipe));
  } else {
    body.push(
      `let problem = wg * ${B}u + local_problem;`,
      // Invocations past the batch still run every barrier (uniform control flow) but touch no memory.
      "let live = problem < params.batch;"
    );
  }
  if (r2cPass) {
  } else if (pass) {
    body.push(...passAddressing(recipe, "problem", ""));
  } else {
    body.push("let in_base = params.in_offset + problem * params.in_dist;", "let out_base = params.out_offset + problem * params.out_dist;");
  }
  if (exchange !== "none") body.push(`let sbase = local_problem * ${paddedN}u;`);
  for (let i = 0; i < P; i++) body.push(`var v${i}: vec2<f32>;`);
  const em = dftEmitter();
  stages.forEach((st, s) => {
    const R = st.radix;
    const nb = n / R;
    const exact = st.butterfliesPerInvocation * L === nb;
    const last = s === stages.length - 1;
    body.push(`// stage ${s}: radix ${R}, stride ${st.stride}`);
    const preLoads = [];
    const blocks = [];
    for (let m = 0; m < st.butterfliesPerInvocation; m++) {
      const j = bfly(s, m);
      const guard = exact ? "" : `${j} < ${nb}u`;
      const regs = Array.from({ length: R }, (_, k) => `v${m * R + k}`);
      const lines = [];
      if (s === 0 && directPass) {
        const cols = pass.total / n;
        for (let k = 0; k < R; k++) lines.push(`${regs[k]} = ld(in_base, pj + (${j} + ${k * nb}u) * ${cols}u);`);
        if (outer) {
          lines.push(`let jo${m} = pj % ${pass.stride}u;`);
          for (let k = 0; k < R; k++) {
            lines.push(`{ let ex = (${j} + ${k * nb}u) * jo${m}; ${regs[k]} = cmul(${regs[k]}, cmul(outer[ex % ${outer.lo}u], outer[${outer.lo}u + ex / ${outer.lo}u])); }`);
          }
        }
      } else if (s === 0 && pass) {
        const reads = regs.map((r, k) => `${r} = sh[sbase + ${pad(`${j} + ${k * nb}u`)}];`);
        preLoads.push(guard ? `if (${guard}) { ${reads.join(" ")} }` : `{ ${reads.join(" ")} }`);
      } else if (s === 0 && staging) {
        for (let k = 0; k < R; k++) lines.push(`${regs[k]} = sh[sbase + ${k}u];`);
      } else if (s === 0) {
        for (let k = 0; k < R; k++) lines.push(`${regs[k]} = ld(in_base, ${j} + ${k * nb}u);`);
      }
      if (st.stride > 1) {
        const scale = n / (st.stride * R);
        lines.push(`let jm${m} = ${j} % ${st.stride}u;`);
        const tw = (idx) => sign === -1 ? `twiddles[${idx}]` : `conj2(twiddles[${idx}])`;
        if (recipe.twiddles === "recurrence") {
          lines.push(`let w${m}_1 = ${tw(`jm${m} * ${scale}u`)};`);
          for (let k = 2; k < R; k++) lines.push(`let w${m}_${k} = cmul(w${m}_${k >> 1}, w${m}_${k - (k >> 1)});`);
          for (let k = 1; k < R; k++) lines.push(`${regs[k]} = cmul(${regs[k]}, w${m}_${k});`);
        } else {
          for (let k = 1; k < R; k++) lines.push(`${regs[k]} = cmul(${regs[k]}, ${tw(`jm${m} * ${k * scale}u`)});`);
        }
      }
      em.lines.length = 0;
      const outs = emitDft(em, regs, sign);
      lines.push(...em.lines);
      const tmp = outs.map((o, k) => o === regs[k] ? null : o);
      for (let k = 0; k < R; k++) if (tmp[k] !== null) lines.push(`${regs[k]} = ${tmp[k]};`);
      const sc = variant2.scale === 1 ? "" : ` * ${f32(variant2.scale)}`;
      const columnStore = pass?.store === "column" || pass?.store === "rows";
      if (last && (splitPost || pairedLast)) {
      } else if (last && r2cPost) {
        const at = (k) => staging ? `${k}u` : pad(writeIndex(j, k, st.stride, R, nb));
        for (let k = 0; k < R; k++) lines.push(`sh[sbase + ${at(k)}] = ${regs[k]};`);
      } else if (last && columnStore) {
        for (let k = 0; k < R; k++) lines.push(`sh[sbase + ${pad(writeIndex(j, k, st.stride, R, nb))}] = ${regs[k]}${sc};`);
      } else if (last && staging) {
        for (let k = 0; k < R; k++) lines.push(`sh[sbase + ${k}u] = ${regs[k]}${sc};`);
      } else if (last) {
        for (let k = 0; k < R; k++) {
          const idx = writeIndex(j, k, st.stride, R, nb);
          const logical = pass ? `ocol + (${idx}) * ${pass.stride}u` : idx;
          lines.push(`st(out_base, ${logical}, ${regs[k]}${sc});`);
        }
      }
      const staged = staging || !!pass && !directPass;
      const g = [s === 0 && !staged || last && !staging && !columnStore && !r2cPost ? "live" : "", guard].filter(Boolean).join(" && ");
      blocks.push(g ? [`if (${g}) {`, ...lines.map((l) => "  " + l), "}"] : ["{", ...lines.map((l) => "  " + l), "}"]);
    }
    if (s === 0 && staging) body.push(...stagedCopy(recipe, paddedN, "load", SRC));
    if (s === 0 && pass && !directPass) body.push(...columnCopy(recipe, paddedN, "load", SRC, sign, outer));
    body.push(...preLoads);
    if (last && (pass?.store === "column" || pass?.store === "rows" || r2cPost && !staging && !splitPost && !pairedLast)) body.push("workgroupBarrier();");
    for (const b of blocks) body.push(...b);
    if (last && r2cPass) body.push(...r2cPassPost(recipe, paddedN, pad, variant2.scale, io.custom?.wrq ? io.realLength : 0));
    else if (last && pairedLast) body.push(...r2cPostPaired(recipe, variant2.scale, stageOut ? paddedN : 0));
    else if (last && splitPost) body.push(...r2cPostSplit(recipe, pad, variant2.scale));
    else if (last && r2cPost) body.push(...r2cPostCode(recipe, paddedN, staging, pad, variant2.scale, stageOut));
    else if (last && staging) body.push(...stagedCopy(recipe, paddedN, "store", DST));
    if (last && pass?.store === "column") body.push(...columnCopy(recipe, paddedN, "store", DST, sign, null));
    if (last && pass?.store === "rows") body.push(...rowStore(recipe, paddedN));
    if (!last) body.push(...exchangeCode(recipe, s, pad, !!pass && !directPass, (m) => bfly(s, m), (m) => bfly(s + 1, m)));
  });
  const wgsl = [
    ...out2,
    "fn conj2(a: vec2<f32>) -> vec2<f32> { return vec2<f32>(a.x, -a.y); }",
    `@compute @workgroup_size(${recipe.workgroupSize})`,
    "fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {",
    ...body.map((l) => "  " + l),
    "}",
    ""
  ].join("\n");
  const key = stableKey({
    k: "fft-stockham-workgroup",
    n,
    radices: recipe.radices,
    L,
    B,
    exchange,
    padShift,
    staging,
    pass: pass ?? null,
    twiddles: recipe.twiddles,
    io: variant2.io ? { load: variant2.io.load, store: variant2.io.store, realLength: variant2.io.realLength, custom: variant2.io.custom?.key ?? null, bluestein: variant2.io.bluestein ?? null } : null,
    direction: variant2.direction,
    scale: variant2.scale,
    inPlace: variant2.inPlace,
    paired: pairedLast,
    stagedOut: stageOut
  });
  const name = pass ? `fft${pass.total}-pass${n}x${pass.stride}-${variant2.direction}` : `fft${n}-${variant2.direction}-wg`;
  return {
    name,
    key,
    wgsl,
    entryPoint: "main",
    bindings,
    outerTable: outer ? outerTwiddleTable(outer, variant2.direction) : void 0,
    realTable: needsRealTable ? realTwiddleTable(io.realLength) : void 0
  };
}
function realTwiddleTable(n) {
  const m = Math.floor(n / 2);
  const t = new Float32Array(2 * (m + 1));
  for (let k = 0; k <= m; k++) {
    const [c, s] = unitRoot(k, n);
    t[2 * k] = c;
    t[2 * k + 1] = s;
  }
  return t;
}
function ioFunctions(io, SRC, DST) {
  const N = io.realLength;
  const M = N >> 1;
  const c = io.custom;
  const lines = [];
  const realSrc = (c?.srcType ?? (io.load === "real" ? "f32" : "vec2<f32>")) === "f32";
  const realDst = (c?.dstType ?? (io.store === "real" ? "f32" : "vec2<f32>")) === "f32";
  if (c?.rd) lines.push(c.rd);
  else if (!realSrc) lines.push(`fn rd(base: u32, k: u32) -> vec2<f32> { return ${SRC}[base + k * params.in_stride]; }`);
  if (c?.wr) lines.push(c.wr);
  if (c?.wr && c.wrq) lines.push(c.wrq);
  else if (!c?.wr && !realDst) lines.push(`fn wr(base: u32, k: u32, v: vec2<f32>) { ${DST}[base + k * params.out_stride] = v; }`);
  if (io.load === "real" || io.load === "packed-real") lines.push(c?.rdr ?? `fn rdr(base: u32, i: u32) -> f32 { return ${SRC}[base + i * params.in_stride]; }`);
  if (io.store === "real" || io.store === "packed-real") lines.push(c?.wrr ?? `fn wrr(base: u32, i: u32, v: f32) { ${DST}[base + i * params.out_stride] = v; }`);
  if (c?.inHelpers) lines.push(c.inHelpers);
  if (c?.outHelpers) lines.push(c.outHelpers);
  switch (io.load) {
    case "complex":
      lines.push("fn ld(base: u32, idx: u32) -> vec2<f32> { return rd(base, idx); }");
      break;
    case "real":
      lines.push("fn ld(base: u32, idx: u32) -> vec2<f32> { return vec2<f32>(rdr(base, idx), 0.0); }");
      break;
    case "packed-real":
      lines.push("fn ld(base: u32, idx: u32) -> vec2<f32> { return vec2<f32>(rdr(base, 2u * idx), rdr(base, 2u * idx + 1u)); }");
      break;
    case "hermitian":
      lines.push(
        `fn ld(base: u32, idx: u32) -> vec2<f32> {`,
        `  if (idx <= ${M}u) { return rd(base, idx); }`,
        `  let y = rd(base, ${N}u - idx);`,
        "  return vec2<f32>(y.x, -y.y);",
        "}"
      );
      break;
    case "c2r":
      lines.push(
        `fn ld(base: u32, idx: u32) -> vec2<f32> {`,
        "  var a = rd(base, idx);",
        `  let y = rd(base, ${M}u - idx);`,
        "  var b = vec2<f32>(y.x, -y.y);",
        // As numpy: the imaginary parts of Y_0 and Y_{N/2} are ignored (a real signal has none).
        "  if (idx == 0u) { a.y = 0.0; b.y = 0.0; }",
        "  let e = (a + b) * 0.5;",
        "  let w = rtw[idx];",
        "  let d = (a - b) * 0.5;",
        // O = d · W_N^{−idx} = d · conj(w); z = E + i·O
        "  let o = vec2<f32>(d.x * w.x + d.y * w.y, d.y * w.x - d.x * w.y);",
        "  return vec2<f32>(e.x - o.y, e.y + o.x);",
        "}"
      );
      break;
  }
  switch (io.store) {
    case "complex":
    case "r2c":
      lines.push("fn st(base: u32, idx: u32, v: vec2<f32>) { wr(base, idx, v); }");
      break;
    case "half":
      lines.push(`fn st(base: u32, idx: u32, v: vec2<f32>) { if (idx <= ${M}u) { wr(base, idx, v); } }`);
      break;
    case "real":
      lines.push("fn st(base: u32, idx: u32, v: vec2<f32>) { wrr(base, idx, v.x); }");
      break;
    case "packed-real":
      lines.push("fn st(base: u32, idx: u32, v: vec2<f32>) { wrr(base, 2u * idx, v.x); wrr(base, 2u * idx + 1u, v.y); }");
      break;
  }
  const b = io.bluestein;
  if (!b) return lines;
  const wrapped = lines.map((l) => b.pre ? l.replace("fn ld(", "fn ld_user(") : l).map((l) => b.post ? l.replace("fn st(", "fn st_user(") : l);
  if (b.mid) {
    const i = wrapped.findIndex((l) => l.startsWith("fn ld("));
    wrapped[i] = `fn ld(base: u32, idx: u32) -> vec2<f32> { return cmul(rd(base, idx), blu[${b.n}u + idx]); }`;
  }
  if (b.pre) wrapped.push(`fn ld(base: u32, idx: u32) -> vec2<f32> { if (idx >= ${b.n}u) { return vec2<f32>(0.0, 0.0); } return cmul(ld_user(base, idx), blu[idx]); }`);
  if (b.post) wrapped.push(`fn st(base: u32, idx: u32, v: vec2<f32>) { if (idx < ${b.n}u) { st_user(base, idx, cmul(v, blu[idx]) * ${f32(b.scale)}); } }`);
  return wrapped;
}
function r2cPassFusable(r) {
  const p = r.pass;
  return !!p && p.loads === "direct" && !p.batchFastest && p.stride > 1 && p.stride * r.n === p.total && p.stride % 2 === 0 && r.problemsPerWorkgroup % 2 === 0 && r.exchange === "complex";
}
function r2cPassAddressing(recipe) {
  const { problemsPerWorkgroup: B } = recipe;
  const ns = recipe.pass.stride;
  const H = B / 2;
  return [
    `let hi_slot = local_problem >= ${H}u;`,
    `let problem = wg * ${H}u + local_problem % ${H}u;`,
    `let pb = problem / ${ns / 2}u;`,
    `let pp = problem % ${ns / 2}u;`,
    // params.batch counts columns (problems × Ns); a pair is live while its problem is.
    `let live = pb < params.batch / ${ns}u;`,
    `var pj = pp;`,
    `if (hi_slot) { pj = select(${ns}u - pp, ${ns / 2}u, pp == 0u); }`,
    "let in_base = params.in_offset + pb * params.in_dist;",
    "let out_base = params.out_offset + pb * params.out_dist;",
    "let ocol = pj;"
  ];
}
function r2cPassPost(recipe, rowStride, pad, scale, quarterN = 0) {
  const { n, invocationsPerProblem: L, problemsPerWorkgroup: B } = recipe;
  const ns = recipe.pass.stride;
  const H = B / 2;
  const M = n * ns;
  const count = Math.ceil(n / L);
  const sc = scale === 1 ? "" : ` * ${f32(scale)}`;
  const lines = ["workgroupBarrier();", `let partner = select(local_problem + ${H}u, local_problem - ${H}u, hi_slot);`];
  const guard = (i) => (i + 1) * L <= n ? "live" : `live && t + ${i * L}u < ${n}u`;
  lines.push("var wt = vec2<f32>(0.0);", `if (${guard(0)}) { wt = rtw[pj + t * ${ns}u]; }`);
  for (let i = 0; i < count; i++) lines.push(`let w${i} = ${rootTimes("wt", i * L * ns, 2 * M)};`);
  const quarter = (e, v) => rootTimes(v, e, 4 * quarterN);
  if (quarterN) lines.push("var qt = vec2<f32>(0.0);", `if (${guard(0)}) { qt = aux[pj + t * ${ns}u]; }`);
  const out2 = (k, v, q) => quarterN ? `wrq(out_base, ${k}, ${v}, ${q});` : `st(out_base, ${k}, ${v});`;
  for (let i = 0; i < count; i++) {
    lines.push(
      `if (${guard(i)}) {`,
      `  let e = t + ${i * L}u;`,
      `  let k = pj + e * ${ns}u;`,
      "  var ps = partner;",
      `  var pe = ${n - 1}u - e;`,
      `  if (pj == 0u) { ps = local_problem; pe = (${n}u - e) % ${n}u; } else if (pj == ${ns / 2}u) { ps = local_problem; }`,
      `  let a = sh[sbase + ${pad("e")}];`,
      `  let y = sh[ps * ${rowStride}u + ${pad("pe")}];`,
      `  ${out2("k", `r2cOut(a, vec2<f32>(y.x, -y.y), w${i})${sc}`, quarter(i * L * ns, "qt"))}`,
      // y_M = Re z_0 − Im z_0 (the k = M output of the same formula, W_N^M = −1).
      `  if (k == 0u) { ${out2(`${M}u`, `vec2<f32>(a.x - a.y, 0.0)${sc}`, quarter(M, "vec2<f32>(1.0, 0.0)"))} }`,
      "}"
    );
  }
  return lines;
}
function realTwiddleBase() {
  return ["var wt = vec2<f32>(0.0);", "if (live) { wt = rtw[t]; }"];
}
function rootTimes(w, e, n) {
  if (e === 0) return w;
  const [c, s] = unitRoot(e, n);
  return `cmul(${w}, vec2<f32>(${f32(c)}, ${f32(s)}))`;
}
function pairedHigh(m, L, nb) {
  return m === 0 ? `select(${nb}u - t, ${nb / 2}u, t == 0u)` : `(${nb - m * L}u - t)`;
}
function r2cPostPaired(recipe, scale, stagedRow = 0) {
  const { n: M, stages, invocationsPerProblem: L } = recipe;
  const st = stages[stages.length - 1];
  const R = st.radix;
  const nb = M / R;
  const half = st.butterfliesPerInvocation / 2;
  const sc = scale === 1 ? "" : ` * ${f32(scale)}`;
  const tw = (w, e) => rootTimes(w, e, 2 * M);
  const put = (k, v) => stagedRow ? `sh[sbase + ${k}] = ${v};` : `st(out_base, ${k}, ${v});`;
  const lines = stagedRow ? ["workgroupBarrier();", "let p0 = t == 0u;"] : ["let p0 = t == 0u;"];
  for (let m = 0; m < half; m++) {
    const lo = (e) => `v${m * R + e}`;
    const hi = (e) => `v${(m + half) * R + e}`;
    const bLo = `(t + ${m * L}u)`;
    const bHi = pairedHigh(m, L, nb);
    lines.push("if (live) {", `  let bl = ${bLo};`, `  let bh = ${bHi};`, "  let wl = rtw[bl];", "  let wh = rtw[bh];");
    for (let e = 0; e < R; e++) {
      const a = lo(e);
      const c = hi(R - 1 - e);
      const pa = m === 0 ? `select(${c}, ${lo((R - e) % R)}, p0)` : c;
      const pc = m === 0 ? `select(${a}, ${hi(e)}, p0)` : a;
      lines.push(
        `  ${put(`bl + ${nb * e}u`, `r2cOut(${a}, conj2(${pa}), ${tw("wl", nb * e)})${sc}`)}`,
        `  ${put(`bh + ${nb * (R - 1 - e)}u`, `r2cOut(${c}, conj2(${pc}), ${tw("wh", nb * (R - 1 - e))})${sc}`)}`
      );
    }
    if (m === 0) lines.push(`  if (p0) { ${put(`${M}u`, `vec2<f32>(${lo(0)}.x - ${lo(0)}.y, 0.0)${sc}`)} }`);
    lines.push("}");
  }
  if (stagedRow) lines.push(...stagedCopy(recipe, stagedRow, "store", "dst", M + 1));
  return lines;
}
function r2cPostSplit(recipe, pad, scale) {
  const { n: M, stages, invocationsPerProblem: L } = recipe;
  const st = stages[stages.length - 1];
  const nb = M / st.radix;
  const half = M >> 1;
  const count = Math.ceil((half + 1) / L);
  const sc = scale === 1 ? "" : ` * ${f32(scale)}`;
  const lines = [];
  for (let i = 0; i < count; i++) lines.push(`var pa${i}: vec2<f32>;`, `var pb${i}: vec2<f32>;`);
  for (const comp of ["x", "y"]) {
    lines.push("workgroupBarrier();");
    for (let m = 0; m < st.butterfliesPerInvocation; m++) {
      const j = `(t + ${m * L}u)`;
      const guard = st.butterfliesPerInvocation * L === nb ? "" : `if (${j} < ${nb}u) `;
      const stmts = [];
      for (let k = 0; k < st.radix; k++) stmts.push(`sh[sbase + ${pad(writeIndex(j, k, st.stride, st.radix, nb))}] = v${m * st.radix + k}.${comp};`);
      lines.push(`${guard}{ ${stmts.join(" ")} }`);
    }
    lines.push("workgroupBarrier();");
    for (let i = 0; i < count; i++) {
      const k = `(t + ${i * L}u)`;
      lines.push(`if (${k} <= ${half}u) { pa${i}.${comp} = sh[sbase + ${pad(k)}]; pb${i}.${comp} = sh[sbase + ${pad(`(${M}u - ${k}) % ${M}u`)}]; }`);
    }
  }
  lines.push(...realTwiddleBase());
  for (let i = 0; i < count; i++) {
    const k = `(t + ${i * L}u)`;
    lines.push(
      `if (live && ${k} <= ${half}u) {`,
      `  let k = ${k};`,
      `  let w = ${rootTimes("wt", i * L, 2 * M)};`,
      `  let ca = vec2<f32>(pa${i}.x, -pa${i}.y);`,
      `  let cb = vec2<f32>(pb${i}.x, -pb${i}.y);`,
      `  st(out_base, k, r2cOut(pa${i}, cb, w)${sc});`,
      // The partner output M − k (k = 0 gives y_M from z_0 with itself).
      `  if (k != ${M}u - k) {`,
      `    st(out_base, ${M}u - k, r2cOut(pb${i}, ca, vec2<f32>(-w.x, w.y))${sc});`,
      "  }",
      "}"
    );
  }
  return lines;
}
function r2cPostCode(recipe, rowStride, staging, pad, scale, stagedOut = false) {
  const M = recipe.n;
  if (staging) {
    const sc1 = scale === 1 ? "" : ` * ${f32(scale)}`;
    const lines2 = [];
    for (let k = 0; k <= M >> 1; k++) lines2.push(`let ra${k} = rtw[${k}u];`, `let rb${k} = rtw[${M - k}u];`);
    for (let k = 0; k <= M >> 1; k++) {
      lines2.push(
        "{",
        `  let a = sh[sbase + ${k}u];`,
        `  let y = sh[sbase + ${(M - k) % M}u];`,
        "  let ca = vec2<f32>(a.x, -a.y);",
        "  let cb = vec2<f32>(y.x, -y.y);",
        `  sh[sbase + ${k}u] = r2cOut(a, cb, ra${k})${sc1};`
      );
      if (k !== M - k) lines2.push(`  sh[sbase + ${M - k}u] = r2cOut(y, ca, rb${k})${sc1};`);
      lines2.push("}");
    }
    return [...lines2, ...stagedCopy(recipe, rowStride, "store", "dst", M + 1)];
  }
  const L = recipe.invocationsPerProblem;
  const lines = ["workgroupBarrier();"];
  const at = (e) => staging ? e : pad(e);
  const count = Math.ceil((M + 1) / L);
  const sc = scale === 1 ? "" : ` * ${f32(scale)}`;
  const guard = (i) => (i + 1) * L <= M + 1 ? "live" : `live && t + ${i * L}u <= ${M}u`;
  lines.push(...realTwiddleBase());
  for (let i = 0; i < count; i++) lines.push(`let w${i} = ${rootTimes("wt", i * L, 2 * M)};`);
  if (stagedOut) {
    for (let i = 0; i < count; i++) {
      lines.push(`var y${i} = vec2<f32>(0.0);`, `if (${guard(i)}) {`, `  let k = t + ${i * L}u;`);
      lines.push(`  let a = sh[sbase + ${at(`k % ${M}u`)}];`, `  let y = sh[sbase + ${at(`(${M}u - k) % ${M}u`)}];`);
      lines.push(`  y${i} = r2cOut(a, vec2<f32>(y.x, -y.y), w${i})${sc};`, "}");
    }
    lines.push("workgroupBarrier();");
    for (let i = 0; i < count; i++) lines.push(`if (${guard(i)}) { sh[sbase + t + ${i * L}u] = y${i}; }`);
    return [...lines, ...stagedCopy(recipe, rowStride, "store", "dst", M + 1)];
  }
  for (let i = 0; i < count; i++) {
    lines.push(`if (${guard(i)}) {`);
    lines.push(`  let k = t + ${i * L}u;`);
    lines.push(`  let a = sh[sbase + ${at(`k % ${M}u`)}];`);
    lines.push(`  let y = sh[sbase + ${at(`(${M}u - k) % ${M}u`)}];`);
    lines.push(`  st(out_base, k, r2cOut(a, vec2<f32>(y.x, -y.y), w${i})${sc});`);
    lines.push("}");
  }
  return lines;
}
function passAddressing(recipe, q, suffix) {
  const { n } = recipe;
  const { total: total2, stride: ns } = recipe.pass;
  const cols = total2 / n;
  const v = (name) => `${name}${suffix}`;
  const lines = recipe.pass.batchFastest ? [
    `let ${v("np")} = params.batch / ${cols}u;`,
    `let ${v("pb")} = ${q} % ${v("np")};`,
    `let ${v("pj")} = ${q} / ${v("np")};`
  ] : [`let ${v("pb")} = ${q} / ${cols}u;`, `let ${v("pj")} = ${q} % ${cols}u;`];
  lines.push(
    `let ${v("in_base")} = params.in_offset + ${v("pb")} * params.in_dist;`,
    `let ${v("out_base")} = params.out_offset + ${v("pb")} * params.out_dist;`
  );
  const outCol = ns === 1 ? `${v("pj")} * ${n}u` : `(${v("pj")} / ${ns}u) * ${ns * n}u + ${v("pj")} % ${ns}u`;
  lines.push(`let ${v("ocol")} = ${outCol};`);
  return lines;
}
function columnCopy(recipe, rowStride, dir, buf, sign, outer) {
  const { n, problemsPerWorkgroup: B, invocationsPerProblem: L } = recipe;
  const ns = recipe.pass.stride;
  const cols = recipe.pass.total / n;
  const count = Math.ceil(n / L);
  const exact = count * L === n;
  const lines = [];
  if (dir === "store") lines.push("workgroupBarrier();");
  lines.push("{");
  lines.push(`  let lp = lid % ${B}u;`, `  let e0 = lid / ${B}u;`, `  let q = wg * ${B}u + lp;`);
  lines.push("  if (q < params.batch) {");
  lines.push(...passAddressing(recipe, "q", "_c").map((l) => "    " + l));
  const pad = (e) => recipe.padShift > 0 ? `pad(${e})` : e;
  const guard = (i) => exact ? "" : `if (e0 + ${i * L}u < ${n}u) `;
  if (dir === "load") {
    for (let i = 0; i < count; i++) {
      lines.push(`    var a${i}: vec2<f32>;`);
      lines.push(`    ${guard(i)}{ a${i} = ld(in_base_c, pj_c + (e0 + ${i * L}u) * ${cols}u); }`);
    }
    if (outer) {
      lines.push(`    let jm_c = pj_c % ${ns}u;`);
      for (let i = 0; i < count; i++) {
        lines.push(`    { let ex = (e0 + ${i * L}u) * jm_c; a${i} = cmul(a${i}, cmul(outer[ex % ${outer.lo}u], outer[${outer.lo}u + ex / ${outer.lo}u])); }`);
      }
    }
    for (let i = 0; i < count; i++) lines.push(`    ${guard(i)}{ sh[lp * ${rowStride}u + ${pad(`e0 + ${i * L}u`)}] = a${i}; }`);
  } else {
    for (let i = 0; i < count; i++) {
      lines.push(`    ${guard(i)}{ st(out_base_c, ocol_c + (e0 + ${i * L}u) * ${ns}u, sh[lp * ${rowStride}u + ${pad(`e0 + ${i * L}u`)}]); }`);
    }
  }
  lines.push("  }", "}");
  if (dir === "load") lines.push("workgroupBarrier();");
  void sign;
  return lines;
}
function rowStore(recipe, rowStride) {
  const { n, problemsPerWorkgroup: B, workgroupSize: W } = recipe;
  const count = Math.ceil(n * B / W);
  const exact = count * W === n * B;
  const pad = (e) => recipe.padShift > 0 ? `pad(${e})` : e;
  const lines = ["workgroupBarrier();"];
  for (let i = 0; i < count; i++) {
    lines.push("{");
    lines.push(`  let f = lid + ${i * W}u;`, `  let lp = f / ${n}u;`, `  let e = f % ${n}u;`, `  let q = wg * ${B}u + lp;`);
    lines.push(`  if (${exact ? "" : `f < ${n * B}u && `}q < params.batch) {`);
    lines.push(...passAddressing(recipe, "q", "_r").map((l) => "    " + l));
    lines.push(`    st(out_base_r, ocol_r + e, sh[lp * ${rowStride}u + ${pad("e")}]);`);
    lines.push("  }", "}");
  }
  return lines;
}
function outerTwiddleSplit(m) {
  return { lo: Math.ceil(Math.sqrt(m)), m };
}
function outerTwiddleTable(split, direction2) {
  const hi = Math.ceil(split.m / split.lo);
  const t = new Float32Array(2 * (split.lo + hi));
  const sgn = direction2 === "forward" ? 1 : -1;
  for (let i = 0; i < split.lo; i++) {
    const [c, s] = unitRoot(i, split.m);
    t[2 * i] = c;
    t[2 * i + 1] = sgn * s;
  }
  for (let i = 0; i < hi; i++) {
    const [c, s] = unitRoot(i * split.lo, split.m);
    t[2 * (split.lo + i)] = c;
    t[2 * (split.lo + i) + 1] = sgn * s;
  }
  return t;
}
function stagedCopy(recipe, rowStride, dir, buf, count = recipe.n) {
  const { workgroupSize: W, problemsPerWorkgroup: B } = recipe;
  const n = count;
  const iters = Math.ceil(n * B / W);
  const exact = iters * W === n * B;
  const lines = [];
  if (dir === "store") lines.push("workgroupBarrier();");
  lines.push("{");
  for (let i = 0; i < iters; i++) {
    lines.push(`let cf${i} = lid + ${i * W}u;`, `let clp${i} = cf${i} / ${n}u;`, `let ce${i} = cf${i} % ${n}u;`, `let cgp${i} = wg * ${B}u + clp${i};`);
    lines.push(`let cok${i} = ${exact ? "" : `cf${i} < ${n * B}u && `}cgp${i} < params.batch;`);
  }
  if (dir === "load") {
    for (let i = 0; i < iters; i++) lines.push(`var ca${i} = vec2<f32>(0.0);`, `if (cok${i}) { ca${i} = ld(params.in_offset + cgp${i} * params.in_dist, ce${i}); }`);
    for (let i = 0; i < iters; i++) lines.push(`if (cok${i}) { sh[clp${i} * ${rowStride}u + ce${i}] = ca${i}; }`);
    lines.push("}", "workgroupBarrier();");
  } else {
    for (let i = 0; i < iters; i++) lines.push(`if (cok${i}) { st(params.out_offset + cgp${i} * params.out_dist, ce${i}, sh[clp${i} * ${rowStride}u + ce${i}]); }`);
    lines.push("}");
  }
  void buf;
  return lines;
}
function writeIndex(j, k, ns, r, nb) {
  if (ns === nb) return `${j} + ${k * ns}u`;
  if (ns === 1) return `${j} * ${r}u + ${k}u`;
  return `(${j} / ${ns}u) * ${ns * r}u + (${j} % ${ns}u) + ${k * ns}u`;
}
function swapBits0(t, p) {
  return `((${t} & ${~(1 | 1 << p) >>> 0}u) | ((${t} & 1u) << ${p}u) | ((${t} >> ${p}u) & 1u))`;
}
function exchangeCode(recipe, s, pad, stagedLoad, curBfly, nextBfly) {
  const { n, stages, invocationsPerProblem: L } = recipe;
  const cur = stages[s];
  const next = stages[s + 1];
  const lines = [];
  const quarter = recipe.exchange === "split4";
  const p = s === 0 ? Math.log2(cur.radix) : 0;
  const squeeze = (i) => !quarter ? i : p === 0 ? `((${i}) >> 1u)` : `((((${i}) >> ${p + 1}u) << ${p}u) | ((${i}) & ${(1 << p) - 1}u))`;
  const roundBit = p === 0 ? "(t & 1u)" : `((t >> ${p}u) & 1u)`;
  const rounds = recipe.exchange === "complex" ? [["", -1]] : quarter ? [[".x", 0], [".x", 1], [".y", 0], [".y", 1]] : [[".x", -1], [".y", -1]];
  rounds.forEach(([comp, half], round) => {
    if (s > 0 || round > 0 || stagedLoad) lines.push("workgroupBarrier();");
    const nbCur = n / cur.radix;
    const writes = [];
    for (let m = 0; m < cur.butterfliesPerInvocation; m++) {
      const j = curBfly(m);
      const guard = cur.butterfliesPerInvocation * L === nbCur ? "" : `if (${j} < ${nbCur}u) `;
      const stmts = [];
      for (let k = 0; k < cur.radix; k++) {
        stmts.push(`sh[sbase + ${pad(squeeze(writeIndex(j, k, cur.stride, cur.radix, nbCur)))}] = v${m * cur.radix + k}${comp};`);
      }
      writes.push(`${guard}{ ${stmts.join(" ")} }`);
    }
    lines.push(...half < 0 ? writes : [`if (${roundBit} == ${half}u) {`, ...writes.map((w) => "  " + w), "}"]);
    lines.push("workgroupBarrier();");
    const nbNext = n / next.radix;
    const reads = [];
    for (let m = 0; m < next.butterfliesPerInvocation; m++) {
      const j = nextBfly(m);
      const guard = next.butterfliesPerInvocation * L === nbNext ? "" : `if (${j} < ${nbNext}u) `;
      const stmts = [];
      for (let k = 0; k < next.radix; k++) {
        stmts.push(`v${m * next.radix + k}${comp} = sh[sbase + ${pad(squeeze(`${j} + ${k * nbNext}u`))}];`);
      }
      reads.push(`${guard}{ ${stmts.join(" ")} }`);
    }
    lines.push(...half < 0 ? reads : [`if (${roundBit} == ${half}u) {`, ...reads.map((r) => "  " + r), "}"]);
  });
  return lines;
}

// src/codegen/fft-real-post.ts
var R2C_POST_WORKGROUP = 64;
function generateR2cPost(n, scale, custom) {
  const M = n / 2;
  const pairs = Math.floor(M / 2) + 1;
  const sc = scale === 1 ? "" : ` * ${f32(scale)}`;
  const usesAux = !!custom?.table && `${custom.wr ?? ""}${custom.outHelpers ?? ""}`.includes("aux[");
  const wgsl = `@group(0) @binding(0) var<storage, read> src: array<vec2<f32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<${custom?.dstType ?? "vec2<f32>"}>;
struct Params { batch: u32, grid_x: u32, in_offset: u32, in_stride: u32, in_dist: u32, out_offset: u32, out_stride: u32, out_dist: u32 }
@group(0) @binding(3) var<uniform> params: Params;
@group(0) @binding(5) var<storage, read> rtw: array<vec2<f32>>;
${usesAux ? "@group(0) @binding(6) var<storage, read> aux: array<vec2<f32>>;" : ""}
${custom?.wr ?? "fn wr(base: u32, k: u32, v: vec2<f32>) { dst[base + k * params.out_stride] = v; }"}
${custom?.wr && custom.wrq ? custom.wrq : ""}
${custom?.outHelpers ?? ""}
fn cmul(a: vec2<f32>, b: vec2<f32>) -> vec2<f32> { return vec2<f32>(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
${R2C_OUT_WGSL}
fn post(a: vec2<f32>, y: vec2<f32>, k: u32) -> vec2<f32> { return r2cOut(a, vec2<f32>(y.x, -y.y), rtw[k])${sc}; }
@compute @workgroup_size(${R2C_POST_WORKGROUP})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let id = (wid.x + wid.y * params.grid_x) * ${R2C_POST_WORKGROUP}u + lid;
  if (id >= params.batch) { return; }
  let b = id / ${pairs}u;
  let k = id % ${pairs}u;
  let ib = params.in_offset + b * params.in_dist;
  let ob = params.out_offset + b * params.out_dist;
  let zk = src[ib + (k % ${M}u) * params.in_stride];
  let zm = src[ib + ((${M}u - k) % ${M}u) * params.in_stride];
  wr(ob, k, post(zk, zm, k));
  if (k != ${M}u - k) {
    wr(ob, ${M}u - k, post(zm, zk, ${M}u - k));
  }
}
`;
  const bindings = ["src", "dst", "params", "real"];
  if (usesAux) bindings.push("aux");
  return { name: `r2c-post${n}`, key: stableKey({ k: "r2c-post", n, scale, custom: custom?.key ?? null }), wgsl, entryPoint: "main", bindings };
}

// src/backends/cpu/dft-naive.ts
function unitRoot2(m, n) {
  let mm = m % n;
  if (mm < 0) mm += n;
  const j = Math.round(4 * mm / n);
  const r = 4 * mm - j * n;
  const phi = Math.PI * r / (2 * n);
  const c = r === 0 ? 1 : Math.cos(phi);
  const s = r === 0 ? 0 : Math.sin(phi);
  switch (j & 3) {
    case 0:
      return [c, s];
    // `+ 0` turns −0 into +0 so exact points compare equal to 0.
    case 1:
      return [-s + 0, c];
    case 2:
      return [-c + 0, -s + 0];
    default:
      return [s, -c + 0];
  }
}

// src/backends/cpu/fft-mixed-radix.ts
var SPECIALISED_RADICES = [2, 3, 4, 5, 7, 8];
function normScale2(n, norm, inverse) {
  const nm = norm ?? "backward";
  if (nm === "ortho") return 1 / Math.sqrt(n);
  if (nm === "backward") return inverse ? 1 / n : 1;
  if (nm === "forward") return inverse ? 1 : 1 / n;
  throw new ArgumentError("norm", norm, "'backward', 'ortho' or 'forward'");
}
function checkLength(n, name = "n", min = 1) {
  if (typeof n !== "number" || !Number.isInteger(n) || n < min) {
    throw new ArgumentError(name, n, `an integer \u2265 ${min}`);
  }
}
function primeFactors2(n) {
  const f = [];
  let m = n;
  while (m % 2 === 0) {
    f.push(2);
    m /= 2;
  }
  for (let p = 3; p * p <= m; p += 2) {
    while (m % p === 0) {
      f.push(p);
      m /= p;
    }
  }
  if (m > 1) f.push(m);
  return f;
}
function chooseRadices(n) {
  const out2 = [];
  let m = n;
  while (m % 8 === 0) {
    out2.push(8);
    m /= 8;
  }
  if (m % 4 === 0) {
    out2.push(4);
    m /= 4;
  }
  if (m % 2 === 0) {
    out2.push(2);
    m /= 2;
  }
  for (const p of primeFactors2(m)) out2.push(p);
  return out2;
}
function mixedRadixRecipe(n) {
  return {
    kind: "mixed-radix",
    n,
    stages: chooseRadices(n).map((r) => ({ radix: r, butterfly: SPECIALISED_RADICES.includes(r) ? `radix-${r}` : `generic-odd-${r}` }))
  };
}
var MixedRadixFft = class {
  constructor(n) {
    this.n = n;
    checkLength(n);
    this.recipe = mixedRadixRecipe(n);
    const radices = chooseRadices(n);
    this.passes = [];
    let l1 = 1;
    for (const ip of radices) {
      const ido = n / (l1 * ip);
      const tw = new Float64Array(2 * (ip - 1) * ido);
      for (let j = 1; j < ip; j++) {
        for (let i = 0; i < ido; i++) {
          const [c, s] = unitRoot2(j * l1 * i, n);
          tw[2 * ((j - 1) * ido + i)] = c;
          tw[2 * ((j - 1) * ido + i) + 1] = s;
        }
      }
      const pass = { ip, l1, ido, tw };
      if (!SPECIALISED_RADICES.includes(ip)) {
        const cs = new Float64Array(2 * ip);
        for (let q = 0; q < ip; q++) {
          const [c, s] = unitRoot2(q, ip);
          cs[2 * q] = c;
          cs[2 * q + 1] = s;
        }
        pass.cs = cs;
      }
      this.passes.push(pass);
      l1 *= ip;
    }
    this.scratch = new Float64Array(2 * n);
  }
  n;
  recipe;
  passes;
  scratch;
  transformInPlace(data, offset, inverse, scale = 1) {
    const n = this.n;
    const sgn = inverse ? 1 : -1;
    const np = this.passes.length;
    let src2 = offset === 0 && data.length === 2 * n ? data : data.subarray(2 * offset, 2 * (offset + n));
    let dst2 = this.scratch;
    for (let t = 0; t < np; t++) {
      runPass(this.passes[t], src2, dst2, sgn);
      const tmp = src2;
      src2 = dst2;
      dst2 = tmp;
    }
    const base = 2 * offset;
    if (np % 2 === 1) {
      if (scale === 1) data.set(src2, base);
      else for (let i = 0; i < 2 * n; i++) data[base + i] = src2[i] * scale;
    } else if (scale !== 1) {
      for (let i = 0; i < 2 * n; i++) data[base + i] *= scale;
    }
  }
  execute(input, output, options = {}) {
    executeBatched(this, input, output, options);
  }
};
function runPass(p, cc, ch, sgn) {
  switch (p.ip) {
    case 2:
      return pass2(p, cc, ch, sgn);
    case 3:
      return pass3(p, cc, ch, sgn);
    case 4:
      return pass4(p, cc, ch, sgn);
    case 5:
      return pass5(p, cc, ch, sgn);
    case 7:
      return pass7(p, cc, ch, sgn);
    case 8:
      return pass8(p, cc, ch, sgn);
    default:
      return passOdd(p, cc, ch, sgn);
  }
}
function pass2({ l1, ido, tw }, cc, ch, sgn) {
  for (let k = 0; k < l1; k++) {
    for (let i = 0; i < ido; i++) {
      const a0 = 2 * (i + ido * 2 * k);
      const a1 = a0 + 2 * ido;
      const r0 = cc[a0], i0 = cc[a0 + 1], r1 = cc[a1], i1 = cc[a1 + 1];
      const o0 = 2 * (i + ido * k);
      const o1 = o0 + 2 * ido * l1;
      ch[o0] = r0 + r1;
      ch[o0 + 1] = i0 + i1;
      const br = r0 - r1, bi = i0 - i1;
      const wr = tw[2 * i], wi = sgn * tw[2 * i + 1];
      ch[o1] = br * wr - bi * wi;
      ch[o1 + 1] = br * wi + bi * wr;
    }
  }
}
var S3 = Math.sqrt(3) / 2;
function pass3({ l1, ido, tw }, cc, ch, sgn) {
  const s = sgn * S3;
  const so = 2 * ido * l1;
  const tj = 2 * ido;
  for (let k = 0; k < l1; k++) {
    for (let i = 0; i < ido; i++) {
      const a0 = 2 * (i + ido * 3 * k);
      const r0 = cc[a0], i0 = cc[a0 + 1];
      const r1 = cc[a0 + 2 * ido], i1 = cc[a0 + 2 * ido + 1];
      const r2 = cc[a0 + 4 * ido], i2 = cc[a0 + 4 * ido + 1];
      const tr = r1 + r2, ti = i1 + i2;
      const dr = r1 - r2, di = i1 - i2;
      const o0 = 2 * (i + ido * k);
      ch[o0] = r0 + tr;
      ch[o0 + 1] = i0 + ti;
      const cr = r0 - 0.5 * tr, ci = i0 - 0.5 * ti;
      const er = -s * di, ei = s * dr;
      cmulStore(ch, o0 + so, cr + er, ci + ei, tw, 2 * i, sgn);
      cmulStore(ch, o0 + 2 * so, cr - er, ci - ei, tw, 2 * i + tj, sgn);
    }
  }
}
function cmulStore(ch, o, br, bi, tw, t, sgn) {
  const wr = tw[t], wi = sgn * tw[t + 1];
  ch[o] = br * wr - bi * wi;
  ch[o + 1] = br * wi + bi * wr;
}
function pass4({ l1, ido, tw }, cc, ch, sgn) {
  const so = 2 * ido * l1;
  const tj = 2 * ido;
  const is = 2 * ido;
  for (let k = 0; k < l1; k++) {
    for (let i = 0; i < ido; i++) {
      const a0 = 2 * (i + ido * 4 * k);
      const r0 = cc[a0], i0 = cc[a0 + 1];
      const r1 = cc[a0 + is], i1 = cc[a0 + is + 1];
      const r2 = cc[a0 + 2 * is], i2 = cc[a0 + 2 * is + 1];
      const r3 = cc[a0 + 3 * is], i3 = cc[a0 + 3 * is + 1];
      const t0r = r0 + r2, t0i = i0 + i2;
      const t1r = r0 - r2, t1i = i0 - i2;
      const t2r = r1 + r3, t2i = i1 + i3;
      const t3r = r1 - r3, t3i = i1 - i3;
      const ur = -sgn * t3i, ui = sgn * t3r;
      const o0 = 2 * (i + ido * k);
      ch[o0] = t0r + t2r;
      ch[o0 + 1] = t0i + t2i;
      cmulStore(ch, o0 + so, t1r + ur, t1i + ui, tw, 2 * i, sgn);
      cmulStore(ch, o0 + 2 * so, t0r - t2r, t0i - t2i, tw, 2 * i + tj, sgn);
      cmulStore(ch, o0 + 3 * so, t1r - ur, t1i - ui, tw, 2 * i + 2 * tj, sgn);
    }
  }
}
var C51 = Math.cos(2 * Math.PI / 5);
var C52 = Math.cos(4 * Math.PI / 5);
var S51 = Math.sin(2 * Math.PI / 5);
var S52 = Math.sin(4 * Math.PI / 5);
function pass5({ l1, ido, tw }, cc, ch, sgn) {
  const so = 2 * ido * l1;
  const tj = 2 * ido;
  const is = 2 * ido;
  const s1 = sgn * S51, s2 = sgn * S52;
  for (let k = 0; k < l1; k++) {
    for (let i = 0; i < ido; i++) {
      const a0 = 2 * (i + ido * 5 * k);
      const r0 = cc[a0], i0 = cc[a0 + 1];
      const r1 = cc[a0 + is], i1 = cc[a0 + is + 1];
      const r2 = cc[a0 + 2 * is], i2 = cc[a0 + 2 * is + 1];
      const r3 = cc[a0 + 3 * is], i3 = cc[a0 + 3 * is + 1];
      const r4 = cc[a0 + 4 * is], i4 = cc[a0 + 4 * is + 1];
      const t1r = r1 + r4, t1i = i1 + i4, d1r = r1 - r4, d1i = i1 - i4;
      const t2r = r2 + r3, t2i = i2 + i3, d2r = r2 - r3, d2i = i2 - i3;
      const o0 = 2 * (i + ido * k);
      ch[o0] = r0 + t1r + t2r;
      ch[o0 + 1] = i0 + t1i + t2i;
      const c1r = r0 + C51 * t1r + C52 * t2r, c1i = i0 + C51 * t1i + C52 * t2i;
      const e1r = -(s1 * d1i + s2 * d2i), e1i = s1 * d1r + s2 * d2r;
      const c2r = r0 + C52 * t1r + C51 * t2r, c2i = i0 + C52 * t1i + C51 * t2i;
      const e2r = -(s2 * d1i - s1 * d2i), e2i = s2 * d1r - s1 * d2r;
      cmulStore(ch, o0 + so, c1r + e1r, c1i + e1i, tw, 2 * i, sgn);
      cmulStore(ch, o0 + 2 * so, c2r + e2r, c2i + e2i, tw, 2 * i + tj, sgn);
      cmulStore(ch, o0 + 3 * so, c2r - e2r, c2i - e2i, tw, 2 * i + 2 * tj, sgn);
      cmulStore(ch, o0 + 4 * so, c1r - e1r, c1i - e1i, tw, 2 * i + 3 * tj, sgn);
    }
  }
}
var C71 = Math.cos(2 * Math.PI / 7);
var C72 = Math.cos(4 * Math.PI / 7);
var C73 = Math.cos(6 * Math.PI / 7);
var S71 = Math.sin(2 * Math.PI / 7);
var S72 = Math.sin(4 * Math.PI / 7);
var S73 = Math.sin(6 * Math.PI / 7);
function pass7({ l1, ido, tw }, cc, ch, sgn) {
  const so = 2 * ido * l1;
  const tj = 2 * ido;
  const is = 2 * ido;
  const s1 = sgn * S71, s2 = sgn * S72, s3 = sgn * S73;
  for (let k = 0; k < l1; k++) {
    for (let i = 0; i < ido; i++) {
      const a0 = 2 * (i + ido * 7 * k);
      const r0 = cc[a0], i0 = cc[a0 + 1];
      const r1 = cc[a0 + is], i1 = cc[a0 + is + 1];
      const r2 = cc[a0 + 2 * is], i2 = cc[a0 + 2 * is + 1];
      const r3 = cc[a0 + 3 * is], i3 = cc[a0 + 3 * is + 1];
      const r4 = cc[a0 + 4 * is], i4 = cc[a0 + 4 * is + 1];
      const r5 = cc[a0 + 5 * is], i5 = cc[a0 + 5 * is + 1];
      const r6 = cc[a0 + 6 * is], i6 = cc[a0 + 6 * is + 1];
      const t1r = r1 + r6, t1i = i1 + i6, d1r = r1 - r6, d1i = i1 - i6;
      const t2r = r2 + r5, t2i = i2 + i5, d2r = r2 - r5, d2i = i2 - i5;
      const t3r = r3 + r4, t3i = i3 + i4, d3r = r3 - r4, d3i = i3 - i4;
      const o0 = 2 * (i + ido * k);
      ch[o0] = r0 + t1r + t2r + t3r;
      ch[o0 + 1] = i0 + t1i + t2i + t3i;
      const a1r = r0 + C71 * t1r + C72 * t2r + C73 * t3r, a1i = i0 + C71 * t1i + C72 * t2i + C73 * t3i;
      const e1r = -(s1 * d1i + s2 * d2i + s3 * d3i), e1i = s1 * d1r + s2 * d2r + s3 * d3r;
      const a2r = r0 + C72 * t1r + C73 * t2r + C71 * t3r, a2i = i0 + C72 * t1i + C73 * t2i + C71 * t3i;
      const e2r = -(s2 * d1i - s3 * d2i - s1 * d3i), e2i = s2 * d1r - s3 * d2r - s1 * d3r;
      const a3r = r0 + C73 * t1r + C71 * t2r + C72 * t3r, a3i = i0 + C73 * t1i + C71 * t2i + C72 * t3i;
      const e3r = -(s3 * d1i - s1 * d2i + s2 * d3i), e3i = s3 * d1r - s1 * d2r + s2 * d3r;
      cmulStore(ch, o0 + so, a1r + e1r, a1i + e1i, tw, 2 * i, sgn);
      cmulStore(ch, o0 + 2 * so, a2r + e2r, a2i + e2i, tw, 2 * i + tj, sgn);
      cmulStore(ch, o0 + 3 * so, a3r + e3r, a3i + e3i, tw, 2 * i + 2 * tj, sgn);
      cmulStore(ch, o0 + 4 * so, a3r - e3r, a3i - e3i, tw, 2 * i + 3 * tj, sgn);
      cmulStore(ch, o0 + 5 * so, a2r - e2r, a2i - e2i, tw, 2 * i + 4 * tj, sgn);
      cmulStore(ch, o0 + 6 * so, a1r - e1r, a1i - e1i, tw, 2 * i + 5 * tj, sgn);
    }
  }
}
var R2 = Math.SQRT1_2;
function pass8({ l1, ido, tw }, cc, ch, sgn) {
  const so = 2 * ido * l1;
  const tj = 2 * ido;
  const is = 2 * ido;
  for (let k = 0; k < l1; k++) {
    for (let i = 0; i < ido; i++) {
      const a0 = 2 * (i + ido * 8 * k);
      const x0r = cc[a0], x0i = cc[a0 + 1];
      const x1r = cc[a0 + is], x1i = cc[a0 + is + 1];
      const x2r = cc[a0 + 2 * is], x2i = cc[a0 + 2 * is + 1];
      const x3r = cc[a0 + 3 * is], x3i = cc[a0 + 3 * is + 1];
      const x4r = cc[a0 + 4 * is], x4i = cc[a0 + 4 * is + 1];
      const x5r = cc[a0 + 5 * is], x5i = cc[a0 + 5 * is + 1];
      const x6r = cc[a0 + 6 * is], x6i = cc[a0 + 6 * is + 1];
      const x7r = cc[a0 + 7 * is], x7i = cc[a0 + 7 * is + 1];
      let t0r = x0r + x4r, t0i = x0i + x4i, t1r = x0r - x4r, t1i = x0i - x4i;
      let t2r = x2r + x6r, t2i = x2i + x6i, t3r = x2r - x6r, t3i = x2i - x6i;
      let ur = -sgn * t3i, ui = sgn * t3r;
      const e0r = t0r + t2r, e0i = t0i + t2i, e2r = t0r - t2r, e2i = t0i - t2i;
      const e1r = t1r + ur, e1i = t1i + ui, e3r = t1r - ur, e3i = t1i - ui;
      t0r = x1r + x5r;
      t0i = x1i + x5i;
      t1r = x1r - x5r;
      t1i = x1i - x5i;
      t2r = x3r + x7r;
      t2i = x3i + x7i;
      t3r = x3r - x7r;
      t3i = x3i - x7i;
      ur = -sgn * t3i;
      ui = sgn * t3r;
      const q0r = t0r + t2r, q0i = t0i + t2i, q2r = t0r - t2r, q2i = t0i - t2i;
      const q1r = t1r + ur, q1i = t1i + ui, q3r = t1r - ur, q3i = t1i - ui;
      const w1r = R2 * (q1r - sgn * q1i), w1i = R2 * (q1i + sgn * q1r);
      const w2r = -sgn * q2i, w2i = sgn * q2r;
      const w3r = R2 * (-q3r - sgn * q3i), w3i = R2 * (-q3i + sgn * q3r);
      const o0 = 2 * (i + ido * k);
      ch[o0] = e0r + q0r;
      ch[o0 + 1] = e0i + q0i;
      cmulStore(ch, o0 + so, e1r + w1r, e1i + w1i, tw, 2 * i, sgn);
      cmulStore(ch, o0 + 2 * so, e2r + w2r, e2i + w2i, tw, 2 * i + tj, sgn);
      cmulStore(ch, o0 + 3 * so, e3r + w3r, e3i + w3i, tw, 2 * i + 2 * tj, sgn);
      cmulStore(ch, o0 + 4 * so, e0r - q0r, e0i - q0i, tw, 2 * i + 3 * tj, sgn);
      cmulStore(ch, o0 + 5 * so, e1r - w1r, e1i - w1i, tw, 2 * i + 4 * tj, sgn);
      cmulStore(ch, o0 + 6 * so, e2r - w2r, e2i - w2i, tw, 2 * i + 5 * tj, sgn);
      cmulStore(ch, o0 + 7 * so, e3r - w3r, e3i - w3i, tw, 2 * i + 6 * tj, sgn);
    }
  }
}
function passOdd({ ip, l1, ido, tw, cs }, cc, ch, sgn) {
  const h = (ip - 1) / 2;
  const so = 2 * ido * l1;
  const tj = 2 * ido;
  const is = 2 * ido;
  const t = new Float64Array(2 * (h + 1));
  const d = new Float64Array(2 * (h + 1));
  const c = cs;
  for (let k = 0; k < l1; k++) {
    for (let i = 0; i < ido; i++) {
      const a0 = 2 * (i + ido * ip * k);
      const r0 = cc[a0], i0 = cc[a0 + 1];
      let sr = r0, si = i0;
      for (let m = 1; m <= h; m++) {
        const p = a0 + m * is, q = a0 + (ip - m) * is;
        const tr = cc[p] + cc[q], ti = cc[p + 1] + cc[q + 1];
        t[2 * m] = tr;
        t[2 * m + 1] = ti;
        d[2 * m] = cc[p] - cc[q];
        d[2 * m + 1] = cc[p + 1] - cc[q + 1];
        sr += tr;
        si += ti;
      }
      const o0 = 2 * (i + ido * k);
      ch[o0] = sr;
      ch[o0 + 1] = si;
      for (let j = 1; j <= h; j++) {
        let ar = r0, ai = i0, er = 0, ei = 0;
        let q = 0;
        for (let m = 1; m <= h; m++) {
          q += j;
          if (q >= ip) q -= ip;
          const cq = c[2 * q], sq = sgn * c[2 * q + 1];
          ar += cq * t[2 * m];
          ai += cq * t[2 * m + 1];
          er -= sq * d[2 * m + 1];
          ei += sq * d[2 * m];
        }
        cmulStore(ch, o0 + j * so, ar + er, ai + ei, tw, 2 * i + (j - 1) * tj, sgn);
        cmulStore(ch, o0 + (ip - j) * so, ar - er, ai - ei, tw, 2 * i + (ip - j - 1) * tj, sgn);
      }
    }
  }
}
var mixedCache = /* @__PURE__ */ new Map();
function planMixedRadix(n) {
  checkLength(n);
  let p = mixedCache.get(n);
  if (!p) {
    p = new MixedRadixFft(n);
    mixedCache.set(n, p);
  }
  return p;
}
function layoutOf(l, n, name) {
  const offset = l?.offset ?? 0;
  const stride = l?.stride ?? 1;
  const dist = l?.dist ?? n * stride;
  for (const [k, v] of [["offset", offset], ["stride", stride], ["dist", dist]]) {
    if (!Number.isInteger(v) || v < 0) throw new ArgumentError(`${name}.${k}`, v, "a non-negative integer");
  }
  return { offset, stride, dist };
}
function checkFits(len, n, batch, l, name, perElement = 2) {
  if (batch === 0 || n === 0) return;
  const last = l.offset + (n - 1) * l.stride + (batch - 1) * l.dist;
  if (perElement * (last + 1) > len) {
    throw new ArgumentError(name, len, `an array of at least ${perElement * (last + 1)} numbers for ${batch} problem(s) of ${n} with offset ${l.offset}, stride ${l.stride}, dist ${l.dist}`);
  }
}
function executeBatched(plan, input, output, options = {}) {
  const n = plan.n;
  const batch = options.batch ?? 1;
  checkLength(batch, "batch", 0);
  const inverse = options.inverse ?? false;
  const scale = normScale2(n, options.norm, inverse);
  const li = layoutOf(options.input, n, "input");
  const lo = layoutOf(options.output, n, "output");
  checkFits(input.length, n, batch, li, "input");
  checkFits(output.length, n, batch, lo, "output");
  const contiguousIn = li.stride === 1 && input instanceof Float64Array;
  const work = new Float64Array(2 * n);
  for (let b = 0; b < batch; b++) {
    const ib = li.offset + b * li.dist;
    if (contiguousIn) work.set(input.subarray(2 * ib, 2 * (ib + n)));
    else {
      for (let e = 0; e < n; e++) {
        const s = 2 * (ib + e * li.stride);
        work[2 * e] = input[s];
        work[2 * e + 1] = input[s + 1];
      }
    }
    plan.transformInPlace(work, 0, inverse, scale);
    const ob = lo.offset + b * lo.dist;
    if (lo.stride === 1) output.set(work, 2 * ob);
    else {
      for (let e = 0; e < n; e++) {
        const s = 2 * (ob + e * lo.stride);
        output[s] = work[2 * e];
        output[s + 1] = work[2 * e + 1];
      }
    }
  }
}

// src/backends/cpu/fft-bluestein.ts
function bluesteinInnerLength(n) {
  const need = 2 * n - 1;
  let best = Infinity;
  for (let p3 = 1; p3 < 2 * need; p3 *= 3) {
    let v = p3;
    while (v < need) v *= 2;
    if (v < best) best = v;
  }
  return best;
}
var BluesteinFft = class {
  constructor(n, inner) {
    this.n = n;
    checkLength(n);
    const m = inner?.n ?? bluesteinInnerLength(n);
    if (m < 2 * n - 1) throw new ArgumentError("inner", m, `an inner FFT of length \u2265 2N \u2212 1 = ${2 * n - 1}`);
    this.innerN = m;
    this.inner = inner ?? planMixedRadix(m);
    this.recipe = { kind: "bluestein", n, innerN: m, inner: this.inner.recipe };
    const chirp = new Float64Array(2 * n);
    let sq = 0;
    for (let i = 0; i < n; i++) {
      if (i > 0) sq = (sq + 2 * i - 1) % (2 * n);
      const [c, s] = unitRoot2(sq, 2 * n);
      chirp[2 * i] = c;
      chirp[2 * i + 1] = -s;
    }
    this.chirp = chirp;
    const k = new Float64Array(2 * m);
    for (let i = 0; i < n; i++) {
      const re = chirp[2 * i], im = -chirp[2 * i + 1];
      k[2 * i] = re;
      k[2 * i + 1] = im;
      if (i > 0) {
        k[2 * (m - i)] = re;
        k[2 * (m - i) + 1] = im;
      }
    }
    this.inner.transformInPlace(k, 0, false, 1 / m);
    this.kernel = k;
    this.work = new Float64Array(2 * m);
  }
  n;
  recipe;
  innerN;
  /** conj(c_m) = e^{−iπm²/N}, m = 0..N−1. */
  chirp;
  /** FFT_M of the wrapped chirp c, pre-scaled by 1/M so the inverse inner FFT needs no extra pass. */
  kernel;
  work;
  inner;
  transformInPlace(data, offset, inverse, scale = 1) {
    const n = this.n, m = this.innerN;
    const w = this.work, ch = this.chirp, kk = this.kernel;
    const base = 2 * offset;
    const cs = inverse ? -1 : 1;
    for (let i = 0; i < n; i++) {
      const xr = data[base + 2 * i], xi = cs * data[base + 2 * i + 1];
      const cr = ch[2 * i], ci = ch[2 * i + 1];
      w[2 * i] = xr * cr - xi * ci;
      w[2 * i + 1] = xr * ci + xi * cr;
    }
    w.fill(0, 2 * n);
    this.inner.transformInPlace(w, 0, false);
    for (let j = 0; j < m; j++) {
      const ar = w[2 * j], ai = w[2 * j + 1], br = kk[2 * j], bi = kk[2 * j + 1];
      w[2 * j] = ar * br - ai * bi;
      w[2 * j + 1] = ar * bi + ai * br;
    }
    this.inner.transformInPlace(w, 0, true);
    for (let i = 0; i < n; i++) {
      const yr = w[2 * i], yi = w[2 * i + 1];
      const cr = ch[2 * i], ci = ch[2 * i + 1];
      data[base + 2 * i] = scale * (yr * cr - yi * ci);
      data[base + 2 * i + 1] = cs * scale * (yr * ci + yi * cr);
    }
  }
  execute(input, output, options = {}) {
    executeBatched(this, input, output, options);
  }
};

// src/backends/cpu/fft-plan.ts
var DEFAULT_BLUESTEIN_THRESHOLD = 16;
var cache = /* @__PURE__ */ new Map();
function planCpuFft(n, options = {}) {
  checkLength(n);
  const threshold = options.bluesteinThreshold ?? DEFAULT_BLUESTEIN_THRESHOLD;
  checkLength(threshold, "bluesteinThreshold", 2);
  const key = `${n}/${threshold}`;
  let plan = cache.get(key);
  if (!plan) {
    const largest = n === 1 ? 1 : primeFactors2(n).at(-1);
    plan = largest > threshold ? new BluesteinFft(n) : planMixedRadix(n);
    cache.set(key, plan);
  }
  return plan;
}

// src/backends/webgpu/fft.ts
var BYTES = 8;
var FUSED_R2C_COLUMNS = 16;
var WebGpuFft = class _WebGpuFft {
  constructor(ctx2, problem, recipe, programs, scratch, inPlace, real, outer, customSizes) {
    this.ctx = ctx2;
    this.problem = problem;
    this.recipe = recipe;
    this.programs = programs;
    this.scratch = scratch;
    this.inPlace = inPlace;
    this.real = real;
    this.outer = outer;
    this.customSizes = customSizes;
  }
  ctx;
  problem;
  recipe;
  programs;
  scratch;
  inPlace;
  real;
  outer;
  customSizes;
  destroyed = false;
  bindGroups = /* @__PURE__ */ new WeakMap();
  static async create(ctx2, problem, options = {}) {
    ctx2.assertUsable("createFftPlan");
    const real = options.real;
    const inPlace = options.inPlace ?? false;
    if (inPlace && JSON.stringify(problem.input) !== JSON.stringify(problem.output)) {
      throw new ArgumentError("output", problem.output, "the same layout as input for an in-place transform");
    }
    if (real && inPlace) throw new ArgumentError("inPlace", true, "false for real transforms (input and output differ in size)");
    if (real === "c2r" && problem.direction !== "inverse") throw new ArgumentError("direction", problem.direction, "'inverse' for a C2R transform");
    if (real === "r2c" && problem.direction !== "forward") throw new ArgumentError("direction", problem.direction, "'forward' for an R2C transform");
    const N = problem.n;
    const realSide = real === "r2c" ? problem.input : problem.output;
    const custom = options.custom;
    const bluesteinFor = (len) => !isSmooth2(len);
    let scheme = null;
    let recipe;
    let blu = null;
    if (real) {
      let packed = N % 2 === 0 && N >= 4 && (custom !== void 0 || realSide.stride === 1 && realSide.offset % 2 === 0 && realSide.dist % 2 === 0);
      if (packed && bluesteinFor(N / 2)) packed = false;
      const m2 = packed ? N / 2 : N;
      let postKernel = false;
      if (bluesteinFor(m2)) {
        blu = { m: m2, L: bluesteinLength(m2) };
        recipe = planFft(blu.L, problem.batch, ctx2.limits, options);
      } else if (packed && real === "r2c") {
        try {
          const pairAll = (options.r2cPairAll ?? (m2 >= 256 && m2 <= 2048)) && options.r2cPaired !== false;
          recipe = planWorkgroupFft(m2, problem.batch, ctx2.limits, { maxRadix: m2 >= 8192 ? 32 : 16, evenLastButterflies: pairAll, ...options });
        } catch (e) {
          if (e instanceof ArgumentError) throw e;
          const fuse = !options.r2cPostKernel && (options.r2cFused || !custom || !!custom.fusedPost);
          let wide = null;
          if (fuse && !options.lastPassColumns) {
            try {
              wide = planFft(m2, problem.batch, ctx2.limits, { ...options, lastPassColumns: FUSED_R2C_COLUMNS });
            } catch (e2) {
              if (!(e2 instanceof DeviceLimitError)) throw e2;
            }
          }
          recipe = wide ?? planFft(m2, problem.batch, ctx2.limits, options);
          postKernel = !(fuse && recipe.algorithm === "stockham-multipass" && r2cPassFusable(recipe.passes[recipe.passes.length - 1]));
        }
      } else recipe = planFft(m2, problem.batch, ctx2.limits, options);
      scheme = { m: m2, packed, postKernel };
    } else if (options.interleavedBatch) {
      if (custom || inPlace || bluesteinFor(N)) throw new UnsupportedError("interleavedBatch: plain complex out-of-place transforms of smooth lengths only");
      recipe = planMultiPass(N, problem.batch, ctx2.limits, options, true);
    } else if (options.columns && options.columns > 1) {
      if (custom || inPlace) throw new ArgumentError("columns", options.columns, "a plain out-of-place complex transform");
      recipe = planWorkgroupFft(N, problem.batch * options.columns, ctx2.limits, { ...options, pass: { total: N * options.columns, stride: options.columns, outerTwiddle: false } });
    } else if (bluesteinFor(N)) {
      blu = { m: N, L: bluesteinLength(N) };
      recipe = planFft(blu.L, problem.batch, ctx2.limits, options);
    } else recipe = planFft(N, problem.batch, ctx2.limits, options);
    const fftPasses = recipe.algorithm === "stockham-multipass" ? recipe.passes : recipe.algorithm === "bluestein" ? [] : [recipe];
    if (blu) recipe = { algorithm: "bluestein", n: blu.m, L: blu.L, inner: recipe, bytesPerProblem: 2 * recipe.bytesPerProblem };
    const passes = blu ? [...fftPasses, ...fftPasses] : fftPasses;
    const nFwd = fftPasses.length;
    const P = passes.length + (scheme?.postKernel ? 1 : 0);
    const to = Array.from({ length: P }, (_, i) => {
      if (i === P - 1) return "dst";
      if (inPlace || real || blu || custom) return i % 2 === 0 ? "tmp0" : "tmp1";
      return (P - 1 - i) % 2 === 0 ? "dst" : "tmp0";
    });
    const from = to.map((_, i) => i === 0 ? "src" : to[i - 1]);
    const m = scheme ? scheme.m : N;
    const work = blu ? blu.L : m;
    const colsMode = !real && !blu && options.columns && options.columns > 1 ? options.columns : 0;
    const colSizes = colsMode ? { inCount: N * colsMode, outCount: N * colsMode, inElem: BYTES, outElem: BYTES } : void 0;
    const contiguous = options.interleavedBatch && !real ? { offset: 0, stride: problem.batch, dist: 1 } : { offset: 0, stride: 1, dist: work };
    const outer = options.outer ?? { count: 1, inDist: 0, outDist: 0 };
    if (!Number.isSafeInteger(outer.count) || outer.count < 1) throw new ArgumentError("outer.count", outer.count, "a positive integer");
    const scratchBytes = work * problem.batch * outer.count * BYTES;
    const needs = (b) => to.includes(b);
    const maxBuffer = ctx2.limits.maxBufferSize;
    if ((needs("tmp0") || needs("tmp1")) && scratchBytes > maxBuffer) {
      throw new DeviceLimitError("maxBufferSize", scratchBytes, maxBuffer, `the scratch buffer of a ${P}-pass FFT of n = ${problem.n}, batch ${problem.batch}`);
    }
    const scratch = {
      tmp0: needs("tmp0") ? ctx2.device.createBuffer({ size: scratchBytes, usage: GPUBufferUsage.STORAGE, label: "fft-scratch0" }) : null,
      tmp1: needs("tmp1") ? ctx2.device.createBuffer({ size: scratchBytes, usage: GPUBufferUsage.STORAGE, label: "fft-scratch1" }) : null
    };
    const half = (l) => ({ offset: l.offset / 2, stride: 1, dist: l.dist / 2 });
    const firstIn = scheme?.packed && real === "r2c" && !custom ? half(problem.input) : problem.input;
    const lastOut = scheme?.packed && real === "c2r" && !custom ? half(problem.output) : problem.output;
    const realScale = custom ? 1 : normScale(N, problem.direction, problem.norm);
    const fftScale = !scheme ? realScale : scheme.packed && real === "c2r" ? 2 * realScale : scheme.postKernel ? 1 : realScale;
    const nFft = passes.length;
    const bluTable = blu ? bluesteinTables(blu.m, blu.L, problem.direction) : null;
    const ioFor = (i) => {
      const first = i === 0;
      const lastFft = i === nFft - 1 && !scheme?.postKernel;
      let load = "complex";
      let store = "complex";
      if (scheme && first) load = real === "c2r" ? scheme.packed ? "c2r" : "hermitian" : scheme.packed ? custom ? "packed-real" : "complex" : "real";
      if (scheme && lastFft) store = real === "r2c" ? scheme.packed ? "r2c" : "half" : scheme.packed ? custom ? "packed-real" : "complex" : "real";
      const hooks = custom && (first || lastFft) ? custom.io : void 0;
      const bluestein = blu && (first || lastFft || i === nFwd) ? { n: blu.m, L: blu.L, pre: first, mid: i === nFwd, post: lastFft, scale: fftScale } : void 0;
      if (load === "complex" && store === "complex" && !hooks && !bluestein) return void 0;
      const io = hooks ? { ...hooks, ...first ? {} : { rd: void 0, rdr: void 0, inHelpers: void 0 }, ...lastFft ? {} : { wr: void 0, wrq: void 0, wrr: void 0, outHelpers: void 0 } } : void 0;
      if (io && (!first || !lastFft)) {
        io.key = `${hooks.key}|${first ? "in" : ""}${lastFft ? "out" : ""}`;
        if (!lastFft) io.dstType = "vec2<f32>";
        if (!first) io.srcType = "vec2<f32>";
        if (!first && !lastFft) io.table = void 0;
      }
      return { load, store, realLength: N, custom: io, bluestein };
    };
    const inElem = (i) => i === 0 && custom ? custom.inElem : i === 0 && real === "r2c" && !scheme.packed ? 4 : BYTES;
    const outElem = (i) => i === P - 1 && custom ? custom.outElem : i === P - 1 && real === "c2r" && !scheme.packed ? 4 : BYTES;
    const outCount = (i) => i === P - 1 && custom ? custom.outCount : i === P - 1 && real === "r2c" ? Math.floor(N / 2) + 1 : i === P - 1 ? m : work;
    const programs = [];
    try {
      for (const [i, r] of passes.entries()) {
        const io = ioFor(i);
        const kernel = generateWorkgroupFft(r, {
          direction: blu ? i < nFwd ? "forward" : "inverse" : problem.direction,
          // Bluestein folds the output scale into its final chirp.
          scale: i === nFft - 1 && !blu ? fftScale : 1,
          inPlace: inPlace && P === 1,
          io,
          pairedR2c: options.r2cPaired,
          stagedR2cOut: options.r2cStagedOut
        });
        const pipeline = await getPipeline(ctx2, kernel);
        const inLayout = i === 0 ? firstIn : contiguous;
        const outLayout = i === P - 1 ? lastOut : contiguous;
        const inCount = i === 0 && custom ? custom.inCount : i === 0 && real === "c2r" ? Math.floor(N / 2) + 1 : i === 0 ? m : work;
        const sizes2 = colSizes ?? { inCount, outCount: outCount(i), inElem: inElem(i), outElem: outElem(i) };
        const units = colsMode ? colsMode : r.pass ? work / r.n : 1;
        const chunks = forOuter(
          outer,
          i === 0,
          i === P - 1,
          work * problem.batch,
          inLayout,
          outLayout,
          (il, ol) => planChunks(ctx2, problem.batch, il, ol, sizes2, units, r.problemsPerWorkgroup, options.splitLimits ?? {})
        );
        const twiddles = kernel.bindings.includes("twiddles") ? createStorageBuffer(ctx2, twiddleTable32(r.n), `twiddles${r.n}`) : null;
        const outerTw = kernel.outerTable ? createStorageBuffer(ctx2, kernel.outerTable, "outer-twiddles") : null;
        const realTw = kernel.realTable ? createStorageBuffer(ctx2, kernel.realTable, "real-twiddles") : null;
        const auxTable = io?.custom?.table;
        const aux = auxTable && kernel.bindings.includes("aux") ? createStorageBuffer(ctx2, auxTable, "adapter-table") : null;
        const bluBuf = bluTable && kernel.bindings.includes("blu") ? createStorageBuffer(ctx2, bluTable, "bluestein-chirps") : null;
        programs.push({ kernel, pipeline, twiddles, outer: outerTw, real: realTw, aux, blu: bluBuf, chunks, from: from[i], to: to[i] });
      }
      if (scheme?.postKernel) {
        const kernel = generateR2cPost(N, realScale, custom?.io);
        const pipeline = await getPipeline(ctx2, kernel);
        const realTw = createStorageBuffer(ctx2, realTwiddleTable(N), "real-twiddles");
        const aux = custom?.io.table && kernel.bindings.includes("aux") ? createStorageBuffer(ctx2, custom.io.table, "adapter-table") : null;
        const pairs = Math.floor(m / 2) + 1;
        const sizes2 = custom ? { inCount: m, outCount: custom.outCount, inElem: BYTES, outElem: custom.outElem } : { inCount: m, outCount: m + 1, inElem: BYTES, outElem: BYTES };
        const chunks = forOuter(
          outer,
          false,
          true,
          m * problem.batch,
          contiguous,
          problem.output,
          (il, ol) => planChunks(ctx2, problem.batch, il, ol, sizes2, pairs, R2C_POST_WORKGROUP, options.splitLimits ?? {})
        );
        programs.push({ kernel, pipeline, twiddles: null, outer: null, real: realTw, aux, blu: null, chunks, from: from[P - 1], to: to[P - 1] });
      }
    } catch (e) {
      for (const p of programs) destroyProgram(p);
      scratch.tmp0?.destroy();
      scratch.tmp1?.destroy();
      throw e;
    }
    return new _WebGpuFft(ctx2, problem, recipe, programs, scratch, inPlace, real, outer, custom ?? colSizes);
  }
  /** Number of dispatches (binding windows) of the first pass. */
  get chunkCount() {
    return this.programs[0].chunks.length;
  }
  /** The dispatch grid of each chunk of the first pass. */
  get grids() {
    return this.programs[0].chunks.map((c) => c.grid);
  }
  /** Kernel names, one per pass. */
  get kernelNames() {
    return this.programs.map((p) => p.kernel.name);
  }
  /** Bytes a source buffer must hold for this plan's layout. */
  get inputBytes() {
    if (this.customSizes) {
      return (layoutSpan(this.problem.input, this.customSizes.inCount, this.problem.batch) + (this.outer.count - 1) * this.outer.inDist) * this.customSizes.inElem;
    }
    const n = this.real === "c2r" ? Math.floor(this.problem.n / 2) + 1 : this.problem.n;
    const extra = (this.outer.count - 1) * this.outer.inDist;
    return (layoutSpan(this.problem.input, n, this.problem.batch) + extra) * (this.real === "r2c" ? 4 : BYTES);
  }
  get outputBytes() {
    if (this.customSizes) {
      return (layoutSpan(this.problem.output, this.customSizes.outCount, this.problem.batch) + (this.outer.count - 1) * this.outer.outDist) * this.customSizes.outElem;
    }
    const n = this.real === "r2c" ? Math.floor(this.problem.n / 2) + 1 : this.problem.n;
    const extra = (this.outer.count - 1) * this.outer.outDist;
    return (layoutSpan(this.problem.output, n, this.problem.batch) + extra) * (this.real === "c2r" ? 4 : BYTES);
  }
  /** Records the transform into `encoder`: one compute pass for all passes and chunks. */
  /**
   * Records the transform into `encoder`. `onlyProgram` (for benchmarks' per-pass timings) records just
   * that one of its kernels (passes in order, then any post-processing kernel; see kernelNames).
   */
  encode(encoder, src2, dst2, passDescriptor, onlyProgram) {
    this.assertUsable();
    if (this.inPlace && src2 !== dst2) throw new ArgumentError("dst", "another buffer", "the source buffer (plan is in place)");
    if (!this.inPlace && src2 === dst2) throw new ArgumentError("dst", "the source buffer", "a different buffer (plan is out of place; create it with inPlace: true)");
    if (src2.size < this.inputBytes) throw new ArgumentError("src", `GPUBuffer of ${src2.size} bytes`, `at least ${this.inputBytes} bytes`);
    if (dst2.size < this.outputBytes) throw new ArgumentError("dst", `GPUBuffer of ${dst2.size} bytes`, `at least ${this.outputBytes} bytes`);
    const groups = this.bindGroupsFor(src2, dst2);
    const pass = encoder.beginComputePass(passDescriptor);
    this.programs.forEach((prog, p) => {
      if (onlyProgram !== void 0 && p !== onlyProgram) return;
      pass.setPipeline(prog.pipeline);
      prog.chunks.forEach((c, i) => {
        pass.setBindGroup(0, groups[p][i]);
        pass.dispatchWorkgroups(c.grid[0], c.grid[1]);
      });
    });
    pass.end();
  }
  /** Encodes, submits and waits for completion; WebGPU errors surface as DeviceError. */
  async execute(src2, dst2) {
    await this.ctx.checked(this.programs[0].kernel.name, () => {
      const enc = this.ctx.device.createCommandEncoder();
      this.encode(enc, src2, dst2);
      this.ctx.device.queue.submit([enc.finish()]);
    });
    await this.ctx.device.queue.onSubmittedWorkDone();
  }
  /** Convenience: typed array in (interleaved complex, the input layout), typed array out. */
  async run(input) {
    this.assertUsable();
    const inFloats = this.inputBytes / 4;
    if (input.length < inFloats) {
      throw new ArgumentError("input", input, `a Float32Array of at least ${inFloats} values (${this.real === "r2c" ? "real" : "interleaved complex"})`);
    }
    const src2 = createStorageBuffer(this.ctx, input.subarray(0, inFloats), "fft-input");
    const dst2 = this.inPlace ? src2 : createStorageBuffer(this.ctx, this.outputBytes, "fft-output");
    try {
      await this.execute(src2, dst2);
      return new Float32Array(await readBuffer(this.ctx, dst2, 0, this.outputBytes));
    } finally {
      src2.destroy();
      if (dst2 !== src2) dst2.destroy();
    }
  }
  destroy() {
    if (this.destroyed) return;
    this.destroyed = true;
    for (const p of this.programs) destroyProgram(p);
    this.scratch.tmp0?.destroy();
    this.scratch.tmp1?.destroy();
  }
  assertUsable() {
    if (this.destroyed) throw new DestroyedError(`FFT plan (n = ${this.problem.n}) was destroyed`);
    this.ctx.assertUsable(this.programs[0].kernel.name);
  }
  bindGroupsFor(src2, dst2) {
    let inner = this.bindGroups.get(src2);
    if (!inner) {
      inner = /* @__PURE__ */ new WeakMap();
      this.bindGroups.set(src2, inner);
    }
    let groups = inner.get(dst2);
    if (!groups) {
      const buffers = { src: src2, dst: dst2, tmp0: this.scratch.tmp0, tmp1: this.scratch.tmp1 };
      groups = this.programs.map((prog) => {
        const layout3 = prog.pipeline.getBindGroupLayout(0);
        const inBuf = buffers[prog.from];
        const outBuf = buffers[prog.to];
        return prog.chunks.map((c) => {
          const entries = [];
          for (const b of prog.kernel.bindings) {
            if (b === "src" || b === "data") {
              const size = b === "data" ? Math.max(c.inByteSize, c.outByteSize) : c.inByteSize;
              entries.push({ binding: 0, resource: { buffer: inBuf, offset: c.inByteOffset, size } });
            } else if (b === "dst") entries.push({ binding: 1, resource: { buffer: outBuf, offset: c.outByteOffset, size: c.outByteSize } });
            else if (b === "twiddles") entries.push({ binding: 2, resource: { buffer: prog.twiddles } });
            else if (b === "outer") entries.push({ binding: 4, resource: { buffer: prog.outer } });
            else if (b === "real") entries.push({ binding: 5, resource: { buffer: prog.real } });
            else if (b === "aux") entries.push({ binding: 6, resource: { buffer: prog.aux } });
            else if (b === "blu") entries.push({ binding: 7, resource: { buffer: prog.blu } });
            else entries.push({ binding: 3, resource: { buffer: c.params } });
          }
          return this.ctx.device.createBindGroup({ layout: layout3, entries, label: prog.kernel.name });
        });
      });
      inner.set(dst2, groups);
    }
    return groups;
  }
};
function forOuter(outer, userIn, userOut, scratchGroup, inLayout, outLayout, make) {
  const chunks = [];
  try {
    for (let g = 0; g < outer.count; g++) {
      const il = { ...inLayout, offset: inLayout.offset + g * (userIn ? outer.inDist : scratchGroup) };
      const ol = { ...outLayout, offset: outLayout.offset + g * (userOut ? outer.outDist : scratchGroup) };
      chunks.push(...make(il, ol));
    }
  } catch (e) {
    for (const c of chunks) c.params.destroy();
    throw e;
  }
  return chunks;
}
function isSmooth2(n) {
  let m = n;
  for (let p = 2; p <= 64 && m > 1; p++) while (m % p === 0) m /= p;
  return m === 1;
}
function bluesteinLength(m) {
  const need = 2 * m - 1;
  let best = Infinity;
  for (let p3 = 1; p3 < 2 * need; p3 *= 3) {
    let v = p3;
    while (v < need) v *= 2;
    best = Math.min(best, v);
  }
  return best;
}
var bluesteinCache = /* @__PURE__ */ new Map();
function bluesteinTables(m, L, direction2) {
  const key = `${m}/${L}/${direction2}`;
  const hit = bluesteinCache.get(key);
  if (hit) return hit;
  const out2 = computeBluesteinTables(m, L, direction2);
  if (bluesteinCache.size >= 16) bluesteinCache.delete(bluesteinCache.keys().next().value);
  bluesteinCache.set(key, out2);
  return out2;
}
function computeBluesteinTables(m, L, direction2) {
  const w = bluesteinChirp(m, direction2);
  const B = new Float64Array(2 * L);
  planCpuFft(L).execute(bluesteinFilter(w, m, L), B, {});
  const out2 = new Float32Array(2 * (m + L));
  out2.set(w);
  for (let k = 0; k < 2 * L; k++) out2[2 * m + k] = B[k] / L;
  return out2;
}
function destroyProgram(p) {
  p.twiddles?.destroy();
  p.outer?.destroy();
  p.real?.destroy();
  p.aux?.destroy();
  p.blu?.destroy();
  for (const c of p.chunks) c.params.destroy();
}
function planChunks(ctx2, batch, input, output, size, units, perWorkgroup, lower) {
  const maxBinding = Math.min(ctx2.limits.maxStorageBufferBindingSize, lower.maxStorageBufferBindingSize ?? Infinity);
  const maxDim = Math.min(ctx2.limits.maxComputeWorkgroupsPerDimension, lower.maxComputeWorkgroupsPerDimension ?? Infinity);
  const align = ctx2.limits.minStorageBufferOffsetAlignment;
  const oneIn = ((size.inCount - 1) * input.stride + 1) * size.inElem;
  const oneOut = ((size.outCount - 1) * output.stride + 1) * size.outElem;
  const room = maxBinding - align;
  if (oneIn > room || oneOut > room) {
    throw new DeviceLimitError("maxStorageBufferBindingSize", Math.max(oneIn, oneOut) + align, maxBinding, `one problem of ${Math.max(size.inCount, size.outCount)} elements`);
  }
  const fit = (one, dist, elem) => dist === 0 ? batch : Math.floor((room - one) / (dist * elem)) + 1;
  const perChunk = Math.max(1, Math.min(batch, fit(oneIn, input.dist, size.inElem), fit(oneOut, output.dist, size.outElem)));
  const chunks = [];
  for (let first = 0; first < batch; first += perChunk) {
    const problems = Math.min(perChunk, batch - first);
    const inStart = (input.offset + first * input.dist) * size.inElem;
    const outStart = (output.offset + first * output.dist) * size.outElem;
    const inAligned = Math.floor(inStart / align) * align;
    const outAligned = Math.floor(outStart / align) * align;
    const inSpan = layoutSpan({ offset: 0, stride: input.stride, dist: input.dist }, size.inCount, problems) * size.inElem;
    const outSpan = layoutSpan({ offset: 0, stride: output.stride, dist: output.dist }, size.outCount, problems) * size.outElem;
    const workgroups = Math.ceil(problems * units / perWorkgroup);
    let grid;
    try {
      grid = dispatchGrid(workgroups, maxDim);
    } catch (e) {
      for (const c of chunks) c.params.destroy();
      throw e;
    }
    const params = ctx2.device.createBuffer({
      size: FFT_PARAMS_BYTES,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
      label: "fft-params"
    });
    ctx2.device.queue.writeBuffer(
      params,
      0,
      new Uint32Array([
        problems * units,
        grid[0],
        (inStart - inAligned) / size.inElem,
        input.stride,
        input.dist,
        (outStart - outAligned) / size.outElem,
        output.stride,
        output.dist
      ])
    );
    chunks.push({
      inByteOffset: inAligned,
      inByteSize: Math.ceil((inSpan + (inStart - inAligned)) / 4) * 4,
      outByteOffset: outAligned,
      outByteSize: Math.ceil((outSpan + (outStart - outAligned)) / 4) * 4,
      grid,
      params
    });
  }
  return chunks;
}

// src/backends/webgpu/plan-chain.ts
var PlanChain = class {
  constructor(ctx2, steps, label) {
    this.ctx = ctx2;
    this.steps = steps;
    this.label = label;
    const mid = Math.max(16, ...steps.slice(0, -1).map((s) => s.outBytes));
    const usage2 = GPUBufferUsage.STORAGE;
    this.scratch = [
      steps.length > 1 ? ctx2.device.createBuffer({ size: mid, usage: usage2, label: `${label}-scratch0` }) : null,
      steps.length > 2 ? ctx2.device.createBuffer({ size: mid, usage: usage2, label: `${label}-scratch1` }) : null
    ];
  }
  ctx;
  steps;
  label;
  destroyed = false;
  scratch;
  get inputBytes() {
    return this.steps[0].inBytes;
  }
  get outputBytes() {
    return this.steps[this.steps.length - 1].outBytes;
  }
  /** The steps' plans, in order (benchmarks time them one by one). */
  get plans() {
    return this.steps.map((s) => s.plan);
  }
  encode(encoder, src2, dst2) {
    if (this.destroyed) throw new DestroyedError(`${this.label} plan was destroyed`);
    if (src2 === dst2) throw new ArgumentError("dst", "the source buffer", "a different buffer");
    const K = this.steps.length;
    this.steps.forEach((s, k) => s.plan.encode(encoder, k === 0 ? src2 : this.scratch[(k - 1) % 2], k === K - 1 ? dst2 : this.scratch[k % 2]));
  }
  /** Encodes, submits and waits; WebGPU errors surface as DeviceError. */
  async execute(src2, dst2) {
    await this.ctx.checked(this.label, () => {
      const enc = this.ctx.device.createCommandEncoder();
      this.encode(enc, src2, dst2);
      this.ctx.device.queue.submit([enc.finish()]);
    });
    await this.ctx.device.queue.onSubmittedWorkDone();
  }
  /** Typed array in, typed array out (`describe` names the expected input in errors). */
  async run(input, describe2) {
    if (this.destroyed) throw new DestroyedError(`${this.label} plan was destroyed`);
    const need = this.inputBytes / 4;
    if (input.length !== need) throw new ArgumentError("input", input, `${need} float32 values (${describe2})`);
    const src2 = createStorageBuffer(this.ctx, input, `${this.label}-input`);
    const dst2 = createStorageBuffer(this.ctx, this.outputBytes, `${this.label}-output`);
    try {
      await this.execute(src2, dst2);
      return new Float32Array(await readBuffer(this.ctx, dst2, 0, this.outputBytes));
    } finally {
      src2.destroy();
      dst2.destroy();
    }
  }
  destroy() {
    if (this.destroyed) return;
    this.destroyed = true;
    for (const s of this.steps) s.plan.destroy();
    for (const b of this.scratch) b?.destroy();
  }
};

// src/backends/webgpu/fft-nd.ts
function product(a) {
  return a.reduce((x, y) => x * y, 1);
}
function normalizeAxes(axes, ndim, distinct = false) {
  const out2 = (axes ?? Array.from({ length: ndim }, (_, i) => i)).map((a) => {
    if (!Number.isInteger(a) || a < -ndim || a >= ndim) throw new ArgumentError("axes", axes, `axis indices in [${-ndim}, ${ndim})`);
    return a < 0 ? a + ndim : a;
  });
  if (out2.length === 0) throw new ArgumentError("axes", axes, "at least one axis");
  if (distinct && new Set(out2).size !== out2.length) throw new ArgumentError("axes", axes, "distinct axes");
  return out2;
}
var WebGpuFftNd = class _WebGpuFftNd {
  constructor(kind2, inShape, outShape, chain) {
    this.kind = kind2;
    this.inShape = inShape;
    this.outShape = outShape;
    this.chain = chain;
  }
  kind;
  inShape;
  outShape;
  chain;
  static async create(ctx2, d) {
    const shape = [...d.shape];
    if (shape.length === 0 || !shape.every((v) => Number.isSafeInteger(v) && v >= 1)) {
      throw new ArgumentError("shape", d.shape, "a non-empty array of positive integers");
    }
    const kind2 = d.kind ?? "c2c";
    const axes = normalizeAxes(d.axes, shape.length, kind2 !== "c2c");
    const direction2 = kind2 === "r2c" ? "forward" : kind2 === "c2r" ? "inverse" : d.direction ?? "forward";
    if (kind2 !== "c2c" && d.direction && d.direction !== direction2) {
      throw new ArgumentError("direction", d.direction, `'${direction2}' for a ${kind2.toUpperCase()} transform`);
    }
    const last = axes[axes.length - 1];
    const half = (s) => s.map((v, i) => i === last ? Math.floor(v / 2) + 1 : v);
    const inShape = kind2 === "c2r" ? half(shape) : shape;
    const outShape = kind2 === "r2c" ? half(shape) : shape;
    const order = kind2 === "r2c" ? [last, ...axes.slice(0, -1)] : kind2 === "c2r" ? [...axes.slice(0, -1), last] : [...axes].reverse();
    const steps = [];
    let cur = [...inShape];
    try {
      for (const [k, a] of order.entries()) {
        const real = kind2 === "r2c" && k === 0 ? "r2c" : kind2 === "c2r" && k === order.length - 1 ? "c2r" : void 0;
        const next = [...cur];
        if (real === "r2c") next[a] = Math.floor(shape[a] / 2) + 1;
        if (real === "c2r") next[a] = shape[a];
        const n = shape[a];
        const inner = product(cur.slice(a + 1));
        const outer = product(cur.slice(0, a));
        const lenIn = cur[a];
        const lenOut = next[a];
        const problem = inner === 1 ? fftProblem({ n, batch: outer, direction: direction2, norm: d.norm, input: { dist: lenIn }, output: { dist: lenOut } }) : fftProblem({ n, batch: inner, direction: direction2, norm: d.norm, input: { stride: inner, dist: 1 }, output: { stride: inner, dist: 1 } });
        const opts = { ...d.planner, real };
        if (inner !== 1 && outer > 1) opts.outer = { count: outer, inDist: lenIn * inner, outDist: lenOut * inner };
        let plan = null;
        if (inner > 1 && !real) {
          const blocks = fftProblem({ n, batch: outer, direction: direction2, norm: d.norm, input: { dist: n * inner }, output: { dist: n * inner } });
          plan = await WebGpuFft.create(ctx2, blocks, { ...d.planner, columns: inner }).catch((e) => {
            if (e instanceof ButterflyError && !(e instanceof ArgumentError)) return null;
            throw e;
          });
          plan ??= await WebGpuFft.create(ctx2, problem, { ...opts, interleavedBatch: true }).catch((e) => {
            if (e instanceof ButterflyError && !(e instanceof ArgumentError)) return null;
            throw e;
          });
        }
        plan ??= await WebGpuFft.create(ctx2, problem, opts);
        const elemIn = real === "r2c" ? 4 : 8;
        const elemOut = real === "c2r" ? 4 : 8;
        steps.push({ plan, inBytes: product(cur) * elemIn, outBytes: product(next) * elemOut });
        cur = next;
      }
    } catch (e) {
      for (const s of steps) s.plan.destroy();
      throw e;
    }
    return new _WebGpuFftNd(kind2, inShape, outShape, new PlanChain(ctx2, steps, "fftn"));
  }
  /** Bytes of the input and output buffers (f32 for real arrays, complex64 otherwise). */
  get inputBytes() {
    return this.chain.inputBytes;
  }
  get outputBytes() {
    return this.chain.outputBytes;
  }
  encode(encoder, src2, dst2) {
    this.chain.encode(encoder, src2, dst2);
  }
  execute(src2, dst2) {
    return this.chain.execute(src2, dst2);
  }
  /** Typed array in (f32: real or interleaved complex), typed array out. */
  run(input) {
    return this.chain.run(input, `shape [${this.inShape.join(", ")}], ${this.kind === "r2c" ? "real" : "complex, interleaved"}`);
  }
  destroy() {
    this.chain.destroy();
  }
};

// src/codegen/r2r-hooks.ts
function halfRoot(num, den) {
  return unitRoot(num, 2 * den);
}
function quarterRoots(N) {
  const table2 = new Float32Array(2 * N);
  for (let k = 0; k < N; k++) [table2[2 * k], table2[2 * k + 1]] = halfRoot(k, 2 * N);
  return table2;
}
function factorsExpr(list, v) {
  return list.reduce((acc, [i, f]) => `${acc} * select(1.0, ${f32(f)}, ${v} == ${i}u)`, "1.0");
}
function r2rHooks(kind2, n, scale, pre, post) {
  const N = n;
  const H = Math.ceil(N / 2);
  const xin = `fn xin(base: u32, j: u32) -> f32 { return src[base + j * params.in_stride] * (${factorsExpr(pre, "j")}); }`;
  const yout = `fn yout(base: u32, k: u32, v: f32) { dst[base + k * params.out_stride] = v * ${f32(scale)} * (${factorsExpr(post, "k")}); }`;
  const base = { srcType: "f32", dstType: "f32" };
  const key = (extra) => `${kind2}|${N}|${scale}|${JSON.stringify(pre)}|${JSON.stringify(post)}|${extra}`;
  const perm = `fn perm(i: u32) -> u32 { if (i < ${H}u) { return 2u * i; } return 2u * (${N - 1}u - i) + 1u; }`;
  switch (kind2) {
    case "dct2":
    case "dst2": {
      const table2 = quarterRoots(N);
      const sgn = kind2 === "dst2" ? `select(1.0, -1.0, (j & 1u) == 1u)` : "1.0";
      const outIdx = (k) => kind2 === "dst2" ? `${N - 1}u - (${k})` : k;
      return {
        fftLength: N,
        real: "r2c",
        direction: "forward",
        io: {
          ...base,
          key: key(""),
          table: table2,
          inHelpers: [xin, perm].join("\n"),
          outHelpers: yout,
          rdr: `fn rdr(base: u32, i: u32) -> f32 { let j = perm(i); return xin(base, j) * ${sgn}; }`,
          // c = aux[k] = e^{−iπk/2N}; aux[N − k] = −i·conj(c) = (−c.y, −c.x) exactly, so one table entry
          // serves both outputs, and wrq lets a pass supply c without reading the table per output.
          wr: "fn wr(base: u32, k: u32, v: vec2<f32>) { wrq(base, k, v, aux[k]); }",
          wrq: [
            "fn wrq(base: u32, k: u32, v: vec2<f32>, c: vec2<f32>) {",
            `  yout(base, ${outIdx("k")}, 2.0 * (c.x * v.x - c.y * v.y));`,
            `  if (k > 0u && k < ${N}u - k) {`,
            // V_{N−k} = conj(V_k), with d = aux[N − k] = (−c.y, −c.x).
            `    yout(base, ${outIdx(`${N}u - k`)}, -2.0 * (c.y * v.x + c.x * v.y));`,
            "  }",
            "}"
          ].join("\n")
        }
      };
    }
    case "dct3":
    case "dst3": {
      const table2 = quarterRoots(N);
      const src2 = (j) => kind2 === "dst3" ? `xin(base, ${N - 1}u - (${j}))` : `xin(base, ${j})`;
      const sgn = kind2 === "dst3" ? " * select(1.0, -1.0, (d & 1u) == 1u)" : "";
      return {
        fftLength: N,
        real: "c2r",
        direction: "inverse",
        io: {
          ...base,
          key: key(""),
          table: table2,
          inHelpers: xin,
          outHelpers: [yout, perm].join("\n"),
          rd: [
            "fn rd(base: u32, k: u32) -> vec2<f32> {",
            `  let a = ${src2("k")};`,
            `  var b = 0.0;`,
            `  if (k > 0u) { b = ${src2(`${N}u - k`)}; }`,
            // Z_k = conj(aux[k])·(a − i·b)
            "  let c = aux[k];",
            "  return vec2<f32>(c.x * a - c.y * b, -c.y * a - c.x * b);",
            "}"
          ].join("\n"),
          wrr: `fn wrr(base: u32, i: u32, v: f32) { let d = perm(i); yout(base, d, v${sgn}); }`
        }
      };
    }
    case "dct1": {
      const L = 2 * (N - 1);
      return {
        fftLength: L,
        real: "r2c",
        direction: "forward",
        io: {
          ...base,
          key: key(""),
          inHelpers: xin,
          outHelpers: yout,
          rdr: `fn rdr(base: u32, i: u32) -> f32 { if (i < ${N}u) { return xin(base, i); } return xin(base, ${L}u - i); }`,
          wr: `fn wr(base: u32, k: u32, v: vec2<f32>) { if (k < ${N}u) { yout(base, k, v.x); } }`
        }
      };
    }
    case "dst1": {
      const L = 2 * (N + 1);
      return {
        fftLength: L,
        real: "r2c",
        direction: "forward",
        io: {
          ...base,
          key: key(""),
          inHelpers: xin,
          outHelpers: yout,
          rdr: [
            "fn rdr(base: u32, i: u32) -> f32 {",
            `  if (i == 0u || i == ${N + 1}u) { return 0.0; }`,
            `  if (i <= ${N}u) { return xin(base, i - 1u); }`,
            `  return -xin(base, ${L - 1}u - i);`,
            "}"
          ].join("\n"),
          wr: `fn wr(base: u32, k: u32, v: vec2<f32>) { if (k >= 1u && k <= ${N}u) { yout(base, k - 1u, -v.y); } }`
        }
      };
    }
    case "dct4":
    case "dst4": {
      const table2 = new Float32Array(4 * N);
      for (let j = 0; j < N; j++) [table2[2 * j], table2[2 * j + 1]] = halfRoot(j, 2 * N);
      for (let k = 0; k < N; k++) [table2[2 * (N + k)], table2[2 * (N + k) + 1]] = halfRoot(2 * k + 1, 4 * N);
      const src2 = (j) => kind2 === "dst4" ? `xin(base, ${N - 1}u - (${j}))` : `xin(base, ${j})`;
      const sgn = kind2 === "dst4" ? " * select(1.0, -1.0, (k & 1u) == 1u)" : "";
      return {
        fftLength: 2 * N,
        real: void 0,
        direction: "forward",
        io: {
          ...base,
          key: key(""),
          table: table2,
          inHelpers: xin,
          outHelpers: yout,
          rd: `fn rd(base: u32, j: u32) -> vec2<f32> { if (j >= ${N}u) { return vec2<f32>(0.0, 0.0); } return aux[j] * ${src2("j")}; }`,
          wr: [
            "fn wr(base: u32, k: u32, v: vec2<f32>) {",
            `  if (k < ${N}u) { let c = aux[${N}u + k]; yout(base, k, 2.0 * (c.x * v.x - c.y * v.y)${sgn}); }`,
            "}"
          ].join("\n")
        }
      };
    }
    case "dht":
      return {
        fftLength: N,
        real: "r2c",
        direction: "forward",
        io: {
          ...base,
          key: key(""),
          inHelpers: xin,
          outHelpers: yout,
          rdr: "fn rdr(base: u32, i: u32) -> f32 { return xin(base, i); }",
          wr: [
            "fn wr(base: u32, k: u32, v: vec2<f32>) {",
            "  yout(base, k, v.x - v.y);",
            `  if (k > 0u && k < ${N}u - k) { yout(base, ${N}u - k, v.x + v.y); }`,
            "}"
          ].join("\n")
        }
      };
  }
}

// src/backends/webgpu/r2r.ts
var INVERSE_TYPE = { 1: 1, 2: 3, 3: 2, 4: 4 };
var SQ2 = Math.SQRT2;
function r2rSpec(family, type) {
  const none = () => [];
  if (family === "dht") return { kind: "dht", minN: 1, denom: (n) => n, pre: none, post: none };
  if (family === "dct") {
    switch (type) {
      case 1:
        return { kind: "dct1", minN: 2, denom: (n) => 2 * (n - 1), pre: (n) => [[0, SQ2], [n - 1, SQ2]], post: (n) => [[0, 1 / SQ2], [n - 1, 1 / SQ2]] };
      case 2:
        return { kind: "dct2", minN: 1, denom: (n) => 2 * n, pre: none, post: () => [[0, 1 / SQ2]] };
      case 3:
        return { kind: "dct3", minN: 1, denom: (n) => 2 * n, pre: () => [[0, SQ2]], post: none };
      case 4:
        return { kind: "dct4", minN: 1, denom: (n) => 2 * n, pre: none, post: none };
    }
  } else {
    switch (type) {
      case 1:
        return { kind: "dst1", minN: 1, denom: (n) => 2 * (n + 1), pre: none, post: none };
      case 2:
        return { kind: "dst2", minN: 1, denom: (n) => 2 * n, pre: none, post: (n) => [[n - 1, 1 / SQ2]] };
      case 3:
        return { kind: "dst3", minN: 1, denom: (n) => 2 * n, pre: (n) => [[n - 1, SQ2]], post: none };
      case 4:
        return { kind: "dst4", minN: 1, denom: (n) => 2 * n, pre: none, post: none };
    }
  }
  throw new ArgumentError("type", type, "a transform type 1, 2, 3 or 4");
}
function overallScale(norm, denom, inverse) {
  if (norm === "ortho") return 1 / Math.sqrt(denom);
  if (norm === "backward") return inverse ? 1 / denom : 1;
  return inverse ? 1 : 1 / denom;
}
var WebGpuR2r = class _WebGpuR2r {
  constructor(shape, chain) {
    this.shape = shape;
    this.chain = chain;
  }
  shape;
  chain;
  static async create(ctx2, d) {
    const shape = [...d.shape];
    if (shape.length === 0 || !shape.every((v) => Number.isSafeInteger(v) && v >= 1)) {
      throw new ArgumentError("shape", d.shape, "a non-empty array of positive integers");
    }
    const inverse = d.inverse ?? false;
    const type = d.family === "dht" ? 0 : d.type ?? 2;
    if (d.family !== "dht" && ![1, 2, 3, 4].includes(type)) throw new ArgumentError("type", d.type, "a transform type 1, 2, 3 or 4");
    const norm = d.norm ?? "backward";
    if (!["backward", "ortho", "forward"].includes(norm)) throw new ArgumentError("norm", norm, "'backward', 'ortho' or 'forward'");
    const orth2 = d.family !== "dht" && (d.orthogonalize ?? norm === "ortho");
    const spec = r2rSpec(d.family, inverse && d.family !== "dht" ? INVERSE_TYPE[type] : type);
    const axes = normalizeAxes(d.axes, shape.length, true);
    const steps = [];
    try {
      for (const a of [...axes].reverse()) {
        const n = shape[a];
        if (n < spec.minN) throw new ArgumentError("n", n, `\u2265 ${spec.minN} along axis ${a} for ${d.family.toUpperCase()} type ${type || ""}`.trim());
        const hooks = r2rHooks(spec.kind, n, overallScale(norm, spec.denom(n), inverse), orth2 ? spec.pre(n) : [], orth2 ? spec.post(n) : []);
        const inner = shape.slice(a + 1).reduce((x, y) => x * y, 1);
        const outer = shape.slice(0, a).reduce((x, y) => x * y, 1);
        const layout3 = inner === 1 ? { stride: 1, dist: n } : { stride: inner, dist: 1 };
        const problem = fftProblem({ n: hooks.fftLength, batch: inner === 1 ? outer : inner, direction: hooks.direction, input: layout3, output: layout3 });
        steps.push(
          await WebGpuFft.create(ctx2, problem, {
            ...d.planner,
            real: hooks.real,
            // Multi-pass: the post-processing fused into the last pass for the DHT (measured faster,
            // …-sweep9) and for the hooks that take their quarter-root twiddles from the pass (wrq: DCT-II,
            // DST-II; 2^15 … 2^20 0.98 → 0.89 ms … 1.27 → 1.08 on an H200, …-sweep22; reading the table per
            // output instead, the fused pass had been 1.11 ms against 0.34 + 0.34 for pass and kernel, …-sweep21).
            custom: { io: hooks.io, inCount: n, outCount: n, inElem: 4, outElem: 4, fusedPost: spec.kind === "dht" || !!hooks.io.wrq },
            ...inner !== 1 && outer > 1 ? { outer: { count: outer, inDist: n * inner, outDist: n * inner } } : {}
          })
        );
      }
    } catch (e) {
      for (const s of steps) s.destroy();
      throw e;
    }
    const bytes2 = 4 * shape.reduce((x, y) => x * y, 1);
    return new _WebGpuR2r(shape, new PlanChain(ctx2, steps.map((plan) => ({ plan, inBytes: bytes2, outBytes: bytes2 })), "r2r"));
  }
  encode(encoder, src2, dst2) {
    this.chain.encode(encoder, src2, dst2);
  }
  /** The FFT plan of each transformed axis, in the order they run (benchmarks time their kernels). */
  get axisPlans() {
    return this.chain.plans;
  }
  execute(src2, dst2) {
    return this.chain.execute(src2, dst2);
  }
  run(input) {
    return this.chain.run(input, `shape [${this.shape.join(", ")}], real`);
  }
  destroy() {
    this.chain.destroy();
  }
};

// src/backends/cpu/fft-real.ts
var CpuRealFft = class {
  constructor(n) {
    this.n = n;
    checkLength(n);
    this.nComplex = Math.floor(n / 2) + 1;
    const even = n % 2 === 0;
    this.inner = planCpuFft(even ? n / 2 : n);
    this.recipe = even ? { kind: "real-even-via-half-complex", n, inner: this.inner.recipe } : { kind: "real-via-full-complex", n, inner: this.inner.recipe };
    const h = n / 2;
    this.w = new Float64Array(even ? 2 * (h + 1) : 0);
    if (even) {
      for (let k = 0; k <= h; k++) {
        const [c, s] = unitRoot2(k, n);
        this.w[2 * k] = c;
        this.w[2 * k + 1] = -s;
      }
    }
    this.work = new Float64Array(even ? n : 2 * n);
  }
  n;
  /** Number of complex outputs of rfft = floor(n/2) + 1. */
  nComplex;
  recipe;
  inner;
  /** e^{−2πik/N}, k = 0..N/2 (even N only). */
  w;
  work;
  /**
   * Unnormalised rfft of one contiguous real vector x[xo … xo+n) into y[2·yo … 2·(yo+nComplex)),
   * times `scale`. x and y may not overlap.
   */
  forward1(x, xo, y, yo, scale = 1) {
    const n = this.n, work = this.work;
    if (n % 2 === 1) {
      for (let i = 0; i < n; i++) {
        work[2 * i] = x[xo + i];
        work[2 * i + 1] = 0;
      }
      this.inner.transformInPlace(work, 0, false);
      for (let i = 0; i < 2 * this.nComplex; i++) y[2 * yo + i] = scale * work[i];
      return;
    }
    const h = n / 2, w = this.w;
    for (let i = 0; i < n; i++) work[i] = x[xo + i];
    this.inner.transformInPlace(work, 0, false);
    const s = 0.5 * scale;
    const base = 2 * yo;
    for (let k = 0; k <= h; k++) {
      const a = 2 * (k === h ? 0 : k);
      const b = 2 * (k === 0 ? 0 : h - k);
      const zr = work[a], zi = work[a + 1];
      const cr = work[b], ci = -work[b + 1];
      const er = zr + cr, ei = zi + ci;
      const dr = zr - cr, di = zi - ci;
      const wr = w[2 * k], wi = w[2 * k + 1];
      const pr = wr * dr - wi * di, pi = wr * di + wi * dr;
      y[base + 2 * k] = s * (er + pi);
      y[base + 2 * k + 1] = s * (ei - pr);
    }
  }
  /**
   * Unnormalised irfft (Σ_k Y_k e^{+2πik·i/N} over the Hermitian extension) of one contiguous
   * half spectrum y[2·yo … 2·(yo+nComplex)) into x[xo … xo+n), times `scale`.
   */
  inverse1(y, yo, x, xo, scale = 1) {
    const n = this.n, work = this.work;
    const base = 2 * yo;
    if (n % 2 === 1) {
      work[0] = y[base];
      work[1] = 0;
      for (let k = 1; k < this.nComplex; k++) {
        const re = y[base + 2 * k], im = y[base + 2 * k + 1];
        work[2 * k] = re;
        work[2 * k + 1] = im;
        work[2 * (n - k)] = re;
        work[2 * (n - k) + 1] = -im;
      }
      this.inner.transformInPlace(work, 0, true);
      for (let i = 0; i < n; i++) x[xo + i] = scale * work[2 * i];
      return;
    }
    const h = n / 2, w = this.w;
    for (let k = 0; k < h; k++) {
      const yr = y[base + 2 * k], yi = k === 0 ? 0 : y[base + 2 * k + 1];
      const j = h - k;
      const cr = y[base + 2 * j], ci = j === h ? 0 : -y[base + 2 * j + 1];
      const er = yr + cr, ei = yi + ci;
      const dr = yr - cr, di = yi - ci;
      const wr = w[2 * k], wi = -w[2 * k + 1];
      const or = wr * dr - wi * di, oi = wr * di + wi * dr;
      work[2 * k] = 0.5 * (er - oi);
      work[2 * k + 1] = 0.5 * (ei + or);
    }
    this.inner.transformInPlace(work, 0, true);
    const s = 2 * scale;
    for (let i = 0; i < n; i++) x[xo + i] = s * work[i];
  }
  /** Batched, strided rfft: real input (n per problem) → complex output (nComplex per problem). */
  forward(input, output, options = {}) {
    const n = this.n, nc = this.nComplex;
    const batch = options.batch ?? 1;
    checkLength(batch, "batch", 0);
    const scale = normScale2(n, options.norm, false);
    const li = layout2(options.input, n, "input");
    const lo = layout2(options.output, nc, "output");
    checkFits(input.length, n, batch, li, "input", 1);
    checkFits(output.length, nc, batch, lo, "output", 2);
    const xin = li.stride === 1 ? null : new Float64Array(n);
    const yout = lo.stride === 1 ? null : new Float64Array(2 * nc);
    for (let b = 0; b < batch; b++) {
      const ib = li.offset + b * li.dist, ob = lo.offset + b * lo.dist;
      if (xin) for (let e = 0; e < n; e++) xin[e] = input[ib + e * li.stride];
      if (yout) {
        this.forward1(xin ?? input, xin ? 0 : ib, yout, 0, scale);
        for (let e = 0; e < nc; e++) {
          output[2 * (ob + e * lo.stride)] = yout[2 * e];
          output[2 * (ob + e * lo.stride) + 1] = yout[2 * e + 1];
        }
      } else this.forward1(xin ?? input, xin ? 0 : ib, output, ob, scale);
    }
  }
  /** Batched, strided irfft: complex input (nComplex per problem) → real output (n per problem). */
  inverse(input, output, options = {}) {
    const n = this.n, nc = this.nComplex;
    const batch = options.batch ?? 1;
    checkLength(batch, "batch", 0);
    const scale = normScale2(n, options.norm, true);
    const li = layout2(options.input, nc, "input");
    const lo = layout2(options.output, n, "output");
    checkFits(input.length, nc, batch, li, "input", 2);
    checkFits(output.length, n, batch, lo, "output", 1);
    const yin = li.stride === 1 ? null : new Float64Array(2 * nc);
    const xout = lo.stride === 1 ? null : new Float64Array(n);
    for (let b = 0; b < batch; b++) {
      const ib = li.offset + b * li.dist, ob = lo.offset + b * lo.dist;
      if (yin) {
        for (let e = 0; e < nc; e++) {
          yin[2 * e] = input[2 * (ib + e * li.stride)];
          yin[2 * e + 1] = input[2 * (ib + e * li.stride) + 1];
        }
      }
      if (xout) {
        this.inverse1(yin ?? input, yin ? 0 : ib, xout, 0, scale);
        for (let e = 0; e < n; e++) output[ob + e * lo.stride] = xout[e];
      } else this.inverse1(yin ?? input, yin ? 0 : ib, output, ob, scale);
    }
  }
};
function layout2(l, n, name) {
  const offset = l?.offset ?? 0;
  const stride = l?.stride ?? 1;
  const dist = l?.dist ?? n * stride;
  for (const [k, v] of [["offset", offset], ["stride", stride], ["dist", dist]]) {
    if (!Number.isInteger(v) || v < 0) throw new ArgumentError(`${name}.${k}`, v, "a non-negative integer");
  }
  return { offset, stride, dist };
}
var cache2 = /* @__PURE__ */ new Map();
function planCpuRfft(n) {
  checkLength(n);
  let p = cache2.get(n);
  if (!p) {
    p = new CpuRealFft(n);
    cache2.set(n, p);
  }
  return p;
}

// src/backends/cpu/fft-nd.ts
function product2(shape) {
  let p = 1;
  for (const d of shape) p *= d;
  return p;
}
function checkShape(shape, dataLength, perElement, name = "shape") {
  if (!Array.isArray(shape) || shape.length === 0) throw new ArgumentError(name, shape, "a non-empty array of dimensions");
  for (const d of shape) if (!Number.isInteger(d) || d < 0) throw new ArgumentError(name, shape, "non-negative integer dimensions");
  const need = perElement * product2(shape);
  if (dataLength !== need) {
    throw new ArgumentError("x", dataLength, `an array of ${need} numbers for ${perElement === 2 ? "complex" : "real"} shape [${shape.join(", ")}]${perElement === 2 ? " (interleaved re, im)" : ""}`);
  }
  return [...shape];
}
function normalizeAxis(axis, ndim, name = "axis") {
  if (!Number.isInteger(axis) || axis < -ndim || axis >= ndim) throw new ArgumentError(name, axis, `an integer in [${-ndim}, ${ndim - 1}]`);
  return axis < 0 ? axis + ndim : axis;
}
function axisGeometry(shape, axis) {
  return { outer: product2(shape.slice(0, axis)), len: shape[axis], inner: product2(shape.slice(axis + 1)) };
}
function resizeAxis(data, shape, axis, len, perElement) {
  const { outer, len: old, inner } = axisGeometry(shape, axis);
  const newShape = [...shape];
  newShape[axis] = len;
  if (len === old) return { data: Float64Array.from(data), shape: newShape };
  const out2 = new Float64Array(perElement * outer * len * inner);
  const keep = Math.min(len, old) * inner * perElement;
  for (let o = 0; o < outer; o++) {
    out2.set(data.subarray(o * old * inner * perElement, o * old * inner * perElement + keep), o * len * inner * perElement);
  }
  return { data: out2, shape: newShape };
}
function forEachLineBatch(shape, axis, fn) {
  const { outer, len, inner } = axisGeometry(shape, axis);
  if (outer === 0 || inner === 0 || len === 0) return;
  if (inner === 1) fn(0, 1, outer, len);
  else for (let o = 0; o < outer; o++) fn(o * len * inner, inner, inner, 1);
}
function c2cAxis(data, shape, axis, inverse, norm) {
  const plan = planCpuFft(shape[axis]);
  forEachLineBatch(shape, axis, (offset, stride, count, dist) => {
    const l = { offset, stride, dist };
    plan.execute(data, data, { batch: count, inverse, norm, input: l, output: l });
  });
}
function resolveAxes(shape, options, defaultLast) {
  const ndim = shape.length;
  let axes;
  if (options.axes !== void 0) {
    if (!Array.isArray(options.axes) || options.axes.length === 0) throw new ArgumentError("axes", options.axes, "a non-empty array of axis indices");
    axes = options.axes.map((a) => normalizeAxis(a, ndim, "axes"));
  } else if (options.s !== void 0) {
    if (options.s.length > ndim) throw new ArgumentError("s", options.s, `at most ${ndim} lengths for a ${ndim}-D array`);
    axes = options.s.map((_, i) => ndim - options.s.length + i);
  } else axes = shape.map((_, i) => i);
  let s;
  if (options.s !== void 0) {
    if (options.s.length !== axes.length) throw new ArgumentError("s", options.s, `${axes.length} lengths, one per axis in axes`);
    s = options.s.map((v, i) => {
      if (v === -1) return i === axes.length - 1 && defaultLast ? defaultLast(shape[axes[i]]) : shape[axes[i]];
      checkLength(v, "s", 1);
      return v;
    });
  } else {
    s = axes.map((a, i) => i === axes.length - 1 && defaultLast ? defaultLast(shape[a]) : shape[a]);
  }
  for (const v of s) if (!(v >= 1)) throw new ArgumentError("s", s, "transform lengths \u2265 1 (no empty axes)");
  return { s, axes };
}
function toF64(x) {
  return x instanceof Float64Array ? x : Float64Array.from(x);
}
function c2cN(x, shape, options, inverse) {
  let cur = { data: toF64(x), shape: checkShape(shape, x.length, 2) };
  const { s, axes } = resolveAxes(cur.shape, options);
  let copied = false;
  for (let i = axes.length - 1; i >= 0; i--) {
    const a = axes[i];
    if (cur.shape[a] !== s[i] || !copied) {
      cur = resizeAxis(cur.data, cur.shape, a, s[i], 2);
      copied = true;
    }
    c2cAxis(cur.data, cur.shape, a, inverse, options.norm);
  }
  return cur;
}
function fftn(x, shape, options = {}) {
  return c2cN(x, shape, options, false);
}

// src/backends/cpu/r2r-dct.ts
function checkType(type) {
  if (type !== 1 && type !== 2 && type !== 3 && type !== 4) throw new ArgumentError("type", type, "a transform type 1, 2, 3 or 4");
  return type;
}
function overallScale2(norm, denom, inverse) {
  const nm = norm ?? "backward";
  if (nm === "ortho") return 1 / Math.sqrt(denom);
  if (nm === "backward") return inverse ? 1 / denom : 1;
  if (nm === "forward") return inverse ? 1 : 1 / denom;
  throw new ArgumentError("norm", norm, "'backward', 'ortho' or 'forward'");
}
function runR2r(x, shape, axisArg, nArg, spec, norm, orthogonalize, inverse) {
  const sh = shape ? [...shape] : [x.length];
  if (sh.length === 0 || sh.some((d) => !Number.isInteger(d) || d < 0)) throw new ArgumentError("shape", shape, "a non-empty array of non-negative integer dimensions");
  if (product2(sh) !== x.length) throw new ArgumentError("x", x.length, `${product2(sh)} values for shape [${sh.join(", ")}]`);
  const axis = normalizeAxis(axisArg ?? -1, sh.length);
  const old = sh[axis];
  const n = nArg ?? old;
  if (!Number.isInteger(n) || n < spec.minN) throw new ArgumentError("n", n, `an integer \u2265 ${spec.minN} for ${spec.name}`);
  const scale = overallScale2(norm, spec.denom(n), inverse);
  const outShape = [...sh];
  outShape[axis] = n;
  const outer = product2(sh.slice(0, axis)), inner = product2(sh.slice(axis + 1));
  const out2 = new Float64Array(outer * n * inner);
  const kernel = spec.kernel(n);
  const src2 = new Float64Array(n), dst2 = new Float64Array(n);
  const keep = Math.min(n, old);
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      const ib = o * old * inner + i, ob = o * n * inner + i;
      for (let e = 0; e < keep; e++) src2[e] = x[ib + e * inner];
      src2.fill(0, keep);
      if (orthogonalize && spec.pre) spec.pre(src2, n);
      kernel(src2, dst2);
      if (orthogonalize && spec.post) spec.post(dst2, n);
      for (let e = 0; e < n; e++) out2[ob + e * inner] = scale * dst2[e];
    }
  }
  return { data: out2, shape: outShape };
}
function quarterTwiddles(n) {
  const t = new Float64Array(2 * n);
  for (let k = 0; k < n; k++) {
    const [c, s] = unitRoot2(-k, 4 * n);
    t[2 * k] = c;
    t[2 * k + 1] = s;
  }
  return t;
}
var kernelCache = /* @__PURE__ */ new Map();
function cached(key, make) {
  let k = kernelCache.get(key);
  if (!k) {
    k = make();
    kernelCache.set(key, k);
  }
  return k;
}
function dct1Kernel(n) {
  return cached(`dct1/${n}`, () => {
    const m = 2 * (n - 1);
    const plan = planCpuRfft(m);
    const ext = new Float64Array(m);
    const spec = new Float64Array(2 * plan.nComplex);
    return (src2, dst2) => {
      for (let i = 0; i < n; i++) ext[i] = src2[i];
      for (let i = 1; i < n - 1; i++) ext[m - i] = src2[i];
      plan.forward1(ext, 0, spec, 0);
      for (let k = 0; k < n; k++) dst2[k] = spec[2 * k];
    };
  });
}
function dct2Kernel(n) {
  return cached(`dct2/${n}`, () => {
    const plan = planCpuRfft(n);
    const tw = quarterTwiddles(n);
    const v = new Float64Array(n);
    const z = new Float64Array(2 * plan.nComplex);
    return (src2, dst2) => {
      for (let k = 0; 2 * k < n; k++) v[k] = src2[2 * k];
      for (let k = 0; 2 * k + 1 < n; k++) v[n - 1 - k] = src2[2 * k + 1];
      plan.forward1(v, 0, z, 0);
      const nc = plan.nComplex;
      for (let k = 0; k < n; k++) {
        const zr = k < nc ? z[2 * k] : z[2 * (n - k)];
        const zi = k < nc ? z[2 * k + 1] : -z[2 * (n - k) + 1];
        dst2[k] = 2 * (tw[2 * k] * zr - tw[2 * k + 1] * zi);
      }
    };
  });
}
function dct3Kernel(n) {
  return cached(`dct3/${n}`, () => {
    const plan = planCpuRfft(n);
    const tw = quarterTwiddles(n);
    const nc = plan.nComplex;
    const z = new Float64Array(2 * nc);
    const v = new Float64Array(n);
    return (src2, dst2) => {
      for (let k = 0; k < nc; k++) {
        const a = src2[k], b = k === 0 ? 0 : src2[n - k];
        const c = tw[2 * k], s = -tw[2 * k + 1];
        z[2 * k] = c * a + s * b;
        z[2 * k + 1] = s * a - c * b;
      }
      plan.inverse1(z, 0, v, 0);
      for (let k = 0; 2 * k < n; k++) dst2[2 * k] = v[k];
      for (let k = 0; 2 * k + 1 < n; k++) dst2[2 * k + 1] = v[n - 1 - k];
    };
  });
}
function dct4Kernel(n) {
  return cached(`dct4/${n}`, () => {
    if (n % 2 === 0) {
      const h = n / 2;
      const plan2 = planCpuFft(h);
      const pre2 = new Float64Array(2 * h), post2 = new Float64Array(2 * h);
      for (let p = 0; p < h; p++) {
        const [c, s] = unitRoot2(-p, 2 * n);
        pre2[2 * p] = c;
        pre2[2 * p + 1] = s;
        const [c2, s2] = unitRoot2(-(4 * p + 1), 8 * n);
        post2[2 * p] = c2;
        post2[2 * p + 1] = s2;
      }
      const w2 = new Float64Array(2 * h);
      return (src2, dst2) => {
        for (let p = 0; p < h; p++) {
          const a = src2[2 * p], b = src2[n - 1 - 2 * p];
          const c = pre2[2 * p], s = pre2[2 * p + 1];
          w2[2 * p] = a * c - b * s;
          w2[2 * p + 1] = a * s + b * c;
        }
        plan2.transformInPlace(w2, 0, false);
        for (let q = 0; q < h; q++) {
          const c = post2[2 * q], s = post2[2 * q + 1];
          const tr = w2[2 * q] * c - w2[2 * q + 1] * s;
          const ti = w2[2 * q] * s + w2[2 * q + 1] * c;
          dst2[2 * q] = 2 * tr;
          dst2[n - 1 - 2 * q] = -2 * ti;
        }
      };
    }
    const plan = planCpuFft(2 * n);
    const pre = new Float64Array(2 * n), post = new Float64Array(2 * n);
    for (let k = 0; k < n; k++) {
      const [c, s] = unitRoot2(-k, 4 * n);
      pre[2 * k] = c;
      pre[2 * k + 1] = s;
      const [c2, s2] = unitRoot2(-(2 * k + 1), 8 * n);
      post[2 * k] = c2;
      post[2 * k + 1] = s2;
    }
    const w = new Float64Array(4 * n);
    return (src2, dst2) => {
      w.fill(0);
      for (let i = 0; i < n; i++) {
        w[2 * i] = src2[i] * pre[2 * i];
        w[2 * i + 1] = src2[i] * pre[2 * i + 1];
      }
      plan.transformInPlace(w, 0, false);
      for (let k = 0; k < n; k++) dst2[k] = 2 * (w[2 * k] * post[2 * k] - w[2 * k + 1] * post[2 * k + 1]);
    };
  });
}
var SQ22 = Math.SQRT2;
function dctSpec(type) {
  switch (type) {
    case 1:
      return {
        name: "DCT type 1",
        minN: 2,
        denom: (n) => 2 * (n - 1),
        kernel: dct1Kernel,
        pre: (b, n) => {
          b[0] *= SQ22;
          b[n - 1] *= SQ22;
        },
        post: (b, n) => {
          b[0] /= SQ22;
          b[n - 1] /= SQ22;
        }
      };
    case 2:
      return { name: "DCT type 2", minN: 1, denom: (n) => 2 * n, kernel: dct2Kernel, post: (b) => {
        b[0] /= SQ22;
      } };
    case 3:
      return { name: "DCT type 3", minN: 1, denom: (n) => 2 * n, kernel: dct3Kernel, pre: (b) => {
        b[0] *= SQ22;
      } };
    case 4:
      return { name: "DCT type 4", minN: 1, denom: (n) => 2 * n, kernel: dct4Kernel };
  }
}
function orth(o) {
  return o.orthogonalize ?? o.norm === "ortho";
}
function dct(x, options = {}, shape) {
  const t = checkType(options.type ?? 2);
  return runR2r(x, shape, options.axis, options.n, dctSpec(t), options.norm, orth(options), false);
}

// src/backends/cpu/r2r-dht.ts
var cache3 = /* @__PURE__ */ new Map();
function dhtKernel(n) {
  let k = cache3.get(n);
  if (!k) {
    const plan = planCpuRfft(n);
    const nc = plan.nComplex;
    const y = new Float64Array(2 * nc);
    k = (src2, dst2) => {
      plan.forward1(src2, 0, y, 0);
      for (let j = 0; j < nc; j++) dst2[j] = y[2 * j] - y[2 * j + 1];
      for (let j = nc; j < n; j++) dst2[j] = y[2 * (n - j)] + y[2 * (n - j) + 1];
    };
    cache3.set(n, k);
  }
  return k;
}
var DHT_SPEC = { name: "DHT", minN: 1, denom: (n) => n, kernel: dhtKernel };
function dht(x, options = {}, shape) {
  return runR2r(x, shape, options.axis, options.n, DHT_SPEC, options.norm, false, false);
}

// src/util/random.ts
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = a + 1831565813 >>> 0;
    let t = a;
    t = Math.imul(t ^ t >>> 15, t | 1);
    t ^= t + Math.imul(t ^ t >>> 7, t | 61);
    return ((t ^ t >>> 14) >>> 0) / 4294967296;
  };
}
function randomFloat64(length, seed) {
  const r = rng(seed);
  const out2 = new Float64Array(length);
  for (let i = 0; i < length; i++) out2[i] = 2 * r() - 1;
  return out2;
}
function randomFloat32(length, seed) {
  return Float32Array.from(randomFloat64(length, seed));
}

// src/util/metrics.ts
function relativeL2(a, ref) {
  if (a.length !== ref.length) throw new Error(`relativeL2: lengths differ (${a.length} vs ${ref.length})`);
  let num = 0;
  let den = 0;
  for (let i = 0; i < a.length; i++) {
    const d = a[i] - ref[i];
    if (!Number.isFinite(a[i])) return Infinity;
    num += d * d;
    den += ref[i] * ref[i];
  }
  if (den === 0) return num === 0 ? 0 : Infinity;
  return Math.sqrt(num / den);
}

// bench/common.ts
import { writeFileSync, appendFileSync } from "node:fs";

// src/util/gpu-timing.ts
function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
async function timeSubmission(ctx2, encode, k) {
  const d = ctx2.device;
  const enc = d.createCommandEncoder();
  for (let i = 0; i < k; i++) encode(enc);
  const t0 = performance.now();
  d.queue.submit([enc.finish()]);
  await d.queue.onSubmittedWorkDone();
  return performance.now() - t0;
}

// bench/common.ts
function parseArgs(argv) {
  const out2 = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith("--")) continue;
    const eq = a.indexOf("=");
    if (eq > 0) out2[a.slice(2, eq)] = a.slice(eq + 1);
    else if (i + 1 < argv.length && !argv[i + 1].startsWith("--")) out2[a.slice(2)] = argv[++i];
    else out2[a.slice(2)] = "true";
  }
  return out2;
}
function parseRange(spec) {
  const out2 = [];
  for (const part of spec.split(",")) {
    const [a, b] = part.split("-").map(Number);
    if (b === void 0) out2.push(a);
    else for (let i = a; i <= b; i++) out2.push(i);
  }
  return out2;
}
async function timeGpu(ctx2, encode, reps2, rounds = 5) {
  const run = (k) => timeSubmission(ctx2, encode, k);
  await run(1);
  const times = [];
  for (let r = 0; r < rounds; r++) times.push(await run(reps2) / reps2);
  return median(times);
}
async function copyBandwidth(ctx2, src2, dst2, bytes2, reps2) {
  const wgsl = `@group(0) @binding(0) var<storage, read> a: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> b: array<vec4<f32>>;
@group(0) @binding(2) var<uniform> n: vec4<u32>;
@compute @workgroup_size(256) fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let i = g.x + g.y * nw.x * 256u;
  if (i < n.x) { b[i] = a[i]; }
}`;
  const pipe = await getPipeline(ctx2, { name: "copy", key: "bench-copy", wgsl, entryPoint: "main" });
  const maxBinding = Math.floor(ctx2.limits.maxStorageBufferBindingSize / 256) * 256;
  const groups = [];
  for (let off = 0; off < bytes2; off += maxBinding) {
    const size = Math.min(maxBinding, bytes2 - off);
    const vec4s = size / 16;
    const u = ctx2.device.createBuffer({ size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    ctx2.device.queue.writeBuffer(u, 0, new Uint32Array([vec4s, 0, 0, 0]));
    const wgs = Math.ceil(vec4s / 256);
    const maxDim = ctx2.limits.maxComputeWorkgroupsPerDimension;
    const grid = wgs <= maxDim ? [wgs, 1] : [maxDim, Math.ceil(wgs / maxDim)];
    const bg = ctx2.device.createBindGroup({
      layout: pipe.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: src2, offset: off, size } },
        { binding: 1, resource: { buffer: dst2, offset: off, size } },
        { binding: 2, resource: { buffer: u } }
      ]
    });
    groups.push({ bg, grid });
  }
  const ms = await timeGpu(ctx2, (enc) => {
    const pass = enc.beginComputePass();
    pass.setPipeline(pipe);
    for (const g of groups) {
      pass.setBindGroup(0, g.bg);
      pass.dispatchWorkgroups(g.grid[0], g.grid[1]);
    }
    pass.end();
  }, reps2);
  return { ms, GBps: 2 * bytes2 / ms / 1e6 };
}
var Output = class {
  constructor(jsonPath) {
    this.jsonPath = jsonPath;
    if (jsonPath) writeFileSync(jsonPath, "");
  }
  jsonPath;
  record(obj) {
    if (this.jsonPath) appendFileSync(this.jsonPath, JSON.stringify(obj) + "\n");
  }
};
function table(headers, rows2) {
  const cells = rows2.map((r) => r.map((c) => typeof c === "number" ? fmt(c) : c));
  const w = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i].length)));
  const line = (r) => r.map((c, i) => c.padStart(w[i])).join("  ");
  return [line(headers), line(w.map((x) => "-".repeat(x))), ...cells.map(line)].join("\n");
}
function fmt(x) {
  if (!Number.isFinite(x)) return String(x);
  if (Number.isInteger(x)) return String(x);
  if (Math.abs(x) >= 100) return x.toFixed(0);
  if (Math.abs(x) >= 1) return x.toFixed(2);
  return x.toPrecision(3);
}
function progress(done, total2, label) {
  if (!process.stderr.isTTY) return;
  const w = 30;
  const f = Math.round(done / total2 * w);
  process.stderr.write(`\r[${"#".repeat(f)}${".".repeat(w - f)}] ${done}/${total2} ${label}`.padEnd(70));
  if (done === total2) process.stderr.write("\n");
}

// bench/fft.ts
var args = parseArgs(process.argv.slice(2));
var ctx = await defaultGpuContext();
var software = ctx.adapter.software;
var totalLog2 = Number(args.total ?? (software ? 20 : 27));
var total = 2 ** totalLog2;
var maxN = largestWorkgroupFft(ctx.limits, args.exchange ? { exchange: args.exchange } : {});
var sizes = parseRange(args.sizes ?? `1-${Math.log2(maxN)}`).filter((l) => l <= totalLog2);
var reps = Number(args.reps ?? (software ? 2 : 20));
var direction = args.inverse ? "inverse" : "forward";
var out = new Output(args.json);
var planOptions = {
  ...args.maxSingle ? { maxSingleInvocation: Number(args.maxSingle) } : {},
  ...args.wg ? { targetWorkgroupSize: Number(args.wg) } : {},
  ...args.maxRadix ? { maxRadix: Number(args.maxRadix) } : {},
  ...args.minCols ? { minColumns: Number(args.minCols) } : {},
  ...args.maxPass ? { maxPassLength: Number(args.maxPass) } : {},
  ...args.passLoads ? { passLoads: args.passLoads } : {},
  ...args.staging ? { staging: args.staging === "true" } : {},
  ...args.twiddles ? { twiddles: args.twiddles } : {},
  ...args.exchange ? { exchange: args.exchange } : {},
  ...args.r2cPostKernel ? { r2cPostKernel: true } : {},
  ...args.r2cFused ? { r2cFused: true } : {},
  ...args.r2cUnpaired ? { r2cPaired: false } : {},
  ...args.stageOut ? { r2cStagedOut: args.stageOut !== "false" } : {},
  ...args.r2cPairAll ? { r2cPairAll: args.r2cPairAll !== "false" } : {},
  ...args.lastCols ? { lastPassColumns: Number(args.lastCols) } : {},
  ...args.firstCols ? { firstPassColumns: Number(args.firstCols) } : {},
  ...args.passStore ? { passStore: args.passStore } : {}
};
var variant = args.label ?? "default";
var device = `${ctx.adapter.vendor} ${ctx.adapter.architecture} ${ctx.adapter.device} ${ctx.adapter.description}`.trim();
var kind = args.kind ?? "c2c";
console.log(`# butterfly ${kind.toUpperCase()} FFT benchmark \u2014 ${device} (${ctx.adapter.backend}) \u2014 ${(/* @__PURE__ */ new Date()).toISOString()}`);
console.log(`# total 2^${totalLog2} elements, out of place, ${direction}, median of 5 rounds \xD7 ${reps} reps`);
var bytes = total * 8;
var usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
var src = ctx.device.createBuffer({ size: bytes, usage });
var dst = ctx.device.createBuffer({ size: bytes, usage });
var piece = randomFloat32(Math.min(2 * total, 1 << 22), 12345);
for (let off = 0; off < bytes; off += piece.byteLength) {
  ctx.device.queue.writeBuffer(src, off, piece, 0, Math.min(piece.length, (bytes - off) / 4));
}
var copy = await copyBandwidth(ctx, src, dst, bytes, reps);
console.log(`# device copy: ${copy.GBps.toFixed(1)} GB/s (${copy.ms.toFixed(3)} ms for 2 \xD7 ${bytes} bytes)`);
out.record({ lib: "device-copy", device, bytes: 2 * bytes, ms: copy.ms, GBps: copy.GBps });
var cases = [];
var log2 = Math.log2;
var explicit = args.n ? args.n.split(",").map(Number) : null;
var lengths = explicit ?? sizes.map((l) => 2 ** l);
if (args.shape2d) {
  for (const spec of args.shape2d.split(",")) {
    const [a, b] = spec.split("x").map(Number);
    const batch = Math.max(1, Math.floor(total / (a * b)));
    cases.push({
      label: `${a}x${b}`,
      n: a * b,
      batch,
      flops: 5 * a * b * log2(a * b) * batch,
      bytes: 16 * a * b * batch,
      inFloats: 2 * a * b,
      outFloats: 2 * a * b,
      make: () => WebGpuFftNd.create(ctx, { shape: [batch, a, b], axes: [1, 2], kind: "c2c", direction, planner: planOptions }),
      check: (inp) => fftn(inp, [a, b]).data
    });
  }
} else {
  for (const n of lengths) {
    if (kind === "c2c") {
      const batch = Math.max(1, Math.floor(total / n));
      cases.push({
        label: String(n),
        n,
        batch,
        flops: 5 * n * log2(n) * batch,
        bytes: 16 * n * batch,
        inFloats: 2 * n,
        outFloats: 2 * n,
        make: () => WebGpuFft.create(ctx, fftProblem({ n, batch, direction }), planOptions),
        check: (inp) => {
          const ref = new Float64Array(2 * n);
          planCpuFft(n).execute(Float64Array.from(inp), ref, { inverse: direction === "inverse" });
          return ref;
        }
      });
    } else if (kind === "r2c" || kind === "c2r") {
      const h = Math.floor(n / 2) + 1;
      const batch = Math.max(1, Math.floor(total / n));
      const r2c = kind === "r2c";
      cases.push({
        label: String(n),
        n,
        batch,
        flops: 2.5 * n * log2(n) * batch,
        bytes: (4 * n + 8 * h) * batch,
        inFloats: r2c ? n : 2 * h,
        outFloats: r2c ? 2 * h : n,
        make: () => WebGpuFft.create(ctx, fftProblem({ n, batch, direction: r2c ? "forward" : "inverse", input: { dist: r2c ? n : h }, output: { dist: r2c ? h : n } }), { ...planOptions, real: kind }),
        check: (inp) => {
          const plan = planCpuRfft(n);
          if (r2c) {
            const y = new Float64Array(2 * h);
            plan.forward1(Float64Array.from(inp), 0, y, 0);
            return y;
          }
          const x = new Float64Array(n);
          plan.inverse1(Float64Array.from(inp), 0, x, 0, 1 / n);
          return x;
        }
      });
    } else {
      const batch = Math.max(1, Math.floor(total / n));
      cases.push({
        label: String(n),
        n,
        batch,
        flops: 2.5 * n * log2(n) * batch,
        bytes: 8 * n * batch,
        inFloats: n,
        outFloats: n,
        make: () => WebGpuR2r.create(ctx, { family: kind === "dct2" ? "dct" : "dht", type: 2, shape: [batch, n], axes: [-1], planner: planOptions }),
        check: (inp) => (kind === "dct2" ? dct(Float64Array.from(inp), { type: 2 }) : dht(Float64Array.from(inp))).data
      });
    }
  }
}
var rows = [];
for (const [i, c] of cases.entries()) {
  progress(i, cases.length, `N = ${c.label}`);
  let plan;
  try {
    plan = await c.make();
  } catch (e) {
    rows.push([c.label, c.batch, "error", String(e.message).slice(0, 60), "", "", "", "", "", "", ""]);
    out.record({ lib: "butterfly", kind, N: c.n, label: c.label, error: String(e) });
    continue;
  }
  const ms = await timeGpu(ctx, (enc) => plan.encode(enc, src, dst), reps);
  const fftPlan = plan instanceof WebGpuFft ? plan : plan instanceof WebGpuR2r && plan.axisPlans.length === 1 ? plan.axisPlans[0] : null;
  const msPerKernel = [];
  if (args.breakdown && fftPlan && fftPlan.kernelNames.length > 1) {
    for (let k = 0; k < fftPlan.kernelNames.length; k++) msPerKernel.push(await timeGpu(ctx, (enc) => fftPlan.encode(enc, src, dst, void 0, k), reps));
    console.log(`  ${c.label}: ${fftPlan.kernelNames.map((name, k) => `${name} ${msPerKernel[k].toFixed(3)} ms`).join(", ")}`);
  }
  let err = null;
  if (c.n <= 1 << 22) {
    const got = new Float32Array(await readBuffer(ctx, dst, 0, c.outFloats * 4));
    const inp = new Float32Array(await readBuffer(ctx, src, 0, c.inFloats * 4));
    err = relativeL2(got, c.check(inp));
  }
  const gflops = c.flops / ms / 1e6;
  const gbps = c.bytes / ms / 1e6;
  const r = plan.recipe ? describeRecipe(plan.recipe) : { passes: "", radices: "", mapping: "", exchange: "" };
  rows.push([c.label, c.batch, r.passes, r.radices, r.mapping, r.exchange, ms, gflops, gbps, gbps / copy.GBps, err ?? "n/a"]);
  out.record({ lib: "butterfly", variant, planOptions, device, kind: args.shape2d ? "c2c-2d" : kind, direction, log2N: log2(c.n), N: c.n, shape: c.label, batch: c.batch, ms, GFLOPS: gflops, GBps: gbps, fracCopy: gbps / copy.GBps, relErr: err, recipe: r, ...msPerKernel.length ? { msPerKernel, kernels: fftPlan.kernelNames } : {} });
  plan.destroy();
}
progress(cases.length, cases.length, "done");
console.log(table(["N", "batch", "passes", "radices", "l\xD7b", "exchange", "ms", "GFLOPS", "GB/s", "of copy", "rel err"], rows));
src.destroy();
dst.destroy();
process.exit(0);
