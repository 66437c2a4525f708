// The Python module `exactvq`: SSIM of numpy planes and scores of video files,
// through the C API's C++ wrapper, so Python gets the C library's exact bits and
// messages. The GIL is released while scoring.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "exactvq/exactvq.hpp"

namespace py = pybind11;

namespace {

// exactvq.Error and its kinds, made once at import.
struct Exceptions {
  py::object error, usage, input, device;
};
Exceptions* exceptions = nullptr;

py::object new_exception(py::module_& m, const char* name, py::tuple bases, const char* doc) {
  const std::string qualified = std::string("exactvq.") + name;
  py::object type = py::reinterpret_steal<py::object>(
      PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases.ptr(), nullptr));
  if (!type) throw py::error_already_set();
  m.attr(name) = type;
  return type;
}

[[noreturn]] void throw_usage(const std::string& message) {
  throw exactvq::api::Error(EXACTVQ_ERROR_USAGE, message);
}

exactvq_mode parse_mode(const std::string& mode) {
  if (mode == "exact") return EXACTVQ_MODE_EXACT;
  if (mode == "raster") return EXACTVQ_MODE_RASTER;
  throw_usage("mode '" + mode + "' is not exact or raster");
}

exactvq_backend parse_backend(const std::string& backend) {
  if (backend == "cpu") return EXACTVQ_BACKEND_CPU;
  if (backend == "cuda") return EXACTVQ_BACKEND_CUDA;
  if (backend == "opencl") return EXACTVQ_BACKEND_OPENCL;
  if (backend == "auto") return EXACTVQ_BACKEND_AUTO;
  throw_usage("backend '" + backend + "' is not cpu, cuda, opencl or auto");
}

exactvq::api::Options options_of(const std::string& mode, const std::string& backend, int threads,
                                 std::vector<std::string>& messages) {
  exactvq::api::Options o;
  o.mode = parse_mode(mode);
  o.backend = parse_backend(backend);
  o.threads = threads;
  // Called without the GIL: kept, and given to Python's warnings afterwards.
  o.on_message = [&messages](const std::string& m) { messages.push_back(m); };
  return o;
}

void warn_all(const std::vector<std::string>& messages) {
  for (const auto& m : messages)
    if (PyErr_WarnEx(PyExc_UserWarning, m.c_str(), 2) != 0) throw py::error_already_set();
}

// An array of samples as the C API takes it: rows may have any stride, samples must
// be adjacent (other arrays are copied by numpy first).
py::array samples_of(const py::array& a, const char* what, int bitdepth) {
  const bool is_u8 = a.dtype().is(py::dtype::of<uint8_t>());
  const bool is_u16 = a.dtype().is(py::dtype::of<uint16_t>());
  if (!is_u8 && !is_u16)
    throw_usage(std::string(what) + ": dtype " + std::string(py::str(a.dtype())) +
                " is not uint8 or uint16 (native byte order)");
  if (bitdepth == 8 && !is_u8)
    throw_usage(std::string(what) + ": bitdepth 8 needs uint8 samples, not uint16");
  if (bitdepth > 8 && !is_u16)
    throw_usage(std::string(what) + ": bitdepth " + std::to_string(bitdepth) +
                " needs uint16 samples, not uint8");
  if (a.ndim() != 2 && a.ndim() != 3)
    throw_usage(std::string(what) + ": " + std::to_string(a.ndim()) +
                "-D array; give one plane (height, width) or frames (count, height, width)");
  if (a.strides(a.ndim() - 1) == a.itemsize()) return a;
  return py::module_::import("numpy").attr("ascontiguousarray")(a);
}

exactvq_picture plane_picture(const py::array& a, py::ssize_t frame, int bitdepth) {
  const py::ssize_t d = a.ndim();
  exactvq_picture p{};
  const auto* base = static_cast<const uint8_t*>(a.data());
  p.data[0] = d == 3 ? base + frame * a.strides(0) : base;
  p.stride[0] = a.strides(d - 2);
  p.height = int(a.shape(d - 2));
  p.width = int(a.shape(d - 1));
  p.chroma = EXACTVQ_CHROMA_MONO;
  p.bitdepth = bitdepth;
  return p;
}

