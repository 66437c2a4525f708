#!/usr/bin/env bash
# Where a CTC preset's time goes: each feature of `--aom_ctc v6.0` (or `--nflx_ctc v1.0`) run
# alone, with its preset options, by exactvq and by libvmaf's `vmaf` (its default SIMD), then
# the whole preset; CPU seconds (user + system, every thread) and wall seconds of each run,
# reading and start-up included. The features' sum against the whole run shows what is shared.
#
#   bench/ctc_features.sh [--threads N] [--nflx] REF.y4m DIST.y4m
#
# Clips: bench/compare.sh --clip-dir DIR keeps the ones it makes. EXACTVQ and VMAF name the
# programs (default build/exactvq and ../shared/libvmaf/vmaf beside the checkout).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
threads=1
preset=(--aom_ctc v6.0)
features=(vif adm motion vif=vif_enhn_gain_limit=1.0 adm=adm_enhn_gain_limit=1.0
          psnr=reduced_hbd_peak=true:enable_apsnr=true:min_sse=0.5 ciede
          float_ssim=enable_db=true:clip_db=true float_ms_ssim=enable_db=true:clip_db=true psnr_hvs
          cambi)
while [ $# -gt 2 ]; do
  case $1 in
    --threads) threads=$2; shift 2 ;;
    --nflx)
      preset=(--nflx_ctc v1.0)
      # vmaf_4k_v0.6.1's features are VMAF v0.6.1's; vmaf_4k_v0.6.1neg's carry the gain limits.
      features=(vif adm motion vif=vif_enhn_gain_limit=1.0 adm=adm_enhn_gain_limit=1.0
                psnr=enable_chroma=true:enable_apsnr=true float_ssim=enable_db=true:clip_db=true
                cambi)
      shift ;;
    *) echo "usage: $0 [--threads N] [--nflx] REF.y4m DIST.y4m" >&2; exit 2 ;;
  esac
done
[ $# -eq 2 ] || { echo "usage: $0 [--threads N] [--nflx] REF.y4m DIST.y4m" >&2; exit 2; }
ref=$1 dist=$2
exactvq=${EXACTVQ:-$here/../build/exactvq}
vmaf=${VMAF:-$here/../../shared/libvmaf/vmaf}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

run() {  # LABEL PROGRAM ARGS...: one line, or the failure
  local label=$1
  shift
  if ! /usr/bin/time -f "%U %S %e" -o "$out/time" "$@" --threads "$threads" -r "$ref" -d "$dist" \
      -q --json -o "$out/out.json" >/dev/null 2>"$out/err"; then
    echo "$label: failed: $(head -2 "$out/err")"
    return
  fi
  read -r user sys wall <"$out/time"
  printf '%-70s cpu %7.2f s  wall %7.2f s\n' "$label" "$(echo "$user + $sys" | bc)" "$wall"
}

echo "# bench/ctc_features.sh --threads $threads ${preset[*]} $ref $dist"
echo "# $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
for f in "${features[@]}"; do
  run "libvmaf --feature $f" "$vmaf" --feature "$f" -n
  run "exactvq --feature $f" "$exactvq" --feature "$f" -n
done
run "libvmaf ${preset[*]}" "$vmaf" "${preset[@]}"
run "exactvq ${preset[*]}" "$exactvq" "${preset[@]}"
