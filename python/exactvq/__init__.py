"""exactvq: libvmaf's metrics with the same bits on every machine.

Scores a distorted video against its reference with libvmaf 3.2.0's VMAF, integer
SSIM and PSNR, float SSIM and MS-SSIM; the CPU, CUDA and OpenCL backends return
identical bits, so scores can be compared with ``==``.

    >>> import exactvq
    >>> r = exactvq.score(ref, dist, features=["ssim", "psnr"])   # numpy, torch, CuPy, JAX
    >>> r["scores"]["ssim"], r["pooled"]["ssim"]["mean"]
    >>> exactvq.score_files("ref.y4m", "dist.mp4", models="version=vmaf_v0.6.1")

Frames are planes of uint8 (8 bits) or uint16 samples (9 to 16 bits): ``(H, W)`` is
one frame, ``(N, H, W)`` a batch of N scored together (in parallel on the CPU's
threads or on the GPU); a tuple ``(Y, Cb, Cr)`` of such arrays scores colour video,
its chroma format (4:2:0, 4:2:2, 4:4:4) told by the planes' sizes. Arrays in CUDA
memory (``__cuda_array_interface__`` or DLPack: torch, CuPy, JAX, Numba) are scored
where they lie, with no copy to the host, when the run computes on that GPU.
"""

from __future__ import annotations

import os
from typing import Any, Dict, Optional, Sequence, Tuple, Union

import numpy as np

from ._exactvq import (  # noqa: F401  (re-exported)
    DeviceError,
    Error,
    InputError,
    UsageError,
    __version__,
)
from . import _exactvq

__all__ = ["score", "score_files", "ssim", "Error", "UsageError", "InputError", "DeviceError",
           "__version__"]

_DL_CPU, _DL_CUDA, _DL_CUDA_HOST, _DL_CUDA_MANAGED = 1, 2, 3, 13

Features = Union[None, str, Sequence[str]]
Result = Dict[str, Any]


def _run_args(features: Features, models: Features, no_prediction: bool, mode: str, backend: str,
              threads: int, gpu: int) -> Any:
    args = _exactvq._RunArgs()
    args.features = features if features is None or isinstance(features, str) else list(features)
    args.models = models if models is None or isinstance(models, str) else list(models)
    args.no_prediction = bool(no_prediction)
    args.mode = mode
    args.backend = backend
    args.threads = int(threads)
    args.gpu = int(gpu)
    return args


class _CudaPlanes:
    """One plane of every frame in CUDA memory: pointer, shape, strides in bytes."""

    def __init__(self, data: int, shape: Tuple[int, ...], strides: Tuple[int, ...], itemsize: int,
                 dtype: str, stream: int, owner: Any):
        self.data, self.shape, self.strides = data, shape, strides
        self.itemsize, self.dtype, self.stream, self.owner = itemsize, dtype, stream, owner


def _c_order_strides(shape: Tuple[int, ...], itemsize: int) -> Tuple[int, ...]:
    """Byte strides of a C-ordered array (what a protocol means by no strides)."""
    strides, step = [], itemsize
    for s in reversed(shape):
        strides.insert(0, step)
        step *= s
    return tuple(strides)


def _cuda_array_interface(x: Any, what: str) -> _CudaPlanes:
    cai = x.__cuda_array_interface__
    typestr = cai["typestr"]
    if typestr not in ("|u1", "<u2", "=u2"):
        raise UsageError(f"{what}: dtype {typestr} is not uint8 or uint16 (native byte order)")
    itemsize = int(typestr[2])
    shape = tuple(int(s) for s in cai["shape"])
    strides = cai.get("strides")
    if strides is None:  # C order
        strides = _c_order_strides(shape, itemsize)
    stream = cai.get("stream")
    return _CudaPlanes(int(cai["data"][0]), shape, tuple(int(s) for s in strides), itemsize,
                       "uint8" if itemsize == 1 else "uint16", int(stream or 0), x)


