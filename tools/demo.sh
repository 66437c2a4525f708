#!/usr/bin/env bash
# Installs what is needed, builds exactvq and scores the bundled sample pair.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
tools/build.sh --target exactvq
set -x
./build/exactvq -r samples/ref.y4m -d samples/dist.y4m
./build/exactvq -r samples/ref.y4m -d samples/dist.y4m --feature ssim=sum=raster:chroma=true \
  --csv -o -
