/**
 * The seven EDM problem cases of seed 001 (Table 4.2): ±h harmonics in x and y give M = 2h + 1 Fourier
 * modes per axis; each of the 3·(layers + 1) slices (3 field components × (layers + 1) sample points in
 * z) is an M×M block, zero-padded into an mfft×mfft grid. There are layers + 1 shape functions (one per
 * sample point), shared by the 3 components and by all angles of incidence.
 */
export interface EdmCase {
  id: number;
  harmonics: number;
  /** Modes per axis, 2·harmonics + 1. */
  M: number;
  mfft: number;
  layers: number;
  /** 3·(layers + 1). */
  slices: number;
  /** The thesis' best GPU time (Tesla C1060, one angle), ms. */
  thesisGpuMs: number;
}

const TABLE: [number, number, number, number, number][] = [
  // id, harmonics, mfft, layers, thesis GPU ms
  [1, 3, 16, 16, 0.133],
  [2, 3, 16, 24, 0.162],
  [3, 3, 16, 32, 0.203],
  [4, 7, 32, 32, 0.537],
  [5, 7, 32, 64, 0.98],
  [6, 15, 64, 64, 5.118],
  [7, 31, 128, 128, 18.6],
];

export const EDM_CASES: readonly EdmCase[] = TABLE.map(([id, harmonics, mfft, layers, thesisGpuMs]) => ({
  id,
  harmonics,
  M: 2 * harmonics + 1,
  mfft,
  layers,
  slices: 3 * (layers + 1),
  thesisGpuMs,
}));

export function edmCase(id: number): EdmCase {
  const c = EDM_CASES.find((x) => x.id === id);
  if (!c) throw new RangeError(`EDM case ${id}: cases are 1..7`);
  return c;
}