def _dlpack(x: Any, what: str) -> Union[np.ndarray, _CudaPlanes]:
    kind, _ = x.__dlpack_device__()
    if kind in (_DL_CPU, _DL_CUDA_HOST):
        return np.from_dlpack(x)
    if kind not in (_DL_CUDA, _DL_CUDA_MANAGED):
        raise UsageError(f"{what}: DLPack device type {kind} is neither the CPU nor CUDA")
    if not hasattr(_exactvq, "_DlpackTensor"):
        raise UsageError(f"{what}: this exactvq was built without the DLPack header "
                         "(Debian's libdlpack-dev); give an array with __cuda_array_interface__")
    # stream=1: the producer orders its work before CUDA's legacy default stream,
    # which the scoring then waits for.
    try:
        capsule = x.__dlpack__(stream=1)
    except TypeError:
        capsule = x.__dlpack__()
    tensor = _exactvq._DlpackTensor(capsule)
    d = tensor.describe()
    if d["dtype_code"] != 1 or d["dtype_bits"] not in (8, 16) or d["dtype_lanes"] != 1:
        raise UsageError(f"{what}: DLPack dtype (code {d['dtype_code']}, {d['dtype_bits']} bits, "
                         f"{d['dtype_lanes']} lanes) is not uint8 or uint16")
    itemsize = d["dtype_bits"] // 8
    shape = tuple(d["shape"])
    if d["strides"] is None:
        strides = _c_order_strides(shape, itemsize)
    else:
        strides = [s * itemsize for s in d["strides"]]
    return _CudaPlanes(d["data"], shape, tuple(strides), itemsize, "uint8" if itemsize == 1 else "uint16",
                       1, (x, tensor))


def _planes_of(x: Any, what: str) -> Union[np.ndarray, _CudaPlanes]:
    """An array as numpy (host memory) or _CudaPlanes (CUDA memory)."""
    if isinstance(x, np.ndarray):
        return x
    if hasattr(x, "__cuda_array_interface__"):
        return _cuda_array_interface(x, what)
    if hasattr(x, "__dlpack_device__") and hasattr(x, "__dlpack__"):
        return _dlpack(x, what)
    try:
        return np.asarray(x)
    except Exception as e:  # noqa: BLE001 (any failure is the caller's array)
        raise UsageError(f"{what}: {type(x).__name__} is not an array exactvq can read ({e})") from None


def _dtype_name(a: Union[np.ndarray, _CudaPlanes]) -> str:
    return a.dtype if isinstance(a, _CudaPlanes) else str(a.dtype)


def _plane_set(a: Union[np.ndarray, _CudaPlanes], what: str) -> Tuple[Any, Tuple[int, int, int], Any]:
    """(the C++ plane description, (frames, height, width), the object holding the memory)."""
    if len(a.shape) not in (2, 3):
        raise UsageError(f"{what}: {len(a.shape)}-D array; give one plane (height, width) or frames "
                         "(count, height, width)")
    if isinstance(a, np.ndarray):
        if a.dtype not in (np.uint8, np.uint16) or not a.dtype.isnative:
            raise UsageError(f"{what}: dtype {a.dtype} is not uint8 or uint16 (native byte order)")
        if a.ndim == 2:
            a = a[np.newaxis]
        # Rows and frames may have any forward stride; samples must be adjacent.
        if a.strides[2] != a.itemsize or a.strides[1] <= 0 or a.strides[0] < 0:
            a = np.ascontiguousarray(a)
        data, shape, strides = a.ctypes.data, a.shape, a.strides
    else:
        shape, strides = tuple(a.shape), tuple(a.strides)
        if len(shape) == 2:
            shape, strides = (1,) + shape, (0,) + strides
        if strides[2] != a.itemsize or strides[1] <= 0 or strides[0] < 0:
            raise UsageError(f"{what}: CUDA array with strides {strides} bytes: samples must be "
                             f"adjacent ({a.itemsize} bytes apart) and rows and frames forward; make it "
                             "contiguous first (torch: .contiguous(), CuPy: cupy.ascontiguousarray)")
        data = a.data
    n, h, w = (int(v) for v in shape)
    plane = _exactvq._PlaneSet(data=int(data), count=n, height=h, width=w, frame_stride=int(strides[0]),
                               row_stride=int(strides[1]))
    return plane, (n, h, w), a


