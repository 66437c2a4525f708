#!/usr/bin/env bash
# One device call over a pack of tools/device/pack.sh: the GPU tests, the
# kernel tables, the end-to-end pipeline, the CPU twins and throughput on the
# device host's Xeon, compute-sanitizer memcheck (and racecheck), and on the
# two-GPU machine the multi-GPU tests and scaling; logs to OUT/logs.tgz.
# Usage (device tool, repo root): bash tools/device/run.sh PACK "$OUT" [PARTS]
# PARTS: comma-separated among tests,kernels,pipeline,cpu,cpustages,memcheck (default
# all), and wheel (the pack's manylinux wheel, pip-installed into a fresh venv of the host's
# Python, its tests run with pytest: WHEEL_PYTHON, WHEEL_TIMEOUT (300), WHEEL_REQUIRE_OPENCL=1,
# WHEEL_REQUIRE_GPU=0 to let the CUDA cases skip),
# devicetests (every *_device_tests, opencl_tests on NVIDIA's OpenCL, capi_tests,
# libvmaf_api_tests, the twin table's OpenCL rows), cpuvmaf (bench/compare.sh vmaf cpu at one
# thread and every core, beside the pack's libvmaf vmaf; BASELINE=another exactvq in the same rounds), bench (cuda_kernel_bench's whole run: kernels, stages, emulated, end to end
# with raster), cli (bench/compare.sh ssim cuda beside the pack's vmaf-cuda, over
# CLI_FRAMES_1080P (360) 1080p and a quarter as many 4K frames: start-up left out,
# the read rate, ssim with psnr, smaller batches, pictures page-locked before use),
# vmaf (cuda_kernel_bench's vmaf table: vif's and adm's kernels with their binary64 steps native
# and emulated, kernels only and end to end),
# ffmpeg (bench/ffmpeg_libvmaf.sh: the pack's ffmpeg (DEVICE_PACK_FFMPEG) with -lavfi libvmaf on
# upstream's libvmaf.so.3, on exactvq's on the CPU and on exactvq's with EXACTVQ_LIBVMAF_BACKEND=cuda,
# 1080p 8-bit FFMPEG_FRAMES (240) frames, n_threads FFMPEG_THREADS ("1 16"), medians of 3, JSON
# values compared; not in the default),
# racecheck (compute-sanitizer racecheck over the kernel and shared-upload tests;
# slow, so not in the default), x2 (multi-GPU tests, multi_gpu_bench FRAMES (600)
# and the CLI on --gpus 1 against --gpus 2 over CLI_FRAMES (160) 4K frames; on
# nvidia-h200-x2, with multi_tests and multi_gpu_bench in the pack).
# Timeouts in seconds: TESTS_TIMEOUT (200), MEMCHECK_TIMEOUT (120), RACECHECK_TIMEOUT
# (120), PIPELINE_TIMEOUT (200), CLI_TIMEOUT (300). cpustages: the SSIM rows of
# twin_tests --bench on the target CPU_TARGET (AVX3).
set -uo pipefail
P=$(realpath "$1") OUT=$2 parts=${3:-tests,kernels,pipeline,cpu,cpustages,memcheck}
root=$(cd "$(dirname "$0")/../.." && pwd)
has() { [[ ",$parts," == *",$1,"* ]]; }
L=$OUT/logs; mkdir -p "$L"
export LD_LIBRARY_PATH=$P/lib
# A pack of a build (a pack of the wheel alone, pack.sh --wheel, has none of this).
if [ -f "$P/paths.env" ]; then
  # shellcheck source=/dev/null
  source "$P/paths.env"  # BUILD_DIR, SRC_DIR: where the tests look for the CLI and the samples
  SHARED_DIR=${SHARED_DIR:-/tmp/cudashared}
  mkdir -p "$BUILD_DIR" "$SRC_DIR" /tmp/cudashared "$SHARED_DIR"
  cp "$P/bin/exactvq" "$BUILD_DIR/exactvq"
  cp -r "$P/samples" "$SRC_DIR/samples"
  for d in vectors libvmaf; do
    [ -d "$P/shared/$d" ] && ln -sfn "$P/shared/$d" /tmp/cudashared/$d && ln -sfn "$P/shared/$d" "$SHARED_DIR/$d"
  done
  # The libvmaf API tests run their scoring program from the build tree, beside its libvmaf.so.3.
  if [ -x "$P/bin/libvmaf_api_score" ]; then
    mkdir -p "$BUILD_DIR/tests/libvmaf_api" "$BUILD_DIR/src/libvmaf_api"
    cp "$P/bin/libvmaf_api_score" "$BUILD_DIR/tests/libvmaf_api/"
    cp "$P/lib/libvmaf.so.3" "$BUILD_DIR/src/libvmaf_api/"
  fi
