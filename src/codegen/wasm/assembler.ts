/**
 * A small WebAssembly binary writer: enough of the format (types, one imported memory, functions,
 * exports, i32 control flow and 128-bit SIMD) to emit the CPU engine's kernels from TypeScript at plan
 * time, so no toolchain is needed at build or install time.
 *
 * Function bodies are written with a `Body` builder whose methods append opcodes; locals are declared
 * as they are needed (`local('v128')`), which keeps code generators SSA-like and lets V8's optimising
 * compiler do register allocation.
 */

export type ValType = 'i32' | 'f32' | 'f64' | 'v128';
const VAL: Record<ValType, number> = { i32: 0x7f, f32: 0x7d, f64: 0x7c, v128: 0x7b };

function uleb(out: number[], v: number): void {
  do {
    let b = v & 0x7f;
    v = Math.floor(v / 128);
    if (v !== 0) b |= 0x80;
    out.push(b);
  } while (v !== 0);
}

function sleb(out: number[], v: number): void {
  for (;;) {
    const b = v & 0x7f;
    v >>= 7;
    const done = (v === 0 && (b & 0x40) === 0) || (v === -1 && (b & 0x40) !== 0);
    out.push(done ? b : b | 0x80);
    if (done) return;
  }
}

/** push(...big) overflows the argument limit for large function bodies. */
function append(out: number[], more: readonly number[]): void {
  for (let i = 0; i < more.length; i++) out.push(more[i]!);
}

function str(out: number[], s: string): void {
  const bytes = new TextEncoder().encode(s);
  uleb(out, bytes.length);
  out.push(...bytes);
}

/** SIMD opcodes (after the 0xfd prefix) used by the generators. */
const SIMD = {
  load: 0x00,
  load32_splat: 0x09,
  load64_splat: 0x0a,
  store: 0x0b,
  const: 0x0c,
  shuffle: 0x0d,
  f32x4_splat: 0x13,
  f64x2_splat: 0x14,
  load64_lane: 0x57,
  store64_lane: 0x5b,
  store32_lane: 0x5a,
  load64_zero: 0x5d,
  f32x4_abs: 0xe0,
  f32x4_neg: 0xe1,
  f32x4_add: 0xe4,
  f32x4_sub: 0xe5,
  f32x4_mul: 0xe6,
  f32x4_max: 0xe9,
  f32x4_pmax: 0xeb,
  f32x4_le: 0x45,
  f64x2_pmax: 0xf7,
  f64x2_le: 0x4b,
  v128_not: 0x4d,
  f64x2_neg: 0xed,
  f64x2_add: 0xf0,
  f64x2_sub: 0xf1,
  f64x2_mul: 0xf2,
  f64x2_div: 0xf3,
  f64x2_abs: 0xec,
  f64x2_max: 0xf5,
  f64x2_eq: 0x47,
  f64x2_lt: 0x49,
  f64x2_ge: 0x4c,
  f32x4_madd: 0x105,
  f32x4_nmadd: 0x106,
  f64x2_madd: 0x107,
  f64x2_nmadd: 0x108,
  v128_and: 0x4e,
  v128_or: 0x50,
  v128_andnot: 0x4f,
  v128_bitselect: 0x52,
  i64x2_gt_s: 0xd9,
  f32x4_demote_f64x2_zero: 0x5e,
  f64x2_promote_low_f32x4: 0x5f,
} as const;

export class Body {
  code: number[] = [];
  /** Code run once at entry (hoisted constants), emitted before `code`. */
  readonly prologue: number[] = [];
  private readonly extra: ValType[] = [];
  constructor(readonly params: readonly ValType[]) {}

