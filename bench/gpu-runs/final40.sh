#!/usr/bin/env bash
# final39.sh again after the XOR-swizzled rows of single-workgroup FFTs from 4096 values a row, with the kernels
# of commit fa92f6b as the previous kernels (.gpu/bench-fft-old.mjs built from it). Writes $OUT/final40.tgz.
RUN=final40 exec bash "$(dirname "$0")/final39.sh"