def _chroma_of(shapes: Sequence[Tuple[int, int, int]], what: str) -> str:
    if len(shapes) == 1:
        return "mono"
    (n, h, w), (cn, ch, cw), (vn, vh, vw) = shapes
    if (cn, ch, cw) != (vn, vh, vw) or cn != n:
        raise UsageError(f"{what}: planes of shapes {shapes[0]}, {shapes[1]}, {shapes[2]} do not form frames")
    half_w, half_h = (w + 1) // 2, (h + 1) // 2
    if (ch, cw) == (h, w):
        return "444"
    if (ch, cw) == (h, half_w):
        return "422"
    if (ch, cw) == (half_h, half_w):
        return "420"
    raise UsageError(f"{what}: chroma planes of {ch}x{cw} fit no chroma format of a {h}x{w} luma plane "
                     f"(4:4:4 {h}x{w}, 4:2:2 {h}x{half_w}, 4:2:0 {half_h}x{half_w})")


def _device_index(x: Any) -> Optional[int]:
    """The CUDA device of a torch tensor or CuPy array, where it says."""
    device = getattr(x, "device", None)
    for attribute in ("index", "id"):  # torch.device.index, cupy.cuda.Device.id
        value = getattr(device, attribute, None)
        if isinstance(value, int):
            return value
    return None


class _Side:
    """One side's frames: plane descriptions, shapes, sample type, memory."""

    def __init__(self, x: Any, what: str):
        parts = list(x) if isinstance(x, tuple) else [x]
        if len(parts) not in (1, 3):
            raise UsageError(f"{what}: a tuple of {len(parts)} planes; give one array or (Y, Cb, Cr)")
        names = [f"{what} plane {i}" if len(parts) > 1 else what for i in range(len(parts))]
        arrays = [_planes_of(p, n) for p, n in zip(parts, names)]
        kinds = {isinstance(a, _CudaPlanes) for a in arrays}
        if len(kinds) != 1:
            raise UsageError(f"{what}: some planes are in CUDA memory and some in host memory")
        self.on_cuda = kinds.pop()
        sets = [_plane_set(a, n) for a, n in zip(arrays, names)]
        self.planes = [s[0] for s in sets]
        self.shapes = [s[1] for s in sets]
        self.keep = [s[2] for s in sets]  # the memory stays alive while it is scored
        self.types = [_dtype_name(a) for a in arrays]
        self.stream = next((a.stream for a in arrays if isinstance(a, _CudaPlanes) and a.stream), 0)
        self.device = _device_index(parts[0]) if self.on_cuda else None


