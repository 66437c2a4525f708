// exactvq._exactvq: the compiled half of the Python package (python/exactvq/),
// a thin layer over the C API's C++ wrapper, so Python gets the C library's exact
// bits and messages. The package's Python half turns numpy arrays, DLPack and
// __cuda_array_interface__ objects into the plane descriptions taken here. The GIL
// is released while scoring.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <string>
#include <vector>

#if __has_include(<dlpack/dlpack.h>)
#include <dlpack/dlpack.h>
#define EXACTVQ_HAVE_DLPACK 1
#endif

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

std::vector<std::string> string_list(const py::object& items) {
  if (items.is_none()) return {};
  if (py::isinstance<py::str>(items)) return {items.cast<std::string>()};
  return items.cast<std::vector<std::string>>();
}

// What every call shares: features, models, sum mode, device, threads. Messages
// come without the GIL: they are kept, and given to Python's warnings afterwards.
struct RunArgs {
  py::object features = py::none(), models = py::none();
  bool no_prediction = false;
  std::string mode = "exact", backend = "cpu";
  int threads = 0, gpu = 0;
};

exactvq::api::Options options_of(const RunArgs& a, std::vector<std::string>& messages) {
  exactvq::api::Options o;
  o.mode = parse_mode(a.mode);
  o.backend = parse_backend(a.backend);
  o.threads = a.threads;
  o.gpu = a.gpu;
  o.features = string_list(a.features);
  o.models = string_list(a.models);
  o.no_prediction = a.no_prediction;
  o.on_message = [&messages](const std::string& m) { messages.push_back(m); };
  return o;
}

void warn_all(const std::vector<std::string>& messages) {
  for (const auto& m : messages)
    if (PyErr_WarnEx(PyExc_UserWarning, m.c_str(), 2) != 0) throw py::error_already_set();
}

// A finished run's values, as plain vectors (gathered without the GIL).
struct RunValues {
  std::vector<std::string> names;
  std::vector<uint32_t> frames;
  std::vector<std::vector<double>> values;
  std::vector<exactvq_pooled_scores> pooled;

  void read(const exactvq::api::Context& ctx) {
    names = ctx.score_names();
    frames = ctx.frame_numbers();
    for (const auto& name : names) {
      values.push_back(ctx.scores(name));
      pooled.push_back(ctx.pooled(name));
    }
  }

