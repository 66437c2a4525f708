"""The Python package against the command line: the same bits as `exactvq --precision max`
on the bundled samples and on made-up 10-bit video, from files and from arrays (numpy,
DLPack, torch where installed), and errors as Python exceptions carrying exactvq's
messages.

Run by ctest with /usr/bin/python3 and PYTHONPATH at the build tree's package, and by
tests/python/pip_install_test.sh with the interpreter of a virtual environment the
package was pip-installed into; EXACTVQ_CLI, EXACTVQ_SAMPLES, EXACTVQ_TEST_TMP set."""

import json
import os
import subprocess
import unittest
import warnings

import numpy as np

import exactvq

CLI = os.environ["EXACTVQ_CLI"]
SAMPLES = os.environ["EXACTVQ_SAMPLES"]
TMP = os.environ["EXACTVQ_TEST_TMP"]
REF = os.path.join(SAMPLES, "ref.y4m")
DIST = os.path.join(SAMPLES, "dist.y4m")


def cli_scores(ref, dist, *args):
    """The CLI's JSON report with shortest round-trip numbers, parsed: the features
    alone (-n) unless a model is named, as score() gives them."""
    if "--feature" in args and not any(a in ("-m", "--model", "-n", "--no_prediction") for a in args):
        args = (*args, "-n")
    out = subprocess.run([CLI, "-r", ref, "-d", dist, "--precision", "max", "--json", "-o", "-", *args],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def cli_series(report, name):
    return np.array([f["metrics"][name] for f in report["frames"]], dtype=np.float64)


def read_y4m_planes(path):
    """The Y, Cb and Cr planes of an 8-bit 4:2:0 Y4M file, each (frames, height, width)."""
    with open(path, "rb") as f:
        data = f.read()
    header, _, rest = data.partition(b"\n")
    fields = {t[:1]: t[1:] for t in header.split()[1:]}
    width, height = int(fields[b"W"]), int(fields[b"H"])
    cw, ch = (width + 1) // 2, (height + 1) // 2
    planes = ([], [], [])
    while rest:
        line, _, rest = rest.partition(b"\n")
        assert line.startswith(b"FRAME")
        at = 0
        for plane, (w, h) in zip(planes, [(width, height), (cw, ch), (cw, ch)]):
            plane.append(np.frombuffer(rest[at:at + w * h], dtype=np.uint8).reshape(h, w))
            at += w * h
        rest = rest[at:]
    return tuple(np.stack(p) for p in planes)


def read_y4m_luma(path):
    """The luma planes of an 8-bit 4:2:0 Y4M file, as (frames, height, width)."""
    return read_y4m_planes(path)[0]


def write_y4m_mono16(path, frames, bitdepth):
    """Frames (count, height, width) of uint16 as a mono Y4M file of `bitdepth` bits
    (8: uint8 frames, tag Cmono)."""
    count, height, width = frames.shape
    with open(path, "wb") as f:
        tag = b"mono" if bitdepth == 8 else b"mono%d" % bitdepth
        f.write(b"YUV4MPEG2 W%d H%d F25:1 Ip A1:1 C%s\n" % (width, height, tag))
        for frame in frames:
            f.write(b"FRAME\n")
            f.write(frame.astype("u1" if bitdepth == 8 else "<u2").tobytes())


def same_bits(a, b):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return a.shape == b.shape and a.tobytes() == b.tobytes()


class ScoreFiles(unittest.TestCase):
    def test_equals_the_cli_bit_for_bit(self):
        for feature in ["ssim", "ssim=chroma=true", "ssim=sum=raster:chroma=true", "ssim=enable_db=true"]:
            with self.subTest(feature=feature):
                result = exactvq.score_files(REF, DIST, features=[feature], threads=1)
                expected = cli_scores(REF, DIST, "--feature", feature)
                self.assertEqual(list(result["frames"]), [f["frameNum"] for f in expected["frames"]])
                self.assertEqual(set(result["scores"]), set(expected["pooled_metrics"]))
                for name, values in result["scores"].items():
                    self.assertTrue(same_bits(values, cli_series(expected, name)), name)
                    self.assertEqual(result["pooled"][name], expected["pooled_metrics"][name])

    def test_mode_and_frame_selection(self):
        result = exactvq.score_files(REF, DIST, mode="raster", subsample=2, skip_ref=1, skip_dist=1,
                                     frame_count=6)
        expected = cli_scores(REF, DIST, "--feature", "ssim=sum=raster", "--subsample", "2",
                              "--frame_skip_ref", "1", "--frame_skip_dist", "1", "--frame_cnt", "6")
        self.assertEqual(list(result["frames"]), [0, 2, 4])
        self.assertTrue(same_bits(result["scores"]["ssim"], cli_series(expected, "ssim")))

    def test_shorter_input_warns(self):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = exactvq.score_files(REF, DIST, skip_ref=3)
        self.assertEqual(len(result["frames"]), 7)
        self.assertEqual(len(caught), 1)
        self.assertIn("ref.y4m", str(caught[0].message))

    def test_errors_carry_the_message(self):
        with self.assertRaisesRegex(exactvq.InputError, "cannot open .*missing.y4m"):
            exactvq.score_files(REF, os.path.join(TMP, "missing.y4m"))
        with self.assertRaisesRegex(exactvq.UsageError, "unknown feature 'vmaf'"):
            exactvq.score_files(REF, DIST, features="vmaf")
        with self.assertRaisesRegex(ValueError, "sum=fast is not exact or raster"):
            exactvq.score_files(REF, DIST, features="ssim=sum=fast")
        with self.assertRaisesRegex(exactvq.UsageError, "chroma '411'"):
            exactvq.score_files(REF, DIST, chroma="411")
        with self.assertRaisesRegex(exactvq.Error, "subsample 0"):
            exactvq.score_files(REF, DIST, subsample=0)


class Ssim(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.ref = read_y4m_luma(REF)
        cls.dist = read_y4m_luma(DIST)

    def test_luma_stacks_equal_the_cli(self):
        for mode, feature in [("exact", "ssim"), ("raster", "ssim=sum=raster")]:
            with self.subTest(mode=mode):
                scores = exactvq.ssim(self.ref, self.dist, mode=mode)
                self.assertIsInstance(scores, np.ndarray)
                self.assertTrue(same_bits(scores, cli_series(cli_scores(REF, DIST, "--feature", feature), "ssim")))

    def test_one_plane_is_a_float(self):
        stack = exactvq.ssim(self.ref, self.dist, threads=2)
        one = exactvq.ssim(self.ref[4], self.dist[4], threads=1)
        self.assertIsInstance(one, float)
        self.assertTrue(same_bits(one, stack[4]))

    def test_views_and_copies_agree(self):
        # Every other column (samples not adjacent: copied), rows bottom up (negative stride).
        odd = exactvq.ssim(self.ref[:, :, ::2], self.dist[:, :, ::2])
        self.assertTrue(same_bits(odd, exactvq.ssim(np.ascontiguousarray(self.ref[:, :, ::2]),
                                                    np.ascontiguousarray(self.dist[:, :, ::2]))))
        flipped = exactvq.ssim(self.ref[:, ::-1, :], self.dist[:, ::-1, :])
        self.assertTrue(same_bits(flipped, exactvq.ssim(self.ref[:, ::-1, :].copy(),
                                                        self.dist[:, ::-1, :].copy())))

    def test_ten_bit_equals_the_cli(self):
        rng = np.random.default_rng(7)
        ref = rng.integers(0, 1024, size=(3, 30, 41), dtype=np.uint16)
        dist = np.clip(ref.astype(np.int32) + rng.integers(-40, 41, size=ref.shape), 0, 1023).astype(np.uint16)
        os.makedirs(TMP, exist_ok=True)
        ref_path, dist_path = os.path.join(TMP, "ref10.y4m"), os.path.join(TMP, "dist10.y4m")
        write_y4m_mono16(ref_path, ref, 10)
        write_y4m_mono16(dist_path, dist, 10)
        expected = cli_series(cli_scores(ref_path, dist_path, "--feature", "ssim"), "ssim")
        self.assertTrue(same_bits(exactvq.ssim(ref, dist, bitdepth=10), expected))
        files = exactvq.score_files(ref_path, dist_path)
        self.assertTrue(same_bits(files["scores"]["ssim"], expected))
        # The same samples as raw YUV, described by the keyword arguments.
        raw_ref, raw_dist = os.path.join(TMP, "ref10.yuv"), os.path.join(TMP, "dist10.yuv")
        ref.astype("<u2").tofile(raw_ref)
        dist.astype("<u2").tofile(raw_dist)
        raw = exactvq.score_files(raw_ref, raw_dist, width=41, height=30, chroma="mono", bitdepth=10)
        self.assertTrue(same_bits(raw["scores"]["ssim"], expected))

    def test_bad_arrays_are_refused_with_a_reason(self):
        u8 = self.ref[0]
        with self.assertRaisesRegex(exactvq.UsageError, "bitdepth 10 needs uint16"):
            exactvq.ssim(u8, u8, bitdepth=10)
        with self.assertRaisesRegex(exactvq.UsageError, "bitdepth 8 needs uint8"):
            exactvq.ssim(u8.astype(np.uint16), u8.astype(np.uint16))
        with self.assertRaisesRegex(exactvq.UsageError, "dtype float64"):
            exactvq.ssim(u8.astype(np.float64), u8.astype(np.float64))
        with self.assertRaisesRegex(exactvq.UsageError, "shapes differ"):
            exactvq.ssim(u8, u8[:-1])
        with self.assertRaisesRegex(exactvq.UsageError, "1-D array"):
            exactvq.ssim(u8[0], u8[0])
        with self.assertRaisesRegex(exactvq.UsageError, "mode 'fast'"):
            exactvq.ssim(u8, u8, mode="fast")
        with self.assertRaisesRegex(exactvq.UsageError, "backend 'tpu'"):
            exactvq.ssim(u8, u8, backend="tpu")
        big = np.zeros((4, 8), dtype=np.uint16)
        big[2, 5] = 1024
        with self.assertRaisesRegex(exactvq.InputError,
                                    r"frame 0, distorted picture: plane Y, x=5, y=2: sample 1024 exceeds the 10-bit maximum 1023"):
            exactvq.ssim(np.zeros((4, 8), dtype=np.uint16), big, bitdepth=10)
        with self.assertRaisesRegex(exactvq.InputError, "invalid size 0x4"):
            exactvq.ssim(np.zeros((4, 0), dtype=np.uint8), np.zeros((4, 0), dtype=np.uint8))


class Vmaf(unittest.TestCase):
    """VMAF v0.6.1 and its NEG model through Python: every frame's every value
    libvmaf 3.2.0 printed for the public vectors (its plain C run), bit for bit."""

    def test_public_vectors_equal_libvmaf(self):
        vectors = os.path.join(os.environ.get("EXACTVQ_SHARED_DIR", ""), "vectors")
        path = os.path.join(vectors, "libvmaf_vmaf_scores.json")
        if not os.path.exists(path):
            self.skipTest("no shared vectors at " + vectors)
        with open(path) as f:
            text = f.read()
        # "-0" must stay a negative zero: read every number as a float.
        pairs = json.loads(text, parse_int=float)["pairs"]
        compared = 0
        for name, pair in pairs.items():
            fmt = pair["format"]
            for run, model in (("vmaf_v0.6.1_nosimd", "vmaf_v0.6.1"), ("vmaf_v0.6.1neg", "vmaf_v0.6.1neg")):
                stored = pair["runs"][run]
                if stored["rc"] != 0:
                    continue
                ext = fmt["file_type"]
                raw = {}
                if ext == "yuv":
                    raw = dict(width=int(fmt["width"]), height=int(fmt["height"]), chroma=fmt["chroma"],
                               bitdepth=int(fmt["bitdepth"]))
                got = exactvq.score_files(os.path.join(vectors, name, "ref." + ext),
                                          os.path.join(vectors, name, "dist." + ext),
                                          models="version=" + model, threads=2, **raw)
                # The NEG run used libvmaf's SIMD, which differs from its C on the
                # keys simd_vs_c lists (none a model input).
                skip = {(d["frame"], d["metric"]) for d in pair.get("simd_vs_c", {}).get("differences", [])}
                for i, frame in enumerate(stored["frames"]):
                    for key, want in frame.items():
                        if key == "frameNum" or (run != "vmaf_v0.6.1_nosimd" and
                                                 (i, key.removesuffix("_egl_1")) in skip):
                            continue
                        self.assertTrue(same_bits(got["scores"][key][i], want), (name, run, i, key))
                        compared += 1
        self.assertGreater(compared, 1000)

    def test_no_prediction_scores_the_features_only(self):
        got = exactvq.score_files(REF, DIST, models="version=vmaf_v0.6.1", no_prediction=True)
        self.assertNotIn("vmaf", got["scores"])
        self.assertIn("integer_motion2", got["scores"])


class OnlyDlpack:
    """An array seen only through DLPack (as a JAX or torch array offers it)."""

    def __init__(self, array):
        self.array = array

    def __dlpack__(self, stream=None):
        return self.array.__dlpack__()

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()


class FakeCudaArray:
    """__cuda_array_interface__ over host memory: exactvq must refuse it."""

    def __init__(self, array):
        self.array = array
        self.__cuda_array_interface__ = {"shape": array.shape, "typestr": array.dtype.str,
                                         "data": (array.ctypes.data, True),
                                         "strides": None if array.flags.c_contiguous else array.strides,
                                         "version": 3, "stream": None}


class Arrays(unittest.TestCase):
    """exactvq.score on arrays: the CLI's bits on the same frames, every input kind."""

    @classmethod
    def setUpClass(cls):
        cls.planes = read_y4m_planes(REF)
        cls.dist_planes = read_y4m_planes(DIST)

    def assert_same_as_cli(self, result, expected, names=None):
        for name in names or result["scores"]:
            self.assertTrue(same_bits(result["scores"][name], cli_series(expected, name)), name)
            self.assertEqual(result["pooled"][name], expected["pooled_metrics"][name], name)

    def test_colour_frames_equal_the_cli(self):
        for features in (["ssim=chroma=true", "psnr"], ["float_ssim=enable_db=true:clip_db=true"]):
            with self.subTest(features=features):
                got = exactvq.score(self.planes, self.dist_planes, features, threads=2)
                args = [a for f in features for a in ("--feature", f)]
                self.assert_same_as_cli(got, cli_scores(REF, DIST, *args))

    def test_multiscale_ssim_on_arrays_and_files_equals_the_cli(self):
        rng = np.random.default_rng(11)
        ref = rng.integers(0, 256, size=(2, 180, 200), dtype=np.uint8)
        dist = np.clip(ref.astype(np.int32) + rng.integers(-20, 21, size=ref.shape), 0, 255).astype(np.uint8)
        os.makedirs(TMP, exist_ok=True)
        ref_path, dist_path = os.path.join(TMP, "ref_ms.y4m"), os.path.join(TMP, "dist_ms.y4m")
        write_y4m_mono16(ref_path, ref, 8)
        write_y4m_mono16(dist_path, dist, 8)
        features = ["float_ms_ssim", "float_ssim=enable_lcs=true"]
        expected = cli_scores(ref_path, dist_path, *[a for f in features for a in ("--feature", f)])
        self.assert_same_as_cli(exactvq.score(ref, dist, features), expected)
        self.assert_same_as_cli(exactvq.score_files(ref_path, dist_path, features), expected)

    def test_vmaf_on_arrays_equals_the_cli(self):
        got = exactvq.score(self.planes, self.dist_planes, models="version=vmaf_v0.6.1")
        self.assert_same_as_cli(got, cli_scores(REF, DIST))

    def test_luma_planes_equal_the_cli_on_luma(self):
        got = exactvq.score(self.planes[0], self.dist_planes[0], ["ssim", "psnr"])
        self.assertEqual(sorted(got["scores"]), ["psnr_y", "ssim"])
        self.assert_same_as_cli(got, cli_scores(REF, DIST, "--feature", "ssim", "--feature", "psnr"),
                                ["ssim", "psnr_y"])
        self.assertEqual(list(got["frames"]), list(range(len(self.planes[0]))))

    def test_dlpack_and_array_likes_give_the_same_bits(self):
        want = exactvq.score(self.planes, self.dist_planes, ["ssim=chroma=true"])["scores"]
        wrapped = tuple(OnlyDlpack(p) for p in self.planes), tuple(OnlyDlpack(p) for p in self.dist_planes)
        got = exactvq.score(*wrapped, ["ssim=chroma=true"])["scores"]
        # The buffer protocol (a memoryview of uint8); Python lists of ints are int64.
        lists = exactvq.score(memoryview(self.planes[0][:2].copy()), memoryview(self.dist_planes[0][:2].copy()))
        with self.assertRaisesRegex(exactvq.UsageError, "dtype int64"):
            exactvq.score(self.planes[0][:2].tolist(), self.dist_planes[0][:2].tolist())
        for name in want:
            self.assertTrue(same_bits(got[name], want[name]), name)
        self.assertTrue(same_bits(lists["scores"]["ssim"], want["ssim"][:2]))

    def test_torch_tensors_give_the_same_bits(self):
        try:
            import torch
        except ImportError:
            self.skipTest("torch is not installed (the CPU wheel is not on PyPI): its DLPack path "
                          "is covered by OnlyDlpack")
        want = exactvq.score(self.planes, self.dist_planes, ["ssim=chroma=true", "psnr"])["scores"]
        got = exactvq.score(tuple(torch.from_numpy(p.copy()) for p in self.planes),
                            tuple(torch.from_numpy(p.copy()) for p in self.dist_planes),
                            ["ssim=chroma=true", "psnr"])["scores"]
        for name in want:
            self.assertTrue(same_bits(got[name], want[name]), name)

    def test_bad_arrays_are_refused_with_a_reason(self):
        y, u, v = (p[:2] for p in self.planes)
        with self.assertRaisesRegex(exactvq.UsageError, "uint16 samples need bitdepth="):
            exactvq.score(y.astype(np.uint16), y.astype(np.uint16))
        with self.assertRaisesRegex(exactvq.UsageError, "dtype >u2 is not uint8 or uint16"):
            exactvq.score(y.astype(">u2"), y.astype(">u2"), bitdepth=10)
        with self.assertRaisesRegex(exactvq.UsageError, "4-D array"):
            exactvq.score(y[np.newaxis], y[np.newaxis])
        with self.assertRaisesRegex(exactvq.UsageError, "fit no chroma format"):
            exactvq.score((y, u[:, :-1, :-1], v[:, :-1, :-1]), (y, u[:, :-1, :-1], v[:, :-1, :-1]))
        with self.assertRaisesRegex(exactvq.UsageError, "a tuple of 2 planes"):
            exactvq.score((y, u), (y, u))
        with self.assertRaisesRegex(exactvq.UsageError, "hold no frames"):
            exactvq.score(y[:0], y[:0])
        with self.assertRaisesRegex(exactvq.UsageError, "mix sample types"):
            exactvq.score(y, y.astype(np.uint16), bitdepth=8)
        with self.assertRaisesRegex(exactvq.UsageError, "both be in CUDA memory or both in host"):
            exactvq.score(FakeCudaArray(y), y)
        with self.assertRaisesRegex(exactvq.UsageError, "unknown feature 'vmaf'"):
            exactvq.score(y, y, "vmaf")
        # CUDA memory is checked where it is claimed.
        with self.assertRaises((exactvq.InputError, exactvq.DeviceError)) as caught:
            exactvq.score(FakeCudaArray(y), FakeCudaArray(y))
        self.assertRegex(str(caught.exception), "not in CUDA device memory|built without CUDA")
        with self.assertRaisesRegex(exactvq.UsageError, "samples must be adjacent"):
            exactvq.score(FakeCudaArray(np.asfortranarray(y[0])), FakeCudaArray(np.asfortranarray(y[0])))


class Package(unittest.TestCase):
    def test_version_and_types(self):
        self.assertRegex(exactvq.__version__, r"^\d+\.\d+\.\d+$")
        here = os.path.dirname(exactvq.__file__)
        self.assertTrue(os.path.exists(os.path.join(here, "py.typed")))
        self.assertTrue(os.path.exists(os.path.join(here, "_exactvq.pyi")))
        self.assertTrue(issubclass(exactvq.UsageError, ValueError))


class CudaArrays(unittest.TestCase):
    """Arrays in CUDA memory (torch, DLPack, CuPy): scored in place with the host's bits.
    Skipped with a message where torch, a GPU or exactvq's CUDA backend is missing."""

    @classmethod
    def setUpClass(cls):
        try:
            import torch
        except ImportError:
            raise unittest.SkipTest("torch is not installed: arrays in CUDA memory untested here")
        if not torch.cuda.is_available():
            raise unittest.SkipTest("no CUDA device: arrays in CUDA memory untested here")
        if not exactvq._exactvq._has_cuda_frames:
            raise unittest.SkipTest("this exactvq was built without CUDA")
        cls.torch = torch
        cls.planes = read_y4m_planes(REF)
        cls.dist_planes = read_y4m_planes(DIST)

    def on_gpu(self, planes):
        return tuple(self.torch.from_numpy(p.copy()).cuda() for p in planes)

    def assert_same(self, got, want):
        self.assertEqual(sorted(got["scores"]), sorted(want["scores"]))
        for name in want["scores"]:
            self.assertTrue(same_bits(got["scores"][name], want["scores"][name]), name)

    def test_torch_tensors_are_scored_in_place(self):
        features = ["ssim=chroma=true", "psnr"]
        want = exactvq.score(self.planes, self.dist_planes, features)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            got = exactvq.score(self.on_gpu(self.planes), self.on_gpu(self.dist_planes), features)
        self.assert_same(got, want)
        self.assertFalse([w for w in caught if "copied to the host" in str(w.message)])
        # Luma only, 10-bit, a batch written on a side stream just before.
        rng = np.random.default_rng(3)
        ref10 = rng.integers(0, 1024, (5, 67, 93), dtype=np.uint16)
        dist10 = np.clip(ref10.astype(np.int32) + rng.integers(-9, 10, ref10.shape), 0, 1023).astype(np.uint16)
        side = self.torch.cuda.Stream()
        with self.torch.cuda.stream(side):
            r = self.torch.from_numpy(ref10.astype(np.int32)).cuda().to(self.torch.uint16)
            d = self.torch.from_numpy(dist10.astype(np.int32)).cuda().to(self.torch.uint16)
            got = exactvq.score(r, d, ["ssim", "psnr"], bitdepth=10)
        self.assert_same(got, exactvq.score(ref10, dist10, ["ssim", "psnr"], bitdepth=10))

    def test_vmaf_in_place_and_a_cpu_run_from_a_copy(self):
        want = exactvq.score(self.planes, self.dist_planes, ["float_ssim"], models="version=vmaf_v0.6.1")
        for backend, copied in (("cuda", False), ("cpu", True)):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                got = exactvq.score(self.on_gpu(self.planes), self.on_gpu(self.dist_planes), ["float_ssim"],
                                    models="version=vmaf_v0.6.1", backend=backend)
            self.assert_same(got, want)
            self.assertEqual(bool([w for w in caught if "copied to the host" in str(w.message)]), copied, backend)

    def test_dlpack_and_cupy(self):
        want = exactvq.score(self.planes[0], self.dist_planes[0], ["ssim", "psnr"])
        ref, dist = self.on_gpu(self.planes[:1])[0], self.on_gpu(self.dist_planes[:1])[0]
        self.assert_same(exactvq.score(OnlyDlpack(ref), OnlyDlpack(dist), ["ssim", "psnr"]), want)
        try:
            import cupy
        except ImportError:
            return
        self.assert_same(exactvq.score(cupy.asarray(self.planes[0]), cupy.asarray(self.dist_planes[0]),
                                       ["ssim", "psnr"]), want)

    def test_bad_cuda_arrays_are_refused(self):
        ref = self.on_gpu(self.planes[:1])[0]
        with self.assertRaisesRegex(exactvq.UsageError, "samples must be adjacent"):
            exactvq.score(ref.transpose(1, 2), ref.transpose(1, 2))
        with self.assertRaisesRegex(exactvq.UsageError, "dtype <f4"):
            exactvq.score(ref.float(), ref.float())
        big = self.torch.zeros((2, 16, 16), dtype=self.torch.int32, device="cuda")
        big[1, 4, 9] = 1024
        with self.assertRaisesRegex(exactvq.InputError,
                                    "frame 1, distorted picture: plane Y, x=9, y=4: sample 1024 exceeds"):
            exactvq.score(self.torch.zeros_like(big).to(self.torch.uint16), big.to(self.torch.uint16), bitdepth=10)


if __name__ == "__main__":
    unittest.main()
