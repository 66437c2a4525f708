"""Frames already on the GPU as torch CUDA tensors, scored by exactvq in place against
the same frames copied to the host first (then scored on the GPU from host memory,
and on the CPU): frames/s of each, side by side in one run, the same bits asserted,
and the CUDA copies torch's profiler saw in the in-place path (device to device only).

    python3 bench/python_cuda_arrays.py [--frames 64] [--width 1920] [--height 1080]
        [--features ssim,psnr] [--repeats 7]

Needs torch with CUDA and the exactvq package (pip install ., or PYTHONPATH at it).
"""

import argparse
import statistics
import time

import numpy as np
import torch

import exactvq


def timed(fn, repeats):
    """The result of fn() and the median seconds of `repeats` calls after one warm-up."""
    result = fn()
    times = []
    for _ in range(repeats):
        torch.cuda.synchronize()
        start = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        times.append(time.perf_counter() - start)
    return result, statistics.median(times)


def same_bits(a, b):
    return all(np.asarray(a["scores"][k]).tobytes() == np.asarray(b["scores"][k]).tobytes() for k in a["scores"]) \
        and sorted(a["scores"]) == sorted(b["scores"])


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--frames", type=int, default=64)
    p.add_argument("--width", type=int, default=1920)
    p.add_argument("--height", type=int, default=1080)
    p.add_argument("--features", default="ssim,psnr")
    p.add_argument("--repeats", type=int, default=7)
    a = p.parse_args()
    features = a.features.split(",")
    g = torch.Generator(device="cuda").manual_seed(1)
    ref = torch.randint(0, 256, (a.frames, a.height, a.width), dtype=torch.uint8, device="cuda", generator=g)
    noise = torch.randint(-12, 13, ref.shape, dtype=torch.int16, device="cuda", generator=g)
    dist = (ref.to(torch.int16) + noise).clamp(0, 255).to(torch.uint8)
    torch.cuda.synchronize()

    in_place, t_in_place = timed(lambda: exactvq.score(ref, dist, features), a.repeats)

    def via_host(backend):
        return exactvq.score(ref.cpu().numpy(), dist.cpu().numpy(), features, backend=backend)

    host_gpu, t_host_gpu = timed(lambda: via_host("cuda"), a.repeats)
    host_cpu, t_host_cpu = timed(lambda: via_host("cpu"), max(1, a.repeats // 3))
    assert same_bits(in_place, host_gpu) and same_bits(in_place, host_cpu), "the three paths differ"

    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        exactvq.score(ref, dist, features)
        torch.cuda.synchronize()
    copies = {}
    for e in prof.events():
        if "Memcpy" in e.name:
            copies[e.name] = copies.get(e.name, 0) + 1

    n = a.frames
    print(f"{n} frames {a.width}x{a.height} 8-bit, features {features}, torch {torch.__version__}, "
          f"{torch.cuda.get_device_name()}, exactvq {exactvq.__version__}")
    print(f"in place (CUDA tensors)        : {n / t_in_place:9.1f} frames/s  ({t_in_place * 1e3:.2f} ms)")
    print(f"copied to host, scored on CUDA : {n / t_host_gpu:9.1f} frames/s  ({t_host_gpu * 1e3:.2f} ms)"
          f"  -> in place {t_host_gpu / t_in_place:.2f}x")
    print(f"copied to host, scored on CPU  : {n / t_host_cpu:9.1f} frames/s  ({t_host_cpu * 1e3:.2f} ms)"
          f"  -> in place {t_host_cpu / t_in_place:.2f}x")
    print(f"same bits on all three paths: {len(in_place['scores'])} scores x {n} frames")
    print("CUDA copies in the in-place path (torch profiler):", copies or "none")


if __name__ == "__main__":
    main()
