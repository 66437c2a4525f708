#!/usr/bin/env bash
# Checks a wheel of tools/wheel/build_manylinux.sh as a user gets it:
#   1. a fresh virtual environment of a CPython 3.12, `pip install --no-deps` of the wheel and
#      numpy and pytest from PyPI (or WHEELHOUSE, a folder of wheels, with --no-index);
#   2. the package's own tests from outside the source tree, LD_LIBRARY_PATH empty:
#      python -m pytest --pyargs exactvq.tests;
#   3. ldd of every ELF file in the installed package: each library resolves inside the package
#      or to one the manylinux policy allows (glibc, libstdc++, libgcc_s), libcuda.so.1 aside;
#   4. (root, CHROOT=1, the default for root) the tests again in a chroot that holds that
#      Python, its own runtime libraries (libz, libffi, libssl, ...), glibc, libstdc++ and
#      libgcc_s and nothing else: no FFmpeg, fmt, Highway or OpenCL of the machine's.
# Usage: tools/wheel/check_wheel.sh WHEEL [WORK]   (WORK default build-wheel/check)
# Env: PYTHON (a CPython 3.12; default the one build_manylinux.sh's tools venv was made from).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
wheel=$(realpath "$1") work=$(realpath -m "${2:-$root/build-wheel/check}")
python=${PYTHON:-$(grep -m1 '^home' "$root/build-wheel/tools/pyvenv.cfg" 2>/dev/null | sed 's/.*= *//')/python3.12}
rm -rf "$work" && mkdir -p "$work/run"
venv=$work/venv
"$python" -m venv "$venv"
pip=("$venv/bin/python" -m pip install -q --disable-pip-version-check)
"${pip[@]}" --no-deps "$wheel"
if [ -n "${WHEELHOUSE:-}" ]; then
  "${pip[@]}" --no-index --find-links "$WHEELHOUSE" numpy pytest
else
  "${pip[@]}" numpy pytest
fi
site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["platlib"])')

echo "== tests, fresh venv, LD_LIBRARY_PATH empty"
(cd "$work/run" && env -u LD_LIBRARY_PATH -u PYTHONPATH "$venv/bin/python" -m pytest -p no:cacheprovider \
   -c /dev/null --rootdir "$work/run" --pyargs exactvq.tests -v -rs)

echo "== ldd of the installed package's ELF files"
bad=0
while read -r elf; do
  echo "-- ${elf#"$site"/}"
  ldd "$elf" | sed 's/ (0x[0-9a-f]*)//; s/^\t/   /'
  while read -r lib; do
    case "$lib" in
      "$site"/*) ;;
      */libc.so.6|*/libm.so.6|*/libstdc++.so.6|*/libgcc_s.so.1|*/libpthread.so.0|*/libdl.so.2|*/librt.so.1|*/ld-linux-x86-64.so.2) ;;
      *) echo "   NOT ALLOWED: $lib"; bad=1 ;;
    esac
  done < <(ldd "$elf" | awk '/=> \// {print $3}')
  if ldd "$elf" | grep -q "not found"; then echo "   UNRESOLVED"; bad=1; fi
done < <(find "$site/exactvq" "$site/exactvq.libs" -type f \( -name '*.so' -o -name '*.so.*' \))
[ "$bad" = 0 ] && echo "every library resolves inside the package or to glibc/libstdc++/libgcc_s"

if [ "$(id -u)" = 0 ] && [ "${CHROOT:-1}" = 1 ]; then
  echo "== tests in a chroot with glibc, libstdc++, libgcc_s and Python's own libraries alone"
  chroot=$(command -v chroot) jail=$work/jail base=$(realpath "$("$venv/bin/python" -c 'import sys; print(sys.base_prefix)')")
  mkdir -p "$jail/tmp" "$jail/dev" "$jail$base" "$jail$venv" "$jail/lib64" "$jail/lib/x86_64-linux-gnu"
  chmod 1777 "$jail/tmp"
  # (hard links where the Python lies on the same file system: nothing is written through them)
  cp -al "$base/." "$jail$base/" 2>/dev/null || { rm -rf "$jail$base" && mkdir -p "$jail$base" && cp -a "$base/." "$jail$base/"; }
  cp -a "$venv/." "$jail$venv/"
  # Python's runtime: its program's and its standard modules' libraries (Tk's aside).
  for f in "$base"/bin/python3.12 "$base"/lib/python3.12/lib-dynload/*.so; do
    case "$f" in *_tkinter*) continue ;; esac
    ldd "$f" | awk '/=> \// {print $3}'
  done | sort -u | while read -r lib; do
    case "$lib" in "$base"/*) continue ;; esac
    cp -L "$lib" "$jail/lib/x86_64-linux-gnu/"
  done
  for lib in libc.so.6 libm.so.6 libstdc++.so.6 libgcc_s.so.1 libpthread.so.0 libdl.so.2 librt.so.1; do
    cp -L "/lib/x86_64-linux-gnu/$lib" "$jail/lib/x86_64-linux-gnu/"
  done
  cp -L /lib64/ld-linux-x86-64.so.2 "$jail/lib64/"
  for d in null zero urandom random; do cp -a "/dev/$d" "$jail/dev/" 2>/dev/null || true; done
  echo "libraries in the chroot:" $(ls "$jail/lib/x86_64-linux-gnu")
  mkdir -p "$jail/run"
  env -i PATH=/usr/bin:/bin HOME=/tmp "$chroot" "$jail" "$venv/bin/python" -c \
    'import exactvq, sys; print("import exactvq in the chroot:", exactvq.__file__)'
  env -i PATH=/usr/bin:/bin HOME=/tmp PYTHONDONTWRITEBYTECODE=1 "$chroot" "$jail" "$venv/bin/python" -m pytest \
    -p no:cacheprovider -c /dev/null --rootdir=/run --pyargs exactvq.tests -v -rs
fi
exit "$bad"