fi
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
lscpu | grep -E "Model name|^CPU\(s\)|Thread" | head -3
free -g | awk '/Mem/ {print "Memory: " $2 " GiB"}'
T0=$(date +%s); el() { echo "[t=$(( $(date +%s) - T0 ))s]"; }

# The x2 part, run in a child bash under one timeout: $1 the log folder.
x2() {
  local bin=$P/bin out=$1 dir=/dev/shm/x2cli frames=${CLI_FRAMES:-160}
  mkdir -p "$out" "$dir"
  nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,pcie.link.gen.current,pcie.link.width.current --format=csv
  nvidia-smi topo -m 2>/dev/null | head -8
  nproc; free -g | head -2
  echo "== multi-device tests on the GPUs"  # multi_tests runs the CLI from BUILD_DIR
  (cd "$BUILD_DIR" && timeout 100 "$bin/multi_tests" --gtest_filter='MultiGpu*:MultiDevice*:GpusCli*:GpusOption*' \
      >"$out/tests.log" 2>&1; echo "tests exit $?")
  grep -E "^\[ +(OK|FAILED|SKIPPED|PASSED) |skipped" "$out/tests.log" | head -30
  grep -B2 -A8 "Failure" "$out/tests.log" | head -40
  echo "== multi_gpu_bench (RAM, pinned)"
  timeout 120 "$bin/multi_gpu_bench" "${FRAMES:-600}" 3 2>&1 | tee "$out/bench.txt"
  echo "bench exit ${PIPESTATUS[0]}"
  echo "== CLI: --gpus 1 against --gpus 2, 4K 8-bit 4:2:0 Y4M in /dev/shm"
  python3 - "$dir" "$frames" <<'PY'
import sys, random
d, n = sys.argv[1], int(sys.argv[2])
w, h = 3840, 2160
random.seed(1)
base = random.randbytes(w * h * 3 // 2)
tables = [bytes((b ^ x) for b in range(256)) for x in range(4)]
for which in ("ref", "dist"):
    with open(f"{d}/{which}.y4m", "wb") as f:
        f.write(f"YUV4MPEG2 W{w} H{h} F25:1 Ip A1:1 C420jpeg\n".encode())
        for i in range(n):
            k = (i * 7) % len(base)
            frame = base[k:] + base[:k]
            if which == "dist":
                frame = frame.translate(tables[i % 3 + 1])
            f.write(b"FRAME\n")
            f.write(frame)
PY
  local r=$dir/ref.y4m d=$dir/dist.y4m mode gpus best rc t0 t1 i
  cat "$r" "$d" >/dev/null
  now() { date +%s.%N; }
  echo "| run | seconds (best of 2) | frames/s | output |"
  echo "|---|---|---|---|"
  for mode in exact raster; do
    for gpus in 1 2; do
      best=999
      for _ in 1 2; do
        t0=$(now)
        timeout 60 "$bin/exactvq" -q -r "$r" -d "$d" --backend cuda --gpus "$gpus" \
          --feature "ssim=sum=$mode" --feature psnr=enable_apsnr=true --json --precision max \
          -o "$out/cli_${mode}_gpus$gpus.json" 2>>"$out/cli_err.txt"
        rc=$?; t1=$(now)
        best=$(python3 -c "print(min($best, $t1 - $t0))")
      done
      echo "| $mode --gpus $gpus (exit $rc) | $(python3 -c "print(f'{$best:.2f}')") |" \
        "$(python3 -c "print(f'{$frames / $best:.0f}')") | cli_${mode}_gpus$gpus.json |"
    done
    # The same bytes but the fps field.
    if [ -s "$out/cli_${mode}_gpus1.json" ] && [ -s "$out/cli_${mode}_gpus2.json" ] &&
       diff <(grep -v '"fps"' "$out/cli_${mode}_gpus1.json") <(grep -v '"fps"' "$out/cli_${mode}_gpus2.json") >/dev/null; then
      echo "$mode: --gpus 1 and --gpus 2 outputs identical (fps aside)"
    else
      echo "$mode: --gpus 1 and --gpus 2 outputs DIFFER (or are missing)"
    fi
  done
  t0=$(now); cat "$r" "$d" >/dev/null; t1=$(now)
  echo "read rate of the pair (cat, one reader): $(python3 -c "print(f'{$frames / ($t1 - $t0):.0f}')") frames/s"
  "$bin/exactvq" -r "$r" -d "$d" --gpus all --frame_cnt 2 --verbose -q 2>&1 | head -4
  echo "== batch on --gpus 2: 4 pairs"
  printf 'ref,dist,output\n' >"$dir/list.csv"
  for i in 1 2 3 4; do printf '%s,%s,b%s.csv\n' "$r" "$d" "$i" >>"$dir/list.csv"; done
  t0=$(now)
  "$bin/exactvq" --batch "$dir/list.csv" --gpus 2 --batch-jobs 4 --frame_cnt 60 -q --batch-summary - >"$out/batch_summary.csv"
  echo "batch exit $? in $(python3 -c "print(f'{$(now) - $t0:.2f}')") s"
  "$bin/exactvq" -r "$r" -d "$d" --backend cuda --frame_cnt 60 --csv -o "$dir/single.csv" -q
  for i in 1 2 3 4; do
    if cmp -s "$dir/b$i.csv" "$dir/single.csv"; then echo "b$i.csv = single run"; else echo "b$i.csv DIFFERS"; fi
  done
  rm -rf "$dir"
}

if has wheel; then
  # The manylinux wheel (tools/wheel/build_manylinux.sh) as a user installs it: a fresh venv of
  # the host's Python (WHEEL_PYTHON, default the one holding torch and CuPy), whose packages it
  # sees through a .pth file (a venv made from a venv's Python would see the base Python's
  # site-packages alone), `pip install --no-deps --no-index` of the wheel, then the package's own
  # tests with LD_LIBRARY_PATH empty (the wheel's libraries only), CUDA skips made failures.
  echo "== wheel $(el)"
  whl=$(ls "$P"/wheel/exactvq-*.whl 2>/dev/null | head -1)
  py=${WHEEL_PYTHON:-/opt/torch/.venv/bin/python3}
  [ -x "$py" ] || py=$(command -v python3)
  venv=/tmp/exactvq-wheel-venv
  if [ -z "$whl" ]; then
    echo "no wheel in $P/wheel (pack.sh: WHEEL=path or --wheel)"
  else
    echo "$(basename "$whl") into a venv of $py ($("$py" --version 2>&1))"
    rm -rf "$venv" && "$py" -m venv --without-pip "$venv"
    purelib=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
    "$py" -c 'import site, sys; print("\n".join(p for p in site.getsitepackages() + [site.getusersitepackages()] if p))' \
      >"$purelib/host-packages.pth"
    if ! env -u LD_LIBRARY_PATH "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-deps \
         --no-index --no-cache-dir "$whl" > "$L/wheel_install.log" 2>&1; then
      tail -20 "$L/wheel_install.log"
      echo "pip failed: the wheel unpacked into the venv instead (a wheel is a zip of the installed files)"
      "$venv/bin/python" -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$whl" "$purelib"
    fi
    ldd "$purelib"/exactvq/_exactvq*.so > "$L/wheel_ldd.txt" 2>&1
    grep -E "not found|exactvq.libs|libOpenCL|libstdc|libcuda" "$L/wheel_ldd.txt"
    (cd /tmp && env -u LD_LIBRARY_PATH -u PYTHONPATH EXACTVQ_REQUIRE_GPU="${WHEEL_REQUIRE_GPU:-1}" \
       EXACTVQ_REQUIRE_OPENCL="${WHEEL_REQUIRE_OPENCL:-0}" OCL_ICD_FILENAMES="${OPENCL_ICD:-libnvidia-opencl.so.1}" \
       timeout "${WHEEL_TIMEOUT:-300}" "$venv/bin/python" -m pytest -p no:cacheprovider -c /dev/null --rootdir /tmp \
       --pyargs exactvq.tests -v -rfEs --junitxml="$L/wheel_junit.xml" > "$L/wheel_tests.log" 2>&1; echo "pytest exit $?")
    grep -E "PASSED|FAILED|SKIPPED|ERROR|^exactvq |passed|failed" "$L/wheel_tests.log" | tail -40
    grep -B5 -A25 "^_____" "$L/wheel_tests.log" | head -80
  fi
fi
if has tests; then
  echo "== cuda tests $(el)"
  (cd "$BUILD_DIR" && timeout "${TESTS_TIMEOUT:-200}" "$P/bin/cuda_tests" > "$L/cuda_tests.log" 2>&1; echo "cuda_tests exit $?")
  grep -E "^\[ +(FAILED|PASSED|SKIPPED) |tests ran|^\[ cuda " "$L/cuda_tests.log" | head -40
  grep -B2 -A8 "Failure" "$L/cuda_tests.log" | head -30
  echo "== twin table $(el)"  # every row: CPU targets of this host, CUDA, NVIDIA's OpenCL
  timeout "${TWINS_TIMEOUT:-240}" "$P/bin/twin_tests" > "$L/twin_tests.log" 2>&1; echo "twin_tests exit $?"
  grep -E "^\[ twin \]|skipped:|^\[ +(FAILED|PASSED|SKIPPED) " "$L/twin_tests.log" | grep -E "cuda|opencl|FAILED|PASSED|SKIPPED|AVX3" | head -60
  grep -B2 -A8 "Failure" "$L/twin_tests.log" | head -30
fi
if has devicetests; then
  # Every metric's device tests, the OpenCL backend's, the C API's and the libvmaf API's; the OpenCL
  # ones on NVIDIA's driver alone (OCL_ICD_FILENAMES: the ICD loader skips the vendors folder, where
  # a CPU platform may come first).
  echo "== device tests $(el)"
  for t in "$P"/bin/*_device_tests "$P/bin/opencl_tests" "$P/bin/capi_tests" "$P/bin/libvmaf_api_tests"; do
    [ -x "$t" ] || continue
    n=$(basename "$t")
    (cd "$BUILD_DIR" && OCL_ICD_FILENAMES=${OPENCL_ICD:-libnvidia-opencl.so.1} \
       timeout "${DEVICE_TESTS_TIMEOUT:-90}" "$t" > "$L/$n.log" 2>&1; echo "$n exit $?")
    grep -E "^\[ +(FAILED|PASSED|SKIPPED) " "$L/$n.log" | head -8
    grep -B2 -A6 "Failure" "$L/$n.log" | head -16
  done
  echo "== the twin table's OpenCL rows on NVIDIA's driver $(el)"
  OCL_ICD_FILENAMES=${OPENCL_ICD:-libnvidia-opencl.so.1} timeout 120 "$P/bin/twin_tests" --gtest_filter='*opencl*' \
    > "$L/twin_opencl.log" 2>&1; echo "twin_tests (opencl rows) exit $?"
  grep -E "^\[ twin \].*opencl|^\[ +(FAILED|PASSED|SKIPPED) " "$L/twin_opencl.log" | head -20
fi
if has cpuvmaf; then
  # VMAF on this host's CPU beside libvmaf's vmaf (its default SIMD), 1080p 8-bit, at one thread and
  # at every core, medians of 3, values checked equal.
  echo "== cpu vmaf $(el)"
  timeout "${CPUVMAF_TIMEOUT:-240}" bash "$root/bench/compare.sh" vmaf cpu "${CPUVMAF_FRAMES:-96}" 3 1 "$(nproc)" \
      --clips "${CPUVMAF_CLIPS:-1080p8}" --exactvq "$BUILD_DIR/exactvq" --vmaf "$P/shared/libvmaf/vmaf" \
      ${BASELINE:+--baseline "$BASELINE"} > "$L/cpu_vmaf.txt" 2>&1
  echo "compare.sh exit $?"; cat "$L/cpu_vmaf.txt"
fi
if has kernels; then
  echo "== kernels $(el)"
  timeout 150 "$P/bin/cuda_kernel_bench" 0.3 kernels > "$L/kernels.txt" 2>&1; echo "cuda_kernel_bench exit $?"
  head -80 "$L/kernels.txt"
fi
if has bench; then
  echo "== cuda_kernel_bench $(el)"
  timeout 300 "$P/bin/cuda_kernel_bench" 0.2 > "$L/cuda_kernel_bench.txt" 2>&1; echo "cuda_kernel_bench exit $?"
  grep -A12 "^end to end" "$L/cuda_kernel_bench.txt"
fi
if has vmaf; then
  echo "== vif and adm, fp64 native and emulated $(el)"
  timeout 200 "$P/bin/cuda_kernel_bench" 0.3 vmaf > "$L/vmaf_fp64.txt" 2>&1; echo "cuda_kernel_bench exit $?"
  cat "$L/vmaf_fp64.txt"
fi
if has pipeline; then
  echo "== pipeline $(el)"
  timeout "${PIPELINE_TIMEOUT:-200}" "$P/bin/pipeline_bench" 0.3 /tmp/pipelinebench e2e,copies > "$L/pipeline.txt" 2>&1
  echo "pipeline_bench exit $?"; tail -40 "$L/pipeline.txt"; rm -rf /tmp/pipelinebench
fi
if has cli; then
  echo "== cli $(el)"
  timeout "${CLI_TIMEOUT:-300}" bash "$root/bench/compare.sh" ssim cuda "${CLI_FRAMES_1080P:-360}" 3 \
      --clips 1080p8,4k8 --exactvq "$BUILD_DIR/exactvq" --vmaf "$P/bin/vmaf-cuda" --steady --read-rate \
      --also 'ssim+psnr=--feature ssim --feature psnr' --also 'max batch 8=EXACTVQ_CUDA_MAX_BATCH=8' \
      --also 'pinned before use=EXACTVQ_CUDA_BACKGROUND_PIN=0' > "$L/cli.txt" 2>&1
  echo "compare.sh exit $?"; cat "$L/cli.txt"
fi
if has cpu; then
  echo "== cpu $(el)"
  timeout 200 sh "$root/bench/ssim_throughput.sh" "$P/cpu" 3 1 1 2 4 > "$L/cpu_throughput.txt" 2>&1
  cat "$L/cpu_throughput.txt"
fi
if has cpustages; then
  echo "== cpu stages $(el)"
  # Per stage and whole planes (stage by stage and fused) beside the scalar reference.
  (cd "$P/cpu" && export LD_LIBRARY_PATH=. &&
   timeout 120 ./twin_tests --bench --seconds=0.2 --filter="^ssim\.[a-z_]+/cpu-${CPU_TARGET:-AVX3}\$" \
      > "$L/cpu_stages.txt" 2>&1
   cat "$L/cpu_stages.txt"
   # Threads against plain threads (no pool), 1080p 8-bit exact, medians of 5.
   for t in 1 2; do for mode in exact bare; do
     for i in 1 2 3 4 5; do ./ssim_throughput 1920 1080 8 "$t" "$mode" 1; done | sed 's/.*fps=//' | sort -n |
       awk -v t="$t" -v m="$mode" '{v[NR]=$1} END {print "1080p 8-bit " m " threads=" t ": median " v[3] " frames/s"}'
   done; done) 2>&1 | tee "$L/cpu_stages_summary.txt"
fi
if has x2; then
  echo "== two GPUs $(el)"
  export -f x2; export P BUILD_DIR
  # shellcheck disable=SC2016  # "$1" expands in the child bash
  timeout 230 bash -uo pipefail -c 'x2 "$1"' x2 "$L/x2" 2>&1 | grep -v "^\[ *OK" | tail -45
fi
if has memcheck; then
  echo "== memcheck $(el)"
  (cd "$BUILD_DIR" && export EXACTVQ_CUDA_SMALL=1 &&
   timeout "${MEMCHECK_TIMEOUT:-120}" compute-sanitizer --tool memcheck --leak-check full \
      "$P/bin/twin_tests" --gtest_filter='*cuda*' > "$L/memcheck_twins.log" 2>&1; echo "memcheck (twin rows) exit $?"
   grep -E "^\[ +(FAILED|PASSED) |ERROR SUMMARY" "$L/memcheck_twins.log" | head -5
   timeout "${MEMCHECK_TIMEOUT:-120}" compute-sanitizer --tool memcheck --leak-check full \
      "$P/bin/cuda_tests" --gtest_filter='*U8Kernel*:*SharedUpload*:*Upload*:*FailedLaunch*:*DeviceLost*' \
      > "$L/memcheck.log" 2>&1; echo "memcheck exit $?"; grep -E "^\[ +(OK|FAILED) " "$L/memcheck.log" | head -20; tail -3 "$L/memcheck.log")
fi
if has racecheck; then
  echo "== racecheck $(el)"  # every CUDA row of the twin table (kernels and engines) and the shared upload
  (cd "$BUILD_DIR" && export EXACTVQ_CUDA_SMALL=1 &&
   timeout "${RACECHECK_TIMEOUT:-120}" compute-sanitizer --tool racecheck "$P/bin/twin_tests" --gtest_filter='*cuda*' \
      > "$L/racecheck_twins.log" 2>&1; echo "racecheck (twin rows) exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$L/racecheck_twins.log" | tail -2
   timeout "${RACECHECK_TIMEOUT:-120}" compute-sanitizer --tool racecheck "$P/bin/cuda_tests" --gtest_filter='*SharedUpload*' \
      > "$L/racecheck.log" 2>&1; echo "racecheck exit $?"; grep -E "^\[ +(OK|FAILED) " "$L/racecheck.log" | head -20; tail -3 "$L/racecheck.log")
fi
if has ffmpeg; then
  echo "== ffmpeg -lavfi libvmaf: upstream's libvmaf.so.3 and exactvq's (CPU, CUDA) $(el)"
  if [ -x "$P/ffmpeg/bin/ffmpeg" ]; then
    mkdir -p /dev/shm/ffmpeg_libvmaf
    nv=/usr/local/nvidia/lib64  # the driver's libcuda, where the machine keeps it there
    LD_LIBRARY_PATH=$P/ffmpeg/lib:$LD_LIBRARY_PATH${nv:+:$nv} FFMPEG=$P/ffmpeg/bin/ffmpeg \
      UPSTREAM_LIB=$P/ffmpeg/upstream EXACTVQ_LIB=$P/ffmpeg/exactvq CLIP_DIR=/dev/shm/ffmpeg_libvmaf/clip \
      OUT=$L/ffmpeg THREADS="${FFMPEG_THREADS:-1 16}" FRAMES=${FFMPEG_FRAMES:-240} \
      timeout "${FFMPEG_TIMEOUT:-540}" bash "$root/bench/ffmpeg_libvmaf.sh" upstream cpu cuda 2>&1 |
      tee "$L/ffmpeg_libvmaf.txt"
    echo "ffmpeg_libvmaf exit ${PIPESTATUS[0]}"
    grep -h -E "libvmaf (WARNING|ERROR)" "$L"/ffmpeg/*.log 2>/dev/null | sort | uniq -c | head -5
  else
    echo "no ffmpeg in the pack (DEVICE_PACK_FFMPEG=.../ffmpeg tools/device/pack.sh BUILD PACK)"
  fi
fi
echo "== done $(el)"
cd "$OUT" && tar czf logs.tgz logs && rm -rf logs