  /** Runs `fn` with its emitted code going to the prologue instead of the body. */
  inPrologue(fn: () => void): void {
    const saved = this.code;
    this.code = this.prologue;
    try {
      fn();
    } finally {
      this.code = saved;
    }
  }
  /** Declares a new local and returns its index. */
  local(t: ValType): number {
    this.extra.push(t);
    return this.params.length + this.extra.length - 1;
  }
  get(i: number): this {
    this.code.push(0x20);
    uleb(this.code, i);
    return this;
  }
  set(i: number): this {
    this.code.push(0x21);
    uleb(this.code, i);
    return this;
  }
  tee(i: number): this {
    this.code.push(0x22);
    uleb(this.code, i);
    return this;
  }
  i32(v: number): this {
    this.code.push(0x41);
    sleb(this.code, v | 0);
    return this;
  }
  op(...bytes: number[]): this {
    this.code.push(...bytes);
    return this;
  }
  add(): this {
    return this.op(0x6a);
  }
  sub(): this {
    return this.op(0x6b);
  }
  mul(): this {
    return this.op(0x6c);
  }
  /** i32.ne */
  ne(): this {
    return this.op(0x47);
  }
  /** Starts `loop` (void); br 0 inside jumps back to its start. */
  loop(): this {
    return this.op(0x03, 0x40);
  }
  block(): this {
    return this.op(0x02, 0x40);
  }
  end(): this {
    return this.op(0x0b);
  }
  brIf(depth: number): this {
    this.code.push(0x0d);
    uleb(this.code, depth);
    return this;
  }
  br(depth: number): this {
    this.code.push(0x0c);
    uleb(this.code, depth);
    return this;
  }
  call(f: number): this {
    this.code.push(0x10);
    uleb(this.code, f);
    return this;
  }
  private simd(op: number): this {
    this.code.push(0xfd);
    uleb(this.code, op);
    return this;
  }
  private memarg(align: number, offset: number): void {
    uleb(this.code, align);
    uleb(this.code, offset);
  }
  v128Load(offset: number): this {
    this.simd(SIMD.load).memarg(4, offset);
    return this;
  }
  v128Store(offset: number): this {
    this.simd(SIMD.store).memarg(4, offset);
    return this;
  }
  loadSplat(bytes: 4 | 8, offset: number): this {
    this.simd(bytes === 4 ? SIMD.load32_splat : SIMD.load64_splat).memarg(bytes === 4 ? 2 : 3, offset);
    return this;
  }
  load64Zero(offset: number): this {
    this.simd(SIMD.load64_zero).memarg(3, offset);
    return this;
  }
  /** Stack: addr, vector → vector with 64-bit lane `lane` loaded from addr+offset. */
  load64Lane(offset: number, lane: number): this {
    this.simd(SIMD.load64_lane).memarg(3, offset);
    this.code.push(lane);
    return this;
  }
  /** Stack: addr, vector → stores its 64-bit lane `lane` at addr+offset. */
  store64Lane(offset: number, lane: number): this {
    this.simd(SIMD.store64_lane).memarg(3, offset);
    this.code.push(lane);
    return this;
  }
  /** Stack: addr, vector → stores its 32-bit lane `lane` at addr+offset. */
  store32Lane(offset: number, lane: number): this {
    this.simd(SIMD.store32_lane).memarg(2, offset);
    this.code.push(lane);
    return this;
  }
  /** A v128 constant of lanes of the given float width. */
  vconst(bytes: 4 | 8, lanes: readonly number[]): this {
    this.simd(SIMD.const);
    const buf = new ArrayBuffer(16);
    if (bytes === 4) new Float32Array(buf).set(lanes);
    else new Float64Array(buf).set(lanes);
    this.code.push(...new Uint8Array(buf));
    return this;
  }
  /** i8x16.shuffle with 16 byte indices (0–15 from the first operand, 16–31 from the second). */
  shuffle(bytes: readonly number[]): this {
    this.simd(SIMD.shuffle);
    this.code.push(...bytes);
    return this;
  }
  splat(bytes: 4 | 8): this {
    return this.simd(bytes === 4 ? SIMD.f32x4_splat : SIMD.f64x2_splat);
  }
  fadd(bytes: 4 | 8): this {
    return this.simd(bytes === 4 ? SIMD.f32x4_add : SIMD.f64x2_add);
  }
  fsub(bytes: 4 | 8): this {
    return this.simd(bytes === 4 ? SIMD.f32x4_sub : SIMD.f64x2_sub);
  }
  fmul(bytes: 4 | 8): this {
    return this.simd(bytes === 4 ? SIMD.f32x4_mul : SIMD.f64x2_mul);
  }
  /** Relaxed SIMD: stack a, b, c → a·b + c (fused where the machine has FMA). */
  fmadd(bytes: 4 | 8): this {
    return this.simd(bytes === 4 ? SIMD.f32x4_madd : SIMD.f64x2_madd);
  }
  /** Relaxed SIMD: stack a, b, c → −(a·b) + c. */
  fnmadd(bytes: 4 | 8): this {
    return this.simd(bytes === 4 ? SIMD.f32x4_nmadd : SIMD.f64x2_nmadd);
  }
  fneg(bytes: 4 | 8): this {
    return this.simd(bytes === 4 ? SIMD.f32x4_neg : SIMD.f64x2_neg);
  }
  /** |x| in each lane of the given float width. */
  fabs(bytes: 4 | 8): this {
    return bytes === 4 ? this.simd(SIMD.f32x4_abs) : this.f64x2Abs();
  }
  /** Lane-wise maximum, NaN where either lane is NaN. */
  fmax(bytes: 4 | 8): this {
    return bytes === 4 ? this.simd(SIMD.f32x4_max) : this.f64x2Max();
  }
  /** Lane-wise b < a ? a : b for a, b on the stack (one instruction; a NaN in b is not carried). */
  fpmax(bytes: 4 | 8): this {
    return this.simd(bytes === 4 ? SIMD.f32x4_pmax : SIMD.f64x2_pmax);
  }
  /** Lane masks of a ≤ b (false where either is NaN). */
  fle(bytes: 4 | 8): this {
    return this.simd(bytes === 4 ? SIMD.f32x4_le : SIMD.f64x2_le);
  }
  v128Not(): this {
    return this.simd(SIMD.v128_not);
  }
  /** f64x2.div, abs, max (NaN-propagating), lt and ge (lane masks). */
  f64x2Div(): this {
    return this.simd(SIMD.f64x2_div);
  }
  f64x2Abs(): this {
    return this.simd(SIMD.f64x2_abs);
  }
  f64x2Max(): this {
    return this.simd(SIMD.f64x2_max);
  }
  f64x2Lt(): this {
    return this.simd(SIMD.f64x2_lt);
  }
  f64x2Ge(): this {
    return this.simd(SIMD.f64x2_ge);
  }
  v128And(): this {
    return this.simd(SIMD.v128_and);
  }
  v128Or(): this {
    return this.simd(SIMD.v128_or);
  }
  /** Stack: a, b → a & ~b. */
  v128AndNot(): this {
    return this.simd(SIMD.v128_andnot);
  }
  f64x2Eq(): this {
    return this.simd(SIMD.f64x2_eq);
  }
  /** Stack: a, b, mask → (a & mask) | (b & ~mask). */
  v128Bitselect(): this {
    return this.simd(SIMD.v128_bitselect);
  }
  i64x2GtS(): this {
    return this.simd(SIMD.i64x2_gt_s);
  }
  /** Rounds both f64x2 lanes to the nearest float32 (demote, then promote back). */
  f64x2RoundToF32(): this {
    return this.simd(SIMD.f32x4_demote_f64x2_zero).simd(SIMD.f64x2_promote_low_f32x4);
  }

