"""The installed package against known bits: the exactvq command line's scores of the sample pair
(data/ref.y4m, data/dist.y4m, and data/dist.mp4, an H.264 encoding of dist.y4m) and of a 10-bit
pair (data/ref10.y4m, data/dist10.y4m), stored in data/expected.json as float.hex() strings by
tools/wheel/make_expected.py; those of the 8-bit pair equal libvmaf's plain C (checked when made). Run against an installed package, from outside the source tree:

    python -m pytest --pyargs exactvq.tests -v

Files and numpy arrays on the CPU always; CUDA (host arrays with backend="cuda", torch CUDA tensors,
CuPy arrays) and OpenCL where present, else skipped with the reason. EXACTVQ_REQUIRE_GPU=1 turns
the CUDA skips into failures (on a GPU host a missing device is an error); EXACTVQ_REQUIRE_OPENCL=1
likewise for OpenCL."""

import json
import os
import pathlib

import numpy as np
import pytest

import exactvq

DATA = pathlib.Path(__file__).parent / "data"
EXPECTED = {r["name"]: r for r in json.loads((DATA / "expected.json").read_text())["runs"]}
CUDA_RUNS = ["features", "vmaf"]  # what the GPU engines compute (ssim, psnr, float_ssim, vmaf)


def planes_of(path):
    """The Y, Cb and Cr planes of an 8-bit 4:2:0 Y4M file, each (frames, height, width)."""
    data = path.read_bytes()
    header, _, rest = data.partition(b"\n")
    fields = {t[:1]: t[1:] for t in header.split()[1:]}
    width, height = int(fields[b"W"]), int(fields[b"H"])
    sizes = [(height, width)] + [((height + 1) // 2, (width + 1) // 2)] * 2
    planes = ([], [], [])
    while rest:
        line, _, rest = rest.partition(b"\n")
        assert line.startswith(b"FRAME")
        at = 0
        for plane, (h, w) in zip(planes, sizes):
            plane.append(np.frombuffer(rest[at:at + h * w], dtype=np.uint8).reshape(h, w))
            at += h * w
        rest = rest[at:]
    return tuple(np.stack(p) for p in planes)


def mono16_of(path):
    """The frames of a mono Y4M file of 9 to 16 bits (tag Cmono10, ...), as uint16 (frames, height, width)."""
    data = path.read_bytes()
    header, _, rest = data.partition(b"\n")
    fields = {t[:1]: t[1:] for t in header.split()[1:]}
    width, height = int(fields[b"W"]), int(fields[b"H"])
    assert fields[b"C"].startswith(b"mono") and int(fields[b"C"][4:]) > 8
    frame = len(b"FRAME\n") + 2 * width * height
    count = len(rest) // frame
    frames = [np.frombuffer(rest[i * frame + 6:(i + 1) * frame], dtype="<u2").reshape(height, width)
              for i in range(count)]
    return np.stack(frames).astype(np.uint16), int(fields[b"C"][4:])


REF, DIST = planes_of(DATA / "ref.y4m"), planes_of(DATA / "dist.y4m")
(REF10, BITS), (DIST10, _) = mono16_of(DATA / "ref10.y4m"), mono16_of(DATA / "dist10.y4m")


def arguments(run):
    return {"features": run["features"] or None, "models": run["models"] or None}


def assert_known_bits(result, run, names=None):
    """Per-frame scores and pooled values equal the stored ones, bit for bit."""
    names = list(run["scores"]) if names is None else names
    assert sorted(result["scores"]) == sorted(names)
    assert list(result["frames"]) == run["frames"]
    for name in names:
        want = np.array([float.fromhex(h) for h in run["scores"][name]], dtype=np.float64)
        got = np.asarray(result["scores"][name], dtype=np.float64)
        assert got.tobytes() == want.tobytes(), f"{name}: {got.tolist()} != {want.tolist()}"
        pooled = {k: float.fromhex(v) for k, v in run["pooled"][name].items()}
        assert result["pooled"][name] == pooled, name


def required(variable):
    return os.environ.get(variable, "") not in ("", "0")


def skip_or_fail(variable, reason):
    if required(variable):
        pytest.fail(f"{reason} ({variable} is set)")
    pytest.skip(reason)


def test_version_and_build(capsys):
    assert exactvq.__version__
    with capsys.disabled():  # which package ran, in the log
        print(f"\nexactvq {exactvq.__version__} from {os.path.dirname(exactvq.__file__)}: CUDA "
              f"{exactvq._exactvq._has_cuda_frames}, FFmpeg {exactvq._exactvq._has_ffmpeg}")


@pytest.mark.parametrize("name", ["features", "vmaf", "tenbit"])
def test_files_equal_known_bits(name):
    run = EXPECTED[name]
    result = exactvq.score_files(DATA / run["ref"], DATA / run["dist"], threads=2, **arguments(run))
    assert_known_bits(result, run)


def test_mp4_through_the_carried_ffmpeg_equals_known_bits():
    if not exactvq._exactvq._has_ffmpeg:
        pytest.skip("this exactvq was built without FFmpeg input (Y4M, raw YUV and arrays only)")
    run = EXPECTED["mp4"]
    result = exactvq.score_files(DATA / run["ref"], DATA / run["dist"], **arguments(run))
    assert_known_bits(result, run)


@pytest.mark.parametrize("name", ["features", "vmaf"])
def test_numpy_arrays_equal_known_bits(name):
    run = EXPECTED[name]
    assert_known_bits(exactvq.score(REF, DIST, **arguments(run)), run)


def test_numpy_ten_bit_equals_known_bits():
    run = EXPECTED["tenbit"]
    assert_known_bits(exactvq.score(REF10, DIST10, run["features"], bitdepth=BITS), run)


def test_numpy_luma_and_views():
    run = EXPECTED["features"]
    result = exactvq.score(REF[0], DIST[0], ["ssim", "psnr"], threads=1)
    assert_known_bits(result, run, ["ssim", "psnr_y"])
    # A strided view (every other frame) and a single plane.
    view = exactvq.score(REF[0][::2], DIST[0][::2], ["ssim"])["scores"]["ssim"]
    assert view.tobytes() == np.asarray(result["scores"]["ssim"][::2]).tobytes()
    one = exactvq.ssim(REF[0][3], DIST[0][3])
    assert one == float.fromhex(run["scores"]["ssim"][3])


def test_errors_are_exceptions_with_reasons():
    with pytest.raises(exactvq.UsageError, match="dtype"):
        exactvq.score(REF[0].astype(np.float32), DIST[0].astype(np.float32))
    with pytest.raises(exactvq.InputError):
        exactvq.score_files(DATA / "no_such_file.y4m", DATA / "dist.y4m")
    with pytest.raises(exactvq.Error, match="backend"):
        exactvq.score(REF[0], DIST[0], backend="no_such_backend")


def cuda_or_skip():
    """Skips (or fails, EXACTVQ_REQUIRE_GPU=1) where CUDA cannot run: no backend, no device."""
    if not exactvq._exactvq._has_cuda_frames:
        skip_or_fail("EXACTVQ_REQUIRE_GPU", "this exactvq was built without CUDA")
    try:
        exactvq.score(REF[0][:1], DIST[0][:1], ["psnr"], backend="cuda")
    except exactvq.DeviceError as e:
        skip_or_fail("EXACTVQ_REQUIRE_GPU", f"no CUDA device to score on: {e}")


@pytest.mark.parametrize("name", CUDA_RUNS)
def test_cuda_backend_on_host_arrays_equals_known_bits(name):
    cuda_or_skip()
    run = EXPECTED[name]
    assert_known_bits(exactvq.score(REF, DIST, backend="cuda", **arguments(run)), run)


def test_cuda_backend_on_ten_bit_arrays_equals_known_bits():
    cuda_or_skip()
    run = EXPECTED["tenbit"]
    assert_known_bits(exactvq.score(REF10, DIST10, run["features"], bitdepth=BITS, backend="cuda"), run)


@pytest.mark.parametrize("name", CUDA_RUNS + ["mp4", "tenbit"])
def test_cuda_backend_on_files_equals_known_bits(name):
    cuda_or_skip()
    if name == "mp4" and not exactvq._exactvq._has_ffmpeg:
        pytest.skip("this exactvq was built without FFmpeg input")
    run = EXPECTED[name]
    result = exactvq.score_files(DATA / run["ref"], DATA / run["dist"], backend="cuda", **arguments(run))
    assert_known_bits(result, run)


@pytest.mark.parametrize("name", CUDA_RUNS)
def test_torch_cuda_tensors_equal_known_bits(name):
    cuda_or_skip()
    try:
        import torch
    except ImportError:
        pytest.skip("torch is not installed")
    if not torch.cuda.is_available():
        skip_or_fail("EXACTVQ_REQUIRE_GPU", "torch sees no CUDA device")
    run = EXPECTED[name]
    ref = tuple(torch.from_numpy(p.copy()).cuda() for p in REF)
    dist = tuple(torch.from_numpy(p.copy()).cuda() for p in DIST)
    assert_known_bits(exactvq.score(ref, dist, **arguments(run)), run)  # backend cuda: in place
    luma = exactvq.score(ref[0], dist[0], ["ssim", "psnr"])
    assert_known_bits(luma, EXPECTED["features"], ["ssim", "psnr_y"])
    # 10-bit: torch's uint16, written on a side stream just before (exactvq waits for it).
    ten = EXPECTED["tenbit"]
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        ref10 = torch.from_numpy(REF10.astype(np.int32)).cuda().to(torch.uint16)
        dist10 = torch.from_numpy(DIST10.astype(np.int32)).cuda().to(torch.uint16)
        got = exactvq.score(ref10, dist10, ten["features"], bitdepth=BITS)
    assert_known_bits(got, ten)


@pytest.mark.parametrize("name", CUDA_RUNS)
def test_cupy_arrays_equal_known_bits(name):
    cuda_or_skip()
    try:
        import cupy
    except ImportError:
        pytest.skip("CuPy is not installed")
    try:
        ref = tuple(cupy.asarray(p) for p in REF)
        dist = tuple(cupy.asarray(p) for p in DIST)
    except Exception as e:  # noqa: BLE001 (CuPy without a usable device)
        skip_or_fail("EXACTVQ_REQUIRE_GPU", f"CuPy cannot allocate on a CUDA device: {e}")
    run = EXPECTED[name]
    assert_known_bits(exactvq.score(ref, dist, **arguments(run)), run)
    ten = EXPECTED["tenbit"]
    got = exactvq.score(cupy.asarray(REF10), cupy.asarray(DIST10), ten["features"], bitdepth=BITS)
    assert_known_bits(got, ten)


@pytest.mark.parametrize("name", CUDA_RUNS)
def test_opencl_backend_equals_known_bits(name):
    try:
        exactvq.score(REF[0][:1], DIST[0][:1], ["psnr"], backend="opencl")
    except exactvq.DeviceError as e:
        skip_or_fail("EXACTVQ_REQUIRE_OPENCL", f"no OpenCL device to score on: {e}")
    run = EXPECTED[name]
    assert_known_bits(exactvq.score(REF, DIST, backend="opencl", **arguments(run)), run)
