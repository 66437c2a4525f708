#!/usr/bin/env bash
# Encodes the NVDEC test streams on the CPU (the H200 has no NVENC, and its
# machine no encoder): for each case a reference (higher quality) and a
# distorted (lower quality) encode of the same synthetic clip (synth_y4m.c).
#   small: 640x360 24 frames: h264 8-bit (MKV), a 650x366 h264 (MKV: cropped
#          rows and columns), h264 and hevc 10-bit with a keyframe every 6
#          frames (MKV, raw HEVC: pieces for segment-parallel
#          decoding), hevc 8 and 10-bit 4:2:0 and 4:4:4, vp9 profile 0
#          and 2 (IVF), av1 8 and 10-bit (IVF): the bit-equality set.
#   4k:    3840x2160, h264 8-bit and hevc 10-bit: 30-frame segments (*.seg.*) of
#          the clip without noise (about 1 MB each, to carry), and h264 of the
#          clip with its noise (h264noise: 22 and 5 Mbit/s); join4k repeats
#          each 20 times into a 600-frame file (Annex B streams join at their
#          IDR frames), where the run is.
#   mkv4k: 4K pairs in Matroska, FRAMES (default 240, a multiple of 30) frames
#          each: the h264 8-bit and hevc 10-bit segments of 4k (encoded here
#          where missing) joined and muxed by mkvmerge into 4k_h264_8_N_*.mkv
#          and 4k_hevc_10_N_*.mkv (a whole run's fixed cost: nvdec_run.sh
#          fixedcost).
# Usage: bench/nvdec/make_streams.sh OUT [small|4k|join4k|mkv4k|all]
#        (needs x264 x265 vpxenc aomenc, gcc; mkv4k: x264 x265 mkvmerge)
set -euo pipefail
out=$(realpath -m "$1") what=${2:-all} here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out" && cd "$out"
synth=$out/synth_y4m
build_synth() { [ -x "$synth" ] || gcc -O2 -o "$synth" "$here/synth_y4m.c"; }
q() { "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; return 1; }; }

small() {
  build_synth
  local W=640 H=360 N=24
  "$synth" $W $H $N 8 420 >s8.y4m
  "$synth" $W $H $N 10 420 >s10.y4m
  "$synth" $W $H $N 8 444 >s8_444.y4m
  "$synth" $W $H $N 10 444 >s10_444.y4m
  "$synth" 650 366 $N 8 420 >odd8.y4m
  for side in ref:20 dist:36; do
    local name=${side%%:*} crf=${side##*:}
    q x264 --preset veryfast --crf "$crf" -o "h264_8_$name.mkv" s8.y4m
    q x264 --preset veryfast --crf "$crf" -o "h264_odd_$name.mkv" odd8.y4m
    q x264 --preset veryfast --crf "$crf" --keyint 6 --min-keyint 6 -o "h264_gop6_$name.mkv" s8.y4m
    q x265 --preset fast --crf "$crf" --keyint 6 --min-keyint 6 --output-depth 10 -o "hevc_10_gop6_$name.hevc" s10.y4m
    q x265 --preset fast --crf "$crf" --output-depth 8 -o "hevc_8_$name.hevc" s8.y4m
    q x265 --preset fast --crf "$crf" --output-depth 10 -o "hevc_10_$name.hevc" s10.y4m
    q x265 --preset fast --crf "$crf" --output-depth 8 --profile main444-8 -o "hevc_444_8_$name.hevc" s8_444.y4m
    q x265 --preset fast --crf "$crf" --output-depth 10 --profile main444-10 -o "hevc_444_10_$name.hevc" s10_444.y4m
    q vpxenc --codec=vp9 --profile=0 --end-usage=q --cq-level=$((crf + 10)) --cpu-used=8 --ivf -o "vp9_8_$name.ivf" s8.y4m
    q vpxenc --codec=vp9 --profile=2 --bit-depth=10 --input-bit-depth=10 --end-usage=q --cq-level=$((crf + 10)) \
      --cpu-used=8 --ivf -o "vp9_10_$name.ivf" s10.y4m
    q aomenc --cpu-used=9 --rt --end-usage=q --cq-level=$((crf + 10)) --ivf -o "av1_8_$name.ivf" s8.y4m
    q aomenc --cpu-used=9 --rt --bit-depth=10 --input-bit-depth=10 --end-usage=q --cq-level=$((crf + 10)) --ivf \
      -o "av1_10_$name.ivf" s10.y4m
  done
  rm -f ./*.y4m
}

fourk() {
  build_synth
  local W=3840 H=2160 N=30
  for side in ref:30 dist:38; do
    local name=${side%%:*} crf=${side##*:}
    "$synth" $W $H $N 8 420 0 |
      nice x264 --preset veryfast --crf "$crf" --keyint $N --demuxer y4m -o "4k_h264_8_$name.seg.264" - >/dev/null 2>&1
    "$synth" $W $H $N 8 420 1 |
      nice x264 --preset veryfast --crf "$crf" --keyint $N --demuxer y4m -o "4k_h264noise_8_$name.seg.264" - >/dev/null 2>&1
    "$synth" $W $H $N 10 420 0 |
      nice x265 --preset faster --crf "$crf" --keyint $N --output-depth 10 --y4m --input - \
        -o "4k_hevc_10_$name.seg.hevc" >/dev/null 2>&1
  done
}

# The 600-frame files from the 30-frame segments (done where they are scored;
# JOIN=n repeats each n times instead of 20).
join4k() {
  local seg
  for seg in 4k_*.seg.*; do
    for _ in $(seq "${JOIN:-20}"); do cat "$seg"; done >"${seg/.seg/}"
  done
}

mkv4k() {
  local n=${FRAMES:-240} c side seg
  [ $((n % 30)) = 0 ] || { echo "FRAMES=$n: not a multiple of 30" >&2; return 1; }
  build_synth
  for side in ref:30 dist:38; do
    local name=${side%%:*} crf=${side##*:}
    [ -s "4k_h264_8_$name.seg.264" ] || "$synth" 3840 2160 30 8 420 0 |
      nice x264 --preset veryfast --crf "$crf" --keyint 30 --demuxer y4m -o "4k_h264_8_$name.seg.264" - >/dev/null 2>&1
    [ -s "4k_hevc_10_$name.seg.hevc" ] || "$synth" 3840 2160 30 10 420 0 |
      nice x265 --preset faster --crf "$crf" --keyint 30 --output-depth 10 --y4m --input - \
        -o "4k_hevc_10_$name.seg.hevc" >/dev/null 2>&1
  done
  for c in 4k_h264_8 4k_hevc_10; do
    for name in ref dist; do
      seg=$(ls "${c}_$name".seg.*)
      for _ in $(seq $((n / 30))); do cat "$seg"; done >"joined.${seg##*.}"
      q mkvmerge -o "${c}_${n}_$name.mkv" --default-duration 0:25fps "joined.${seg##*.}"
      rm -f "joined.${seg##*.}"
    done
  done
}

case $what in
  small) small ;;
  mkv4k) mkv4k ;;
  4k) fourk ;;
  join4k) join4k ;;
  all) small; fourk ;;
esac
ls -l "$out"