  /** The encoded function body (locals declaration + code + end). */
  encode(): number[] {
    const out: number[] = [];
    const groups: [number, ValType][] = [];
    for (const t of this.extra) {
      const last = groups.at(-1);
      if (last && last[1] === t) last[0]++;
      else groups.push([1, t]);
    }
    uleb(out, groups.length);
    for (const [count, t] of groups) {
      uleb(out, count);
      out.push(VAL[t]);
    }
    append(out, this.prologue);
    append(out, this.code);
    out.push(0x0b);
    const sized: number[] = [];
    uleb(sized, out.length);
    return sized.concat(out);
  }
}

export interface WasmFunction {
  params: ValType[];
  body: Body;
  /** Export name, if exported. */
  export?: string;
}

/**
 * Assembles a module importing one memory as env.memory (shared when `shared`), with the given
 * functions in order (function index = position).
 */
export function assembleModule(
  funcs: readonly WasmFunction[],
  memory: { initialPages: number; maxPages: number; shared: boolean },
): Uint8Array {
  const out: number[] = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  const section = (id: number, content: number[]): void => {
    out.push(id);
    uleb(out, content.length);
    append(out, content);
  };
  // Types: one per distinct parameter list; no results.
  const typeKeys: string[] = [];
  const typeOf = funcs.map((f) => {
    const k = f.params.join(',');
    let i = typeKeys.indexOf(k);
    if (i < 0) i = typeKeys.push(k) - 1;
    return i;
  });
  const types: number[] = [];
  uleb(types, typeKeys.length);
  for (const k of typeKeys) {
    const ps = k === '' ? [] : (k.split(',') as ValType[]);
    types.push(0x60);
    uleb(types, ps.length);
    for (const p of ps) types.push(VAL[p]);
    types.push(0x00);
  }
  section(1, types);
  const imports: number[] = [];
  uleb(imports, 1);
  str(imports, 'env');
  str(imports, 'memory');
  // Unshared memories declare no maximum, so any Memory the caller grows can be imported.
  imports.push(0x02, memory.shared ? 0x03 : 0x00);
  uleb(imports, memory.initialPages);
  if (memory.shared) uleb(imports, memory.maxPages);
  section(2, imports);
  const fsec: number[] = [];
  uleb(fsec, funcs.length);
  for (const t of typeOf) uleb(fsec, t);
  section(3, fsec);
  const exps = funcs
    .map((f, i) => [f.export, i] as const)
    .filter((e): e is readonly [string, number] => e[0] !== undefined);
  const esec: number[] = [];
  uleb(esec, exps.length);
  for (const [name, i] of exps) {
    str(esec, name);
    esec.push(0x00);
    uleb(esec, i);
  }
  section(7, esec);
  const csec: number[] = [];
  uleb(csec, funcs.length);
  for (const f of funcs) append(csec, f.body.encode());
  section(10, csec);
  return new Uint8Array(out);
}
