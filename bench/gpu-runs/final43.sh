#!/usr/bin/env bash
# final39.sh again after the 512-point long first pass of C2C 2^25 (and of the half-length 2^25 of R2C, DCT-II
# and DHT 2^26) took 8 columns (sweep60), with the kernels of commit c2e6f89 as the previous kernels
# (.gpu/bench-fft-old.mjs built from it, as in final41 and final42). The source of BENCHMARKS.md's FFT tables.
# Writes $OUT/final43.tgz.
RUN=final43 exec bash "$(dirname "$0")/final39.sh"