def score(ref: Any, dist: Any, features: Features = None, *, models: Features = None,
          bitdepth: Optional[int] = None, backend: Optional[str] = None, mode: str = "exact",
          threads: int = 0, gpu: Optional[int] = None, no_prediction: bool = False) -> Result:
    """Scores distorted frames against reference frames held in arrays.

    ref, dist: one array of luma planes, ``(H, W)`` or ``(N, H, W)``, or a tuple
        ``(Y, Cb, Cr)`` of them; uint8 for 8 bits, uint16 for 9 to 16. numpy arrays
        and anything with ``__array__``, DLPack or ``__cuda_array_interface__``.
    features: ``--feature`` strings of the command line ("ssim", "psnr",
        "float_ssim=scale=1", "vif", ...); models: ``--model`` strings
        ("version=vmaf_v0.6.1"), scored after their features; neither: "ssim".
    bitdepth: 8 to 16; required for uint16 samples.
    backend: "cpu", "cuda", "opencl" or "auto"; default "cuda" for arrays in CUDA
        memory (scored there without a copy to the host), else "cpu".
    mode: "exact" (the fixed-point SSIM sum) or "raster" (libvmaf's order).
    threads: CPU threads, 0 for all cores; gpu: the CUDA device, by default the
        one holding arrays in CUDA memory (torch's and CuPy's say which), else 0.

    Returns ``{"frames": frame numbers, "scores": {name: per-frame float64 array},
    "pooled": {name: {"min", "max", "mean", "harmonic_mean"}}}``; raises UsageError
    for bad arguments and arrays, InputError for samples above the bit depth's
    maximum, DeviceError when the backend is missing or fails.
    """
    r, d = _Side(ref, "ref"), _Side(dist, "dist")
    if r.shapes != d.shapes:
        raise UsageError(f"ref and dist shapes differ: {r.shapes} vs {d.shapes}")
    if r.on_cuda != d.on_cuda:
        raise UsageError("ref and dist must both be in CUDA memory or both in host memory")
    types = sorted(set(r.types + d.types))
    if len(types) != 1:
        raise UsageError(f"ref and dist mix sample types: {types}")
    if bitdepth is None:
        if types[0] != "uint8":
            raise UsageError("uint16 samples need bitdepth= (9 to 16)")
        bitdepth = 8
    if not 8 <= bitdepth <= 16:
        raise UsageError(f"bitdepth {bitdepth} is not 8..16")
    if bitdepth == 8 and types[0] != "uint8":
        raise UsageError("bitdepth 8 needs uint8 samples, not uint16")
    if bitdepth > 8 and types[0] != "uint16":
        raise UsageError(f"bitdepth {bitdepth} needs uint16 samples, not uint8")
    if r.shapes[0][0] == 0:
        raise UsageError(f"ref and dist hold no frames: (frames, height, width) {r.shapes[0]}")
    chroma = _chroma_of(r.shapes, "ref")
    if backend is None:
        backend = "cuda" if r.on_cuda else "cpu"
    if gpu is None:
        gpu = r.device if r.on_cuda and r.device is not None else 0
    args = _run_args(features, models, no_prediction, mode, backend, threads, gpu)
    return _exactvq._score_planes(r.planes, d.planes, r.on_cuda, r.stream or d.stream, chroma, bitdepth, args)


def score_files(ref_path: Union[str, os.PathLike], dist_path: Union[str, os.PathLike],
                features: Features = None, *, models: Features = None, mode: str = "exact",
                backend: str = "cpu", threads: int = 0, gpu: int = 0, width: int = 0, height: int = 0,
                chroma: str = "", bitdepth: int = 0, frame_count: int = -1, skip_ref: int = 0,
                skip_dist: int = 0, subsample: int = 1, no_prediction: bool = False) -> Result:
    """Scores two video files as the exactvq command line does.

    Y4M, raw YUV (give width, height, chroma "420"/"422"/"444"/"mono" and bitdepth)
    or anything FFmpeg decodes (MP4, MKV, WebM, IVF). features, models, mode,
    backend, threads, gpu: as score(). frame_count (-1: all), skip_ref, skip_dist,
    subsample: as --frame_cnt, --frame_skip_ref, --frame_skip_dist, --subsample.
    Returns what score() returns; a warning when one input ends first.
    """
    args = _run_args(features, models, no_prediction, mode, backend, threads, gpu)
    return _exactvq._score_files(ref_path, dist_path, args, int(width), int(height), str(chroma),
                                 int(bitdepth), int(frame_count), int(skip_ref), int(skip_dist),
                                 int(subsample))


def ssim(ref: Any, dist: Any, bitdepth: int = 8, mode: str = "exact", backend: str = "cpu",
         threads: int = 0) -> Union[float, np.ndarray]:
    """SSIM of luma planes: a float for one plane ``(H, W)``, an array for ``(N, H, W)``."""
    shape = getattr(ref, "shape", None)
    result = score(ref, dist, ["ssim"], bitdepth=bitdepth, backend=backend, mode=mode, threads=threads)
    values = result["scores"]["ssim"]
    return float(values[0]) if shape is not None and len(shape) == 2 else values
