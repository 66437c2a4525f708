#!/usr/bin/env python3
"""Compares the machine code of two sets of CUDA cubins kernel by kernel.

Usage: sass_diff.py BEFORE_DIR AFTER_DIR
Each folder holds .cubin files named after their sources (tools/sass_diff.sh makes
them). A kernel's code is its .text section; names are compared with the file
hashes that nvcc puts into anonymous namespaces taken out. Prints, per cubin, the
kernels whose code differs and those only one side has; exits 1 when any kernel
present on both sides differs. Needs pyelftools (Debian: python3-pyelftools).
"""
import os
import re
import subprocess
import sys

from elftools.elf.elffile import ELFFile


def kernels(path):
    def norm(name):
        name = re.sub(r'_GLOBAL__N__[0-9a-f]{8}_', '_GLOBAL__N__X_', name)
        return re.sub(r'_cu_[0-9a-f]{8}', '_cu_X', name)
    with open(path, 'rb') as f:
        elf = ELFFile(f)
        return {norm(s.name[len('.text.'):]): s.data() for s in elf.iter_sections() if s.name.startswith('.text.')}


def anonymous(name):
    """A kernel's name without the translation unit's anonymous namespace."""
    return re.sub(r'\d+_GLOBAL__N__X_\d+_\w+?_cu_X', 'ANON', name)


def unscoped(names):
    """Each mangled name demangled, with a metric's own CUDA namespace read as the
    shared one (exactvq::<metric>::cuda:: as exactvq::cuda::), so that kernels
    moved between the two compare by name."""
    named = [re.sub(r'\d+_GLOBAL__N__X_\d+_\w+?_cu_X', '4ANON', n) for n in names]
    out = subprocess.run(['c++filt'], input='\n'.join(named), capture_output=True, text=True,
                         check=True).stdout.split('\n')
    return {n: re.sub(r'exactvq::\w+::cuda::', 'exactvq::cuda::', d) for n, d in zip(names, out)}


def main(before_dir, after_dir):
    differ = False
    moved_before, moved_after = {}, {}
    for name in sorted(set(os.listdir(before_dir)) | set(os.listdir(after_dir))):
        if not name.endswith('.cubin'):
            continue
        a_path, b_path = os.path.join(before_dir, name), os.path.join(after_dir, name)
        if not os.path.exists(a_path) or not os.path.exists(b_path):
            print(f'{name}: only {"after" if os.path.exists(b_path) else "before"}')
            continue
        a, b = kernels(a_path), kernels(b_path)
        common = sorted(set(a) & set(b))
        changed = [k for k in common if a[k] != b[k]]
        differ = differ or bool(changed)
        print(f'{name}: {len(common) - len(changed)} kernels identical, {len(changed)} differ, '
              f'{len(set(a) - set(b))} only before, {len(set(b) - set(a))} only after')
        for k in changed:
            print(f'  differs: {k}')
        only_a, only_b = sorted(set(a) - set(b)), sorted(set(b) - set(a))
        if only_a and only_b:
            ua, ub = unscoped(only_a), unscoped(only_b)
            by_a = {ua[k]: k for k in only_a}
            renamed = [(by_a[ub[k]], k) for k in only_b if ub[k] in by_a]
            same = [pair for pair in renamed if a[pair[0]] == b[pair[1]]]
            differ = differ or len(same) != len(renamed)
            print(f'  into the metric\'s namespace: {len(same)} kernels identical, '
                  f'{len(renamed) - len(same)} differ')
            for ka, kb in renamed:
                if a[ka] != b[kb]:
                    print(f'  differs: {kb}')
            matched_a = {ka for ka, _ in renamed}
            matched_b = {kb for _, kb in renamed}
            only_a = [k for k in only_a if k not in matched_a]
            only_b = [k for k in only_b if k not in matched_b]
        moved_before.update({anonymous(k): a[k] for k in only_a})
        moved_after.update({anonymous(k): b[k] for k in only_b})
    for name in sorted(os.listdir(after_dir)):
        if name.endswith('.cubin') and not os.path.exists(os.path.join(before_dir, name)):
            moved_after.update({anonymous(k): v for k, v in kernels(os.path.join(after_dir, name)).items()})
    for name in sorted(os.listdir(before_dir)):
        if name.endswith('.cubin') and not os.path.exists(os.path.join(after_dir, name)):
            moved_before.update({anonymous(k): v for k, v in kernels(os.path.join(before_dir, name)).items()})
    # Kernels that moved from one source to another, compared by name.
    moved = sorted(set(moved_before) & set(moved_after))
    if moved:
        changed = [k for k in moved if moved_before[k] != moved_after[k]]
        differ = differ or bool(changed)
        print(f'moved between sources: {len(moved) - len(changed)} kernels identical, {len(changed)} differ')
        for k in changed:
            print(f'  differs: {k}')
    return 1 if differ else 0


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