py::object ssim(const py::array& ref_in, const py::array& dist_in, int bitdepth,
                const std::string& mode, const std::string& backend, int threads) {
  if (bitdepth < 8 || bitdepth > 16)
    throw_usage("bitdepth " + std::to_string(bitdepth) + " is not 8..16");
  const py::array ref = samples_of(ref_in, "ref", bitdepth);
  const py::array dist = samples_of(dist_in, "dist", bitdepth);
  const std::vector<py::ssize_t> rs(ref.shape(), ref.shape() + ref.ndim());
  const std::vector<py::ssize_t> ds(dist.shape(), dist.shape() + dist.ndim());
  if (rs != ds)
    throw_usage("ref and dist shapes differ: " + std::string(py::str(ref_in.attr("shape"))) +
                " vs " + std::string(py::str(dist_in.attr("shape"))));
  const py::ssize_t frames = ref.ndim() == 3 ? ref.shape(0) : 1;
  std::vector<exactvq_picture> refs, dists;
  for (py::ssize_t i = 0; i < frames; ++i) {
    refs.push_back(plane_picture(ref, i, bitdepth));
    dists.push_back(plane_picture(dist, i, bitdepth));
  }
  std::vector<std::string> messages;
  std::vector<double> scores;
  {
    py::gil_scoped_release unlocked;
    exactvq::api::Context ctx(options_of(mode, backend, threads, messages));
    ctx.score_frames(refs.data(), dists.data(), refs.size());
    ctx.flush();
    scores = ctx.scores("ssim");
  }
  warn_all(messages);
  if (ref.ndim() == 2) return py::float_(scores.at(0));
  return py::array_t<double>(py::ssize_t(scores.size()), scores.data());
}

std::vector<std::string> feature_list(const py::object& features) {
  if (features.is_none()) return {};
  if (py::isinstance<py::str>(features)) return {features.cast<std::string>()};
  return features.cast<std::vector<std::string>>();
}

py::dict score_files(const py::object& ref_path, const py::object& dist_path,
                     const py::object& features, const std::string& mode,
                     const std::string& backend, int threads, int width, int height,
                     const std::string& chroma, int bitdepth, int64_t frame_count,
                     int64_t skip_ref, int64_t skip_dist, int subsample, const py::object& models,
                     bool no_prediction) {
  const auto fspath = py::module_::import("os").attr("fspath");
  const std::string ref = py::str(fspath(ref_path)), dist = py::str(fspath(dist_path));
  exactvq_file_options fo = exactvq::api::default_file_options();
  fo.width = width;
  fo.height = height;
  fo.bitdepth = bitdepth;
  if (chroma == "420") fo.chroma = EXACTVQ_CHROMA_420;
  else if (chroma == "422") fo.chroma = EXACTVQ_CHROMA_422;
  else if (chroma == "444") fo.chroma = EXACTVQ_CHROMA_444;
  else if (chroma == "mono") fo.chroma = EXACTVQ_CHROMA_MONO;
  else if (!chroma.empty()) throw_usage("chroma '" + chroma + "' is not 420, 422, 444 or mono");
  fo.frame_count = frame_count;
  fo.skip_ref = skip_ref;
  fo.skip_dist = skip_dist;
  fo.subsample = subsample;

  std::vector<std::string> messages;
  exactvq::api::Options o = options_of(mode, backend, threads, messages);
  o.features = feature_list(features);
  o.models = feature_list(models);
  o.no_prediction = no_prediction;
  std::vector<std::string> names;
  std::vector<uint32_t> frames;
  std::vector<std::vector<double>> values;
  std::vector<exactvq_pooled_scores> pooled;
  {
    py::gil_scoped_release unlocked;
    exactvq::api::Context ctx(o);
    ctx.score_files(ref, dist, fo);
    names = ctx.score_names();
    frames = ctx.frame_numbers();
    for (const auto& name : names) {
      values.push_back(ctx.scores(name));
      pooled.push_back(ctx.pooled(name));
    }
  }
  warn_all(messages);
  py::dict scores, pools;
  for (size_t i = 0; i < names.size(); ++i) {
    scores[py::str(names[i])] = py::array_t<double>(py::ssize_t(values[i].size()), values[i].data());
    py::dict p;
    p["min"] = pooled[i].min;
    p["max"] = pooled[i].max;
    p["mean"] = pooled[i].mean;
    p["harmonic_mean"] = pooled[i].harmonic_mean;
    pools[py::str(names[i])] = p;
  }
  py::dict result;
  result["frames"] = py::array_t<uint32_t>(py::ssize_t(frames.size()), frames.data());
  result["scores"] = scores;
  result["pooled"] = pools;
  return result;
}

}  // namespace

