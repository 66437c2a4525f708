#!/usr/bin/env bash
# memory_bounds.sh EXACTVQ WORKDIR: scores streams through FIFOs (nothing large on disk)
# and reads the peak resident memory from /usr/bin/time -v:
#  - 8K (7680x4320) 4:2:0 16-bit: 2 frames and 5 frames must peak within one frame pair
#    (2 x 99.5 MB) of each other, and below a fixed number of frames in flight;
#  - a tiny 16x16 stream: 10,000 frames must peak within 4 MiB of 1,000 frames (ssim);
#  - VMAF on 64x48: 5,000 frames within 2 MiB of 1,000.
# Prints every measurement; exits non-zero when memory grows with the frame count.
# Not a timing test: nothing here depends on speed.
set -euo pipefail
exactvq=$1 work=$2
here=$(cd "$(dirname "$0")" && pwd)
python=/usr/bin/python3
mkdir -p "$work"
rm -f "$work"/ref.y4m "$work"/dist.y4m

# peak_kib W H TAG FRAMES [exactvq options...]: the run's peak RSS in KiB.
peak_kib() {
  local w=$1 h=$2 tag=$3 frames=$4
  shift 4
  rm -f "$work/ref.y4m" "$work/dist.y4m"
  mkfifo "$work/ref.y4m" "$work/dist.y4m"
  "$python" "$here/make_y4m.py" "$work/ref.y4m" "$w" "$h" "$tag" "$frames" 0 &
  local ref_writer=$!
  "$python" "$here/make_y4m.py" "$work/dist.y4m" "$w" "$h" "$tag" "$frames" 1 &
  local dist_writer=$!
  # peak_kib runs in a subshell: a failed run must not leave a writer blocked on its FIFO.
  trap "kill $ref_writer $dist_writer 2>/dev/null || true" EXIT
  /usr/bin/time -v -o "$work/time.txt" "$exactvq" -r "$work/ref.y4m" -d "$work/dist.y4m" \
    -q --csv -o "$work/scores.csv" "$@"
  wait "$ref_writer" "$dist_writer"
  rm -f "$work/ref.y4m" "$work/dist.y4m"
  local scored
  scored=$(($(wc -l < "$work/scores.csv") - 1))
  if [ "$scored" -ne "$frames" ]; then
    echo "memory_bounds: scored $scored frames of $frames" >&2
    exit 1
  fi
  sed -n 's/^\tMaximum resident set size (kbytes): //p' "$work/time.txt"
}

status=0
check() {  # check WHAT VALUE_KIB LIMIT_KIB
  if [ "$2" -le "$3" ]; then
    echo "ok: $1: $2 KiB (limit $3 KiB)"
  else
    echo "FAILED: $1: $2 KiB (limit $3 KiB)"
    status=1
  fi
}

# 8K 16-bit: one frame is 7680*4320*1.5*2 bytes = 97,200 KiB; a pair is twice that.
frame_kib=97200
# One thread: one frame pair per batch, so both runs fill the reader's two batches and
# differ only in length (more threads batch more frames in flight, by design).
k2=$(peak_kib 7680 4320 420p16 2 --threads 1 --feature ssim -n)
k5=$(peak_kib 7680 4320 420p16 5 --threads 1 --feature ssim -n)
echo "8K 420p16: peak RSS $k2 KiB for 2 frames, $k5 KiB for 5 frames"
check "8K growth from 2 to 5 frames" $((k5 > k2 ? k5 - k2 : 0)) $((2 * frame_kib))
# The reader fills the next batch while the current one scores: a few pairs in flight.
check "8K peak" "$k5" $((8 * 2 * frame_kib))

t1=$(peak_kib 16 16 420jpeg 1000 --threads 1 --feature ssim -n)
t10=$(peak_kib 16 16 420jpeg 10000 --threads 1 --feature ssim -n)
echo "16x16 420 8-bit: peak RSS $t1 KiB for 1,000 frames, $t10 KiB for 10,000 frames"
check "tiny stream growth from 1,000 to 10,000 frames" $((t10 > t1 ? t10 - t1 : 0)) 4096

# VMAF (the default run): its motion keeps one reference picture, and the run's
# columns (15 doubles a frame) are all that grows: 4,000 more frames, under 1 MiB.
v1=$(peak_kib 64 48 420jpeg 1000 --threads 2)
v5=$(peak_kib 64 48 420jpeg 5000 --threads 2)
echo "64x48 420 8-bit VMAF: peak RSS $v1 KiB for 1,000 frames, $v5 KiB for 5,000 frames"
check "VMAF stream growth from 1,000 to 5,000 frames" $((v5 > v1 ? v5 - v1 : 0)) 2048
exit $status
