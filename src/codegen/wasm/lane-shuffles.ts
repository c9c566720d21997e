/**
 * i8x16.shuffle byte masks shared by the CPU engine's generators (operands a, b; bytes 16–31 are b's).
 * F32 masks move 4-byte lanes, 64 masks 8-byte lanes.
 */
/** Even / odd f32 lanes of a‖b: the real and imaginary parts of 4 interleaved complex values. */
export const EVEN_F32 = [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27];
export const ODD_F32 = [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31];
/** Interleave the low / high halves of a (real lanes) and b (imaginary lanes) back into complex pairs. */
export const LO_F32 = [0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23];
export const HI_F32 = [8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31];
/** Low / high f64 lanes of a and b: deinterleave and interleave alike for 2 lanes. */
export const LO_64 = [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23];
export const HI_64 = [8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31];
/** Lanes in reverse order (one operand used twice). */
export const REV_F32 = [12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3];
export const REV_64 = [8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7];