PYBIND11_MODULE(exactvq, m) {
  m.doc() = "Bit-identical fixed-point SSIM (libvmaf's integer ssim) on every backend.";
  m.attr("__version__") = exactvq_version();

  static Exceptions made;
  made.error = new_exception(m, "Error", py::make_tuple(py::handle(PyExc_RuntimeError)),
                             "A failure reported by exactvq; the message says what and where.");
  made.usage = new_exception(m, "UsageError", py::make_tuple(made.error, py::handle(PyExc_ValueError)),
                             "An unknown feature or option, or a bad argument value.");
  made.input = new_exception(m, "InputError", py::make_tuple(made.error),
                             "Unreadable or malformed input, or samples out of range.");
  made.device = new_exception(m, "DeviceError", py::make_tuple(made.error),
                              "The requested backend is missing or failed.");
  exceptions = &made;
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const exactvq::api::Error& e) {
      py::object type = exceptions->error;
      switch (e.status()) {
        case EXACTVQ_ERROR_USAGE:
        case EXACTVQ_ERROR_ARGUMENT: type = exceptions->usage; break;
        case EXACTVQ_ERROR_INPUT: type = exceptions->input; break;
        case EXACTVQ_ERROR_DEVICE: type = exceptions->device; break;
        default: break;
      }
      PyErr_SetString(type.ptr(), e.what());
    }
  });

  m.def("ssim", &ssim, py::arg("ref"), py::arg("dist"), py::arg("bitdepth") = 8,
        py::arg("mode") = "exact", py::arg("backend") = "cpu", py::arg("threads") = 0,
        R"(SSIM of luma planes: numpy uint8 (bitdepth 8) or uint16 (9..16) arrays.

A 2-D array (height, width) is one plane and gives a float; a 3-D array
(frames, height, width) gives a numpy array with one score per frame.
mode: "exact" (fixed-point sum, the same bits everywhere) or "raster"
(libvmaf's sum); backend: "cpu", "cuda", "opencl" or "auto"; threads: 0 for all cores.)");
  m.def("score_files", &score_files, py::arg("ref_path"), py::arg("dist_path"),
        py::arg("features") = py::none(), py::arg("mode") = "exact", py::arg("backend") = "cpu",
        py::arg("threads") = 0, py::arg("width") = 0, py::arg("height") = 0,
        py::arg("chroma") = "", py::arg("bitdepth") = 0, py::arg("frame_count") = -1,
        py::arg("skip_ref") = 0, py::arg("skip_dist") = 0, py::arg("subsample") = 1,
        py::arg("models") = py::none(), py::arg("no_prediction") = false,
        R"(Scores two video files as the exactvq command line does.

features: a --feature string or a list of them ("ssim=chroma=true", "vif");
models: a --model string or a list of them ("version=vmaf_v0.6.1"), scored on
their features after every feature; neither features nor models: ssim.
no_prediction: the models' features only.
Raw YUV needs width, height, chroma ("420", "422", "444", "mono") and bitdepth.
Returns {"frames": frame numbers, "scores": {name: per-frame numpy array},
"pooled": {name: {"min", "max", "mean", "harmonic_mean"}}}. Warnings (one input
shorter than the other) go to Python's warnings.)");
}