  py::dict to_python() const {
    py::dict scores, pools;
    for (size_t i = 0; i < names.size(); ++i) {
      scores[py::str(names[i])] =
          py::array_t<double>(py::ssize_t(values[i].size()), values[i].data());
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
};

exactvq_chroma chroma_of(const std::string& chroma) {
  if (chroma == "420") return EXACTVQ_CHROMA_420;
  if (chroma == "422") return EXACTVQ_CHROMA_422;
  if (chroma == "444") return EXACTVQ_CHROMA_444;
  if (chroma == "mono") return EXACTVQ_CHROMA_MONO;
  throw_usage("chroma '" + chroma + "' is not 420, 422, 444 or mono");
}

py::dict score_files(const py::object& ref_path, const py::object& dist_path, const RunArgs& args,
                     int width, int height, const std::string& chroma, int bitdepth,
                     int64_t frame_count, int64_t skip_ref, int64_t skip_dist, int subsample) {
  const auto fspath = py::module_::import("os").attr("fspath");
  const std::string ref = py::str(fspath(ref_path)), dist = py::str(fspath(dist_path));
  exactvq_file_options fo = exactvq::api::default_file_options();
  fo.width = width;
  fo.height = height;
  fo.bitdepth = bitdepth;
  if (!chroma.empty()) fo.chroma = chroma_of(chroma);
  fo.frame_count = frame_count;
  fo.skip_ref = skip_ref;
  fo.skip_dist = skip_dist;
  fo.subsample = subsample;

  std::vector<std::string> messages;
  exactvq::api::Options o = options_of(args, messages);
  RunValues run;
  {
    py::gil_scoped_release unlocked;
    exactvq::api::Context ctx(o);
    ctx.score_files(ref, dist, fo);
    run.read(ctx);
  }
  warn_all(messages);
  return run.to_python();
}

// One plane of every frame: frames `count` apart by frame_stride bytes, rows by
// row_stride bytes, samples adjacent (the Python half checks or copies so).
struct PlaneSet {
  std::uintptr_t data = 0;
  int64_t count = 0, height = 0, width = 0, frame_stride = 0, row_stride = 0;
};

std::vector<exactvq_picture> pictures_of(const std::vector<PlaneSet>& planes, exactvq_chroma chroma,
                                         int bitdepth) {
  std::vector<exactvq_picture> out(size_t(planes.at(0).count));
  for (size_t i = 0; i < out.size(); ++i) {
    exactvq_picture& p = out[i];
    for (size_t k = 0; k < planes.size() && k < 3; ++k) {
      p.data[k] = reinterpret_cast<const void*>(
          planes[k].data + std::uintptr_t(int64_t(i) * planes[k].frame_stride));
      p.stride[k] = ptrdiff_t(planes[k].row_stride);
    }
    p.width = int(planes[0].width);
    p.height = int(planes[0].height);
    p.chroma = chroma;
    p.bitdepth = bitdepth;
  }
  return out;
}

// Frames given as planes in host memory (numpy arrays, kept alive by the caller)
// or in CUDA device memory (read after the work queued on `cuda_stream`).
py::dict score_planes(const std::vector<PlaneSet>& ref, const std::vector<PlaneSet>& dist,
                      bool on_cuda, std::uintptr_t cuda_stream, const std::string& chroma,
                      int bitdepth, const RunArgs& args) {
  if (ref.empty() || ref.size() != dist.size()) throw_usage("ref and dist need the same planes");
  const exactvq_chroma c = chroma_of(chroma);
  const std::vector<exactvq_picture> refs = pictures_of(ref, c, bitdepth);
  const std::vector<exactvq_picture> dists = pictures_of(dist, c, bitdepth);
  if (refs.size() != dists.size()) throw_usage("ref and dist hold different numbers of frames");
  std::vector<std::string> messages;
  exactvq::api::Options o = options_of(args, messages);
  RunValues run;
  {
    py::gil_scoped_release unlocked;
    exactvq::api::Context ctx(o);
    if (on_cuda)
      ctx.score_cuda_frames(refs.data(), dists.data(), refs.size(),
                            reinterpret_cast<void*>(cuda_stream));
    else
      ctx.score_frames(refs.data(), dists.data(), refs.size());
    ctx.flush();
    run.read(ctx);
  }
  warn_all(messages);
  return run.to_python();
}

#ifdef EXACTVQ_HAVE_DLPACK
// A DLPack tensor taken from its capsule: its memory stays the producer's until
// this object goes (then the producer's deleter runs), as the protocol asks.
class DlpackTensor {
 public:
  explicit DlpackTensor(py::capsule capsule) {
    if (std::string(capsule.name() ? capsule.name() : "") != "dltensor")
      throw_usage("__dlpack__ gave a capsule named '" +
                  std::string(capsule.name() ? capsule.name() : "") +
                  "', not 'dltensor' (already consumed?)");
    managed_ = static_cast<DLManagedTensor*>(capsule.get_pointer());
    // The capsule no longer owns the tensor: we call its deleter.
    if (PyCapsule_SetName(capsule.ptr(), "used_dltensor") != 0) throw py::error_already_set();
  }
  ~DlpackTensor() {
    if (managed_ && managed_->deleter) managed_->deleter(managed_);
  }
  DlpackTensor(const DlpackTensor&) = delete;
  DlpackTensor& operator=(const DlpackTensor&) = delete;

  py::dict describe() const {
    const DLTensor& t = managed_->dl_tensor;
    py::dict d;
    d["data"] = reinterpret_cast<std::uintptr_t>(t.data) + std::uintptr_t(t.byte_offset);
    d["device_type"] = int(t.device.device_type);
    d["device_id"] = int(t.device.device_id);
    d["dtype_code"] = int(t.dtype.code);
    d["dtype_bits"] = int(t.dtype.bits);
    d["dtype_lanes"] = int(t.dtype.lanes);
    py::list shape, strides;
    for (int i = 0; i < t.ndim; ++i) shape.append(t.shape[i]);
    // Strides in elements; none: C order.
    if (t.strides)
      for (int i = 0; i < t.ndim; ++i) strides.append(t.strides[i]);
    d["shape"] = py::tuple(shape);
    d["strides"] = t.strides ? py::object(py::tuple(strides)) : py::object(py::none());
    return d;
  }

 private:
  DLManagedTensor* managed_ = nullptr;
};
#endif

}  // namespace

PYBIND11_MODULE(_exactvq, m) {
  m.doc() = "The compiled half of exactvq (use the package `exactvq`).";
  m.attr("__version__") = exactvq_version();

  static Exceptions made;
  made.error = new_exception(m, "Error", py::make_tuple(py::handle(PyExc_RuntimeError)),
                             "A failure reported by exactvq; the message says what and where.");
  made.usage =
      new_exception(m, "UsageError", py::make_tuple(made.error, py::handle(PyExc_ValueError)),
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
        case EXACTVQ_ERROR_ARGUMENT:
          type = exceptions->usage;
          break;
        case EXACTVQ_ERROR_INPUT:
          type = exceptions->input;
          break;
        case EXACTVQ_ERROR_DEVICE:
          type = exceptions->device;
          break;
        default:
          break;
      }
      PyErr_SetString(type.ptr(), e.what());
    }
  });

  py::class_<RunArgs>(m, "_RunArgs")
      .def(py::init<>())
      .def_readwrite("features", &RunArgs::features)
      .def_readwrite("models", &RunArgs::models)
      .def_readwrite("no_prediction", &RunArgs::no_prediction)
      .def_readwrite("mode", &RunArgs::mode)
      .def_readwrite("backend", &RunArgs::backend)
      .def_readwrite("threads", &RunArgs::threads)
      .def_readwrite("gpu", &RunArgs::gpu);
  py::class_<PlaneSet>(m, "_PlaneSet")
      .def(py::init([](std::uintptr_t data, int64_t count, int64_t height, int64_t width,
                       int64_t frame_stride, int64_t row_stride) {
             return PlaneSet{data, count, height, width, frame_stride, row_stride};
           }),
           py::arg("data"), py::arg("count"), py::arg("height"), py::arg("width"),
           py::arg("frame_stride"), py::arg("row_stride"));
  m.def("_score_files", &score_files);
  m.def("_score_planes", &score_planes);
  m.attr("_has_cuda_frames") = py::bool_(
#ifdef EXACTVQ_HAVE_CUDA
      true
#else
      false
#endif
  );
  // Whether score_files() reads MP4, MKV, WebM, IVF through FFmpeg's libraries.
  m.attr("_has_ffmpeg") = py::bool_(
#ifdef EXACTVQ_HAVE_FFMPEG
      true
#else
      false
#endif
  );
#ifdef EXACTVQ_HAVE_DLPACK
  py::class_<DlpackTensor>(m, "_DlpackTensor")
      .def(py::init<py::capsule>())
      .def("describe", &DlpackTensor::describe);
#endif
}
