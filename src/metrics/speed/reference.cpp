#include "metrics/speed/reference.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "core/error.h"
#include "libm/libm.h"
#include "metrics/speed/plane_kernels.h"

namespace exactvq::speed {

namespace {

constexpr double kEigenvalueEps = 1e-6;
constexpr int kEigenvalueMaxIterations = 500;
constexpr double kPi = 3.14159265358979323846;
constexpr double kE = 2.7182818284590452354;

bool almost_equal(double x, double c) { return std::fabs(x - c) < 1.0e-3; }

// ---- The Gaussian filters (vif_tools.c's) -------------------------------------

int round_up_to_odd(float f) {
  const int ceiling = int(std::ceil(double(f)));
  return ceiling % 2 == 0 ? ceiling + 1 : ceiling;
}

int filter_size(int scale, float kernelscale) {
  const int n = (1 << (4 - scale)) + 1;
  return std::max(round_up_to_odd(float(n) * kernelscale), 3);
}

float gaussian_pdf(float x, float mean, float stdev) {
  const double d = double(x - mean);
  const float num = float(libm::exp(-0.5 * d / double(stdev) * d / double(stdev)));
  const float den = float(1.0 / (double(stdev) * std::sqrt(2 * kPi)));
  return num / den;
}

void gaussian_kernel(float* out, int size, float stdev) {
  float sum = 0;
  const int half = (size - 1) / 2;
  for (int i = 0; i < size; ++i) {
    out[i] = gaussian_pdf(float(i - half), 0.0f, stdev);
    sum += out[i];
  }
  for (int i = 0; i < size; ++i) out[i] /= sum;
}

// The index a filter tap reads: mirrored about the first and last sample.
inline int mirror_tap(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * n - i - 2 : i); }

// Output (i, j) of the separable filter: the vertical pass of every column the
// horizontal pass reads, then the horizontal pass; each sum in tap order.
// `column` holds row i's vertical pass.
void vertical_pass(FilterColumns columns, const float* f, int taps, const float* src, size_t stride,
                   int h, int w, int i, float* column) {
  const float* rows[128];
  for (int t = 0; t < taps; ++t) rows[t] = src + size_t(mirror_tap(i - taps / 2 + t, h)) * stride;
  columns(f, taps, rows, w, column);
}

inline float horizontal_tap_sum(const float* f, int taps, const float* column, int w, int j) {
  float acc = 0;
  for (int t = 0; t < taps; ++t) acc += f[t] * column[mirror_tap(j - taps / 2 + t, w)];
  return acc;
}

// The whole filtered plane (vif_filter1d_s).
void filter_plane(FilterColumns columns, const float* f, int taps, const float* src,
                  size_t src_stride, float* dst, size_t dst_stride, int w, int h, float* column) {
  for (int i = 0; i < h; ++i) {
    vertical_pass(columns, f, taps, src, src_stride, h, w, i, column);
    for (int j = 0; j < w; ++j)
      dst[size_t(i) * dst_stride + size_t(j)] = horizontal_tap_sum(f, taps, column, w, j);
  }
}

// The filtered plane's samples at every 16th row and column (vif_filter1d_s then
// vif_dec16_s): only those are formed, each with the same operations in the
// same order as in the whole plane.
void filter_every_16th(FilterColumns columns, const float* f, int taps, const float* src,
                       size_t src_stride, float* dst, size_t dst_stride, int w, int h,
                       float* column) {
  for (int i = 0; i < h / 16; ++i) {
    vertical_pass(columns, f, taps, src, src_stride, h, w, i * 16, column);
    for (int j = 0; j < w / 16; ++j)
      dst[size_t(i) * dst_stride + size_t(j)] = horizontal_tap_sum(f, taps, column, w, j * 16);
  }
}

// ---- The prescale (vif_tools.c's vif_scale_frame_s) -----------------------------

float mirror_coordinate(float i, float left, float right) {
  return i < left ? -i : i > right ? 2 * right - i : i;
}

void scale_nearest(const float* src, int src_w, int src_h, float* dst, int dst_w, int dst_h,
                   size_t stride) {
  const float ratio_x = float(src_w) / float(dst_w);
  const float ratio_y = float(src_h) / float(dst_h);
  for (int y = 0; y < dst_h; ++y)
    for (int x = 0; x < dst_w; ++x) {
      const int sy = int(float(y) * ratio_y);
      const int sx = int(float(x) * ratio_x);
      dst[size_t(y) * stride + size_t(x)] = src[size_t(sy) * stride + size_t(sx)];
    }
}

// Bilinear's source columns and weights, one a destination column.
void bilinear_columns(int src_w, int dst_w, int* x1, int* x2, float* dx) {
  const float ratio_x = float(src_w) / float(dst_w);
  for (int x = 0; x < dst_w; ++x) {
    const float xx = float((x + 0.5) * double(ratio_x) - 0.5);
    x1[x] = int(mirror_coordinate(float(std::floor(double(xx))), 0, float(src_w - 1)));
    x2[x] = int(mirror_coordinate(float(std::ceil(double(xx))), 0, float(src_w - 1)));
    dx[x] = xx - float(x1[x]);
  }
}

void scale_bilinear(const float* src, int src_h, float* dst, int dst_w, int dst_h, size_t stride,
                    const int* x1a, const int* x2a, const float* dxa) {
  const float ratio_y = float(src_h) / float(dst_h);
  for (int y = 0; y < dst_h; ++y) {
    const float yy = float((y + 0.5) * double(ratio_y) - 0.5);
    const int y1 = int(mirror_coordinate(float(std::floor(double(yy))), 0, float(src_h - 1)));
    const int y2 = int(mirror_coordinate(float(std::ceil(double(yy))), 0, float(src_h - 1)));
    const float dy = yy - float(y1);
    const float* r1 = src + size_t(y1) * stride;
    const float* r2 = src + size_t(y2) * stride;
    for (int x = 0; x < dst_w; ++x) {
      const int c1 = x1a[x], c2 = x2a[x];
      const float dx = dxa[x];
      const float a = (1 - dy) * (1 - dx) * r1[c1];
      const float b = (1 - dy) * dx * r1[c2];
      const float c = dy * (1 - dx) * r2[c1];
      const float d = dy * dx * r2[c2];
      dst[size_t(y) * stride + size_t(x)] = a + b + c + d;
    }
  }
}

float bicubic_weight(float t) {
  const float a = -0.75f;
  if (t < 0) t = -t;
  if (t < 1) return ((a + 2) * t - (a + 3)) * t * t + 1;
  if (t < 2) return (((t - 5) * t + 8) * t - 4) * a;
  return 0;
}

float bicubic_sample(const float* src, int w, int h, size_t stride, float x, float y) {
  const int x0 = int(std::floor(double(x)));
  const int y0 = int(std::floor(double(y)));
  const float dx = x - float(x0);
  const float dy = y - float(y0);
  float wx[4], wy[4];
  for (int i = -1; i <= 2; ++i) {
    wx[i + 1] = bicubic_weight(float(i) - dx);
    wy[i + 1] = bicubic_weight(float(i) - dy);
  }
  float value = 0;
  for (int j = -1; j <= 2; ++j)
    for (int i = -1; i <= 2; ++i) {
      const int xi = int(mirror_coordinate(float(x0 + i), 0, float(w - 1)));
      const int yi = int(mirror_coordinate(float(y0 + j), 0, float(h - 1)));
      const float weight = wx[i + 1] * wy[j + 1];
      value += src[size_t(yi) * stride + size_t(xi)] * weight;
    }
  return value;
}

float lanczos_weight(float x, float a) {
  if (x == 0.0f) return 1.0f;
  if (x > -a && x < a) {
    const double dx = double(x);
    return float(double(a) * libm::sin(kPi * dx) * libm::sin(kPi * dx / double(a)) /
                 (kPi * kPi * dx * dx));
  }
  return 0.0f;
}

float lanczos_sample(const float* src, int w, int h, size_t stride, float x, float y) {
  constexpr int a = 4;
  const int x0 = int(std::floor(double(x)));
  const int y0 = int(std::floor(double(y)));
  const float dx = x - float(x0);
  const float dy = y - float(y0);
  float wx[2 * a + 1], wy[2 * a + 1];
  for (int i = -a; i <= a; ++i) {
    wx[i + a] = lanczos_weight(float(i) - dx, float(a));
    wy[i + a] = lanczos_weight(float(i) - dy, float(a));
  }
  float value = 0, weight_sum = 0;
  for (int iy = -a; iy <= a; ++iy)
    for (int ix = -a; ix <= a; ++ix) {
      const float weight = wx[ix + a] * wy[iy + a];
      weight_sum += weight;
      const int xi = int(mirror_coordinate(float(x0 + ix), 0, float(w - 1)));
      const int yi = int(mirror_coordinate(float(y0 + iy), 0, float(h - 1)));
      value += src[size_t(yi) * stride + size_t(xi)] * weight;
    }
  return value / weight_sum;
}

template <typename Sample>
void scale_by_samples(const float* src, int src_w, int src_h, float* dst, int dst_w, int dst_h,
                      size_t stride, Sample sample) {
  const float ratio_x = float(src_w) / float(dst_w);
  const float ratio_y = float(src_h) / float(dst_h);
  for (int y = 0; y < dst_h; ++y) {
    const float yy = float((y + 0.5) * double(ratio_y) - 0.5);
    for (int x = 0; x < dst_w; ++x) {
      const float xx = float((x + 0.5) * double(ratio_x) - 0.5);
      dst[size_t(y) * stride + size_t(x)] = sample(src, src_w, src_h, stride, xx, yy);
    }
  }
}

// ---- Dense float matrices and the eigenvalues (speed.c's own) ---------------------

struct Matrix {
  int rows, cols;
  float* data;
  float& at(int i, int j) { return data[i * cols + j]; }
  float at(int i, int j) const { return data[i * cols + j]; }
};

void set_identity(Matrix& m) {
  for (int i = 0; i < m.rows; ++i)
    for (int j = 0; j < m.cols; ++j) m.at(i, j) = i == j ? 1.0f : 0.0f;
}

void copy_matrix(Matrix& dst, const Matrix& src) {
  for (int i = 0; i < dst.rows; ++i)
    for (int j = 0; j < dst.cols; ++j) dst.at(i, j) = src.at(i, j);
}

void transpose_square(Matrix& m) {
  for (int i = 0; i < m.rows; ++i)
    for (int j = 0; j < i; ++j) std::swap(m.at(i, j), m.at(j, i));
}

// dst = x y, each entry summed over k in order from 0.
void multiply(Matrix& dst, const Matrix& x, const Matrix& y) {
  for (int i = 0; i < dst.rows; ++i)
    for (int j = 0; j < dst.cols; ++j) dst.at(i, j) = 0;
  for (int i = 0; i < x.rows; ++i)
    for (int k = 0; k < x.cols; ++k)
      for (int j = 0; j < y.cols; ++j) dst.at(i, j) += x.at(i, k) * y.at(k, j);
}

int sign_of(float x) { return x >= 0 ? 1 : -1; }

// sqrt of a binary32 computed in binary64, rounded back (libvmaf's sqrt on floats).
inline float float_sqrt(float x) { return float(std::sqrt(double(x))); }

float hypotenuse(float x, float y) { return float_sqrt(x * x + y * y); }

float squared_norm_root(const float* v, int n) {
  float sum = 0;
  for (int i = 0; i < n; ++i) sum += v[i] * v[i];
  return float_sqrt(sum);
}

// The Householder vector that zeroes A[start+1.., col]: A's column scaled in
// place (its first entry becomes beta), tau returned (0: nothing to do).
float householder(float* A, int col, int start, int n) {
  if (n - start == 1) return 0.0f;
  float below = 0;
  for (int i = start + 1; i < n; ++i) below += A[i * n + col] * A[i * n + col];
  const float xnorm = float_sqrt(below);
  if (xnorm == 0.0f) return 0.0f;
  const float alpha = A[start * n + col];
  const float beta = float(-sign_of(alpha)) * hypotenuse(alpha, xnorm);
  const float tau = (beta - alpha) / beta;
  const float s = alpha - beta;
  if (s != 0.0f) {
    for (int i = start; i < n; ++i) A[i * n + col] /= s;
    A[start * n + col] = beta;
  }
  return tau;
}

// Reduces the symmetric A to tridiagonal form (GSL's symmtd): diagonal d,
// subdiagonal sd.
void tridiagonalize(float* A, int n, float* d, float* sd, float* buffer) {
  float* v = buffer;
  float* x = buffer + n;
  for (int i = 0; i < n - 2; ++i) {
    const float tau = householder(A, i, i + 1, n);
    for (int j = i + 1; j < n; ++j) v[j] = A[j * n + i];
    if (tau == 0.0f) continue;
    A[(i + 1) * n + i] = v[i + 1];
    v[i + 1] = 1.0f;
    const int s = i + 1;
    for (int r = s; r < n; ++r) {  // x = tau A v
      x[r] = 0.0f;
      for (int c = s; c < n; ++c) x[r] += tau * A[r * n + c] * v[c];
    }
    float xv = 0;
    for (int r = s; r < n; ++r) xv += x[r] * v[r];
    const float alpha = float(-0.5 * double(tau) * double(xv));
    for (int r = s; r < n; ++r) x[r] += alpha * v[r];
    for (int r = s; r < n; ++r)  // A -= x v' + v x'
      for (int c = s; c < n; ++c) A[r * n + c] -= x[r] * v[c] + v[r] * x[c];
  }
  for (int i = 0; i < n; ++i) d[i] = A[i * n + i];
  for (int i = 0; i < n - 1; ++i) sd[i] = A[(i + 1) * n + i];
}

void chop_small(float* d, float* sd, int n) {
  for (int i = 0; i < n - 1; ++i)
    if (double(std::fabs(sd[i])) < kEigenvalueEps * double(std::fabs(d[i]) + std::fabs(d[i + 1])))
      sd[i] = 0.0f;
}

float trailing_eigenvalue(const float* d, const float* sd, int n) {
  const float ta = d[n - 2], tb = d[n - 1], tab = sd[n - 2];
  const float dt = float(double(ta - tb) / 2.0);
  if (dt > 0) return tb - tab * (tab / (dt + hypotenuse(dt, tab)));
  if (dt == 0) return tb - std::fabs(tab);
  return tb + tab * (tab / (-dt + hypotenuse(dt, tab)));
}

void givens(float a, float b, float& c, float& s) {
  if (b == 0) {
    c = 1;
    s = 0;
  } else if (std::fabs(b) > std::fabs(a)) {
    const float t = -a / b;
    const float s1 = float(1.0 / std::sqrt(double(1 + t * t)));
    s = s1;
    c = s1 * t;
  } else {
    const float t = -b / a;
    const float c1 = float(1.0 / std::sqrt(double(1 + t * t)));
    c = c1;
    s = c1 * t;
  }
}

// One implicit symmetric QR step with Wilkinson's shift on an unreduced block.
void qr_step(float* d, float* sd, int n) {
  float mu = trailing_eigenvalue(d, sd, n);
  if (kEigenvalueEps * double(std::fabs(mu)) > double(std::fabs(d[0]) + std::fabs(sd[0]))) mu = 0;
  float x = d[0] - mu;
  float z = sd[0];
  float ak = 0, bk = 0, zk = 0;
  float ap = d[0], bp = sd[0], aq = d[1];
  if (n == 2) {
    float c, s;
    givens(x, z, c, s);
    const float ap1 = c * (c * ap - s * bp) + s * (s * aq - c * bp);
    const float bp1 = c * (s * ap + c * bp) - s * (s * bp + c * aq);
    const float aq1 = s * (s * ap + c * bp) + c * (s * bp + c * aq);
    d[0] = ap1;
    sd[0] = bp1;
    d[1] = aq1;
    return;
  }
  float bq = sd[1];
  for (int k = 0; k < n - 1; ++k) {
    float c, s;
    givens(x, z, c, s);
    const float bk1 = c * bk - s * zk;
    const float ap1 = c * (c * ap - s * bp) + s * (s * aq - c * bp);
    const float bp1 = c * (s * ap + c * bp) - s * (s * bp + c * aq);
    const float zp1 = -s * bq;
    const float aq1 = s * (s * ap + c * bp) + c * (s * bp + c * aq);
    const float bq1 = c * bq;
    ak = ap1;
    bk = bp1;
    zk = zp1;
    ap = aq1;
    bp = bq1;
    if (k < n - 2) aq = d[k + 2];
    if (k < n - 3) bq = sd[k + 2];
    d[k] = ak;
    if (k > 0) sd[k - 1] = bk1;
    if (k < n - 2) sd[k + 1] = bp;
    x = bk;
    z = zk;
  }
  d[n - 1] = ap;
  sd[n - 2] = bk;
}

// The eigenvalues of the symmetric n x n matrix A (GSL's symm, values only),
// unsorted; at most 500 QR steps, as libvmaf.
void eigenvalues_of(const float* A_in, float* eigenvalues, int n, float* buffer) {
  float* A = buffer;
  float* d = A + n * n;
  float* sd = d + n;
  float* tmp = sd + n;
  std::memcpy(A, A_in, sizeof(float) * size_t(n) * size_t(n));
  if (n == 1) {
    eigenvalues[0] = A[0];
    return;
  }
  tridiagonalize(A, n, d, sd, tmp);
  chop_small(d, sd, n);
  int b = n - 1;
  int iterations = 0;
  while (b > 0 && iterations < kEigenvalueMaxIterations) {
    if (sd[b - 1] == 0.0f) {
      --b;
      continue;
    }
    int a = b - 1;
    while (a > 0 && sd[a - 1] != 0.0f) --a;
    const int block = b - a + 1;
    qr_step(d + a, sd + a, block);
    chop_small(d + a, sd + a, block);
    ++iterations;
  }
  for (int i = 0; i < n; ++i) eigenvalues[i] = d[i];
}

// A = Q R by Householder reflections formed as whole matrices (libvmaf's
// matrix_qr_decomposition); Q returned transposed back, as libvmaf leaves it.
void qr_decompose(const Matrix& A, Matrix& Q, Matrix& R, Matrix& reflection, Matrix& z) {
  const int n = A.rows;
  Matrix& product = R;  // R is free until the end; its storage also holds the vector
  float* v = R.data;
  copy_matrix(z, A);
  set_identity(Q);
  for (int k = 0; k < n - 1; ++k) {
    for (int i = 0; i < n; ++i)  // z's minor: identity in the first k rows and columns
      for (int j = 0; j < n; ++j)
        if (i < k || j < k) z.at(i, j) = i == j ? 1.0f : 0.0f;
    for (int i = 0; i < n; ++i) v[i] = z.at(i, k);
    const float norm = squared_norm_root(v, n);
    v[k] += float(sign_of(A.at(k, k))) * norm;
    const float length = squared_norm_root(v, n);
    for (int i = 0; i < n; ++i) v[i] = v[i] / length;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) reflection.at(i, j) = -2.0f * v[i] * v[j];
    for (int i = 0; i < n; ++i) reflection.at(i, i) += 1;
    multiply(product, reflection, z);
    copy_matrix(z, product);
    multiply(product, reflection, Q);
    copy_matrix(Q, product);
  }
  multiply(R, Q, A);
  transpose_square(Q);
}

// R X = B by back substitution; false where a diagonal entry is under 1e-6.
bool back_substitute(const Matrix& R, Matrix& X, const Matrix& B) {
  for (int i = R.rows - 1; i >= 0; --i) {
    const float den = R.at(i, i);
    if (double(std::fabs(den)) < kEigenvalueEps) return false;
    for (int j = 0; j < X.cols; ++j) {
      float term = B.at(i, j);
      for (int k = i + 1; k < R.rows; ++k) term -= X.at(k, j) * R.at(i, k);
      X.at(i, j) = term / den;
    }
  }
  return true;
}

// K X = B through K's QR decomposition; false where R is singular.
bool solve(float* K, int n, float* B, int b_cols, float* X_out, float* buffer) {
  Matrix K_in{n, n, K};
  Matrix A{n, n, buffer};
  Matrix Q{n, n, buffer + 1 * n * n};
  Matrix R{n, n, buffer + 2 * n * n};
  Matrix reflection{n, n, buffer + 3 * n * n};
  Matrix z{n, n, buffer + 4 * n * n};
  Matrix rhs{n, b_cols, buffer + 5 * n * n};
  copy_matrix(A, K_in);
  qr_decompose(A, Q, R, reflection, z);
  transpose_square(Q);
  Matrix B_in{n, b_cols, B};
  multiply(rhs, Q, B_in);
  Matrix X{n, b_cols, X_out};
  return back_substitute(R, X, rhs);
}

}  // namespace

double log2_two_pi_e() { return libm::log2(2 * kPi * kE); }

ScaleAxis scale_axis(ScaleMethod method, int src, int dst) {
  ScaleAxis a;
  const float ratio = float(src) / float(dst);
  const auto at = [](int d, float r) { return float((d + 0.5) * double(r) - 0.5); };
  switch (method) {
    case ScaleMethod::kNearest:
      a.taps = 1;
      for (int d = 0; d < dst; ++d) {
        a.index.push_back(int(float(d) * ratio));
        a.weight.push_back(0.0f);
      }
      break;
    case ScaleMethod::kBilinear: {
      a.taps = 2;
      const size_t n = static_cast<size_t>(dst);
      std::vector<int> x1(n), x2(n);
      std::vector<float> dx(n);
      bilinear_columns(src, dst, x1.data(), x2.data(), dx.data());
      for (int d = 0; d < dst; ++d) {
        a.index.insert(a.index.end(), {x1[size_t(d)], x2[size_t(d)]});
        a.weight.insert(a.weight.end(), {dx[size_t(d)], 0.0f});
      }
      break;
    }
    case ScaleMethod::kBicubic:
    case ScaleMethod::kLanczos4: {
      const int reach = method == ScaleMethod::kBicubic ? 1 : 4;  // taps -reach .. last
      const int last = method == ScaleMethod::kBicubic ? 2 : 4;
      a.taps = last + reach + 1;
      for (int d = 0; d < dst; ++d) {
        const float c = at(d, ratio);
        const int c0 = int(std::floor(double(c)));
        const float frac = c - float(c0);
        for (int i = -reach; i <= last; ++i) {
          a.weight.push_back(method == ScaleMethod::kBicubic
                                 ? bicubic_weight(float(i) - frac)
                                 : lanczos_weight(float(i) - frac, float(reach)));
          a.index.push_back(int(mirror_coordinate(float(c0 + i), 0, float(src - 1))));
        }
      }
      break;
    }
  }
  return a;
}

FilterTaps antialias_taps(const SpeedOptions& o) {
  FilterTaps t;
  t.count = filter_size(1, float(o.kernelscale));
  gaussian_kernel(t.taps, t.count,
                  float(std::sqrt(double(kScales)) * double(t.count) / double(5.0f)));
  return t;
}

FilterTaps local_mean_taps(const SpeedOptions& o) {
  FilterTaps t;
  t.count = filter_size(kScales, float(o.kernelscale));
  gaussian_kernel(t.taps, t.count, float(t.count) / 5.0f);
  return t;
}

float base_entropy(const SpeedOptions& o) {
  const float sigma_nn = float(o.sigma_nn);
  const float nn_floor = float(o.nn_floor);
  return float(double(kBlockElements) *
               (libm::log2(double((1 + nn_floor) * sigma_nn)) + log2_two_pi_e()));
}

void solve_for_blocks(const double* pair_sums, int sub_w, int sub_h, BlockSolver& out) {
  constexpr int n = kBlockElements;
  const double count = double(size_t(sub_w) * size_t(sub_h));
  std::vector<float> covariance(n * n), scratch(6 * n * n);
  for (int xi = 0; xi < n; ++xi)
    for (int yi = 0; yi <= xi; ++yi) {
      const float cov = float(pair_sums[size_t(xi * (xi + 1) / 2 + yi)] / count);
      covariance[size_t(xi * n + yi)] = cov;
      covariance[size_t(yi * n + xi)] = cov;
    }
  eigenvalues_of(covariance.data(), out.eigenvalues, n, scratch.data());
  bool regular = true;
  for (int k = 0; k < n; ++k)
    if (double(out.eigenvalues[k]) < kEigenvalueEps) regular = false;
  out.singular = !regular;
  if (!regular) return;
  // solve()'s decomposition; back_substitute() fails on the first diagonal
  // entry of R under 1e-6 whatever the right-hand side.
  Matrix A{n, n, scratch.data()};
  Matrix Q{n, n, out.qt};
  Matrix R{n, n, out.r};
  Matrix reflection{n, n, scratch.data() + n * n};
  Matrix z{n, n, scratch.data() + 2 * n * n};
  copy_matrix(A, Matrix{n, n, covariance.data()});
  qr_decompose(A, Q, R, reflection, z);
  transpose_square(Q);
  for (int i = 0; i < n; ++i)
    if (double(std::fabs(R.at(i, i))) < kEigenvalueEps) out.singular = true;
}

void window_sums_reference(const float* data, size_t stride, int width, int height, float* sums) {
  for (int r = 0; r < kBlockSize; ++r)
    for (int c = 0; c < kBlockSize; ++c) {
      float sum = 0;
      for (int i = 0; i < height; ++i)
        for (int j = 0; j < width; ++j) sum += data[size_t(r + i) * stride + size_t(c + j)];
      sums[r * kBlockSize + c] = sum;
    }
}

void covariance_sums_reference(const float* data, size_t stride, int width, int height,
                               const float* means, double* sums) {
  for (int x = 0; x < kWindows; ++x)
    for (int y = 0; y <= x; ++y) {
      const double mean_x = means[x], mean_y = means[y];
      const float* px = data + size_t(x / kBlockSize) * stride + size_t(x % kBlockSize);
      const float* py = data + size_t(y / kBlockSize) * stride + size_t(y % kBlockSize);
      double sum = 0;
      for (int i = 0; i < height; ++i)
        for (int j = 0; j < width; ++j) {
          const double vx = px[size_t(i) * stride + size_t(j)];
          const double vy = py[size_t(i) * stride + size_t(j)];
          sum += (vx - mean_x) * (vy - mean_y);
        }
      sums[x * (x + 1) / 2 + y] = sum;
    }
}

void filter_columns(const float* f, int taps, const float* const* rows, int w, float* out) {
  for (int j = 0; j < w; ++j) {
    float acc = 0;
    for (int t = 0; t < taps; ++t) acc += f[t] * rows[t][j];
    out[j] = acc;
  }
}

namespace {

// load_plane's value of one sample.
inline float converted_sample(const uint8_t* row, int bitdepth, int j) {
  constexpr float kOffset = -128.0f;
  if (bitdepth == 8) return float(row[j]) + kOffset;
  return float(reinterpret_cast<const uint16_t*>(row)[j]) / float(1 << (bitdepth - 8)) + kOffset;
}

}  // namespace

void filter_sample_columns(const float* f, int taps, const uint8_t* const* rows, int bitdepth,
                           int w, float* out) {
  for (int j = 0; j < w; ++j) {
    float acc = 0;
    for (int t = 0; t < taps; ++t) acc += f[t] * converted_sample(rows[t], bitdepth, j);
    out[j] = acc;
  }
}

// ---- Sizes and refusals -----------------------------------------------------------

Dimensions dimensions_of(int width, int height, double prescale) {
  Dimensions d;
  d.original_width = width;
  d.original_height = height;
  d.scaled_height = int(double(height) * prescale + 0.5);
  d.scaled_width = int(double(width) * prescale + 0.5);
  d.alloc_height = std::max(d.original_height, d.scaled_height);
  d.alloc_width = std::max(d.original_width, d.scaled_width);
  d.operating_height = d.scaled_height >> kScales;
  d.operating_width = d.scaled_width >> kScales;
  d.truncated_width = d.operating_width / kBlockSize * kBlockSize;
  d.truncated_height = d.operating_height / kBlockSize * kBlockSize;
  d.blocks_horizontal = d.truncated_width / kBlockSize;
  d.blocks_vertical = d.truncated_height / kBlockSize;
  d.blocks = d.blocks_horizontal * d.blocks_vertical;
  d.submatrix_width = d.truncated_width - kBlockSize + 1;
  d.submatrix_height = d.truncated_height - kBlockSize + 1;
  return d;
}

void check_scoreable(const SpeedOptions& o, int width, int height) {
  const Dimensions d = dimensions_of(width, height, o.prescale);
  const char* name = feature_name(o.feature);
  if (!d.scoreable())
    throw PictureError(fmt::format(
        "feature {}: a {}x{} plane is too small for SpEED, which scores it at 1/16 of its size "
        "(after speed_prescale={:g}: {}x{}) and needs a whole {}x{} block there",
        name, width, height, o.prescale, d.operating_width, d.operating_height, kBlockSize,
        kBlockSize));
  if (o.feature == Feature::kTemporal && d.scaled_height > height)
    throw PictureError(fmt::format(
        "feature {}: speed_prescale={:g} makes the {}x{} plane {} rows high, more than libvmaf's "
        "frame buffers of this feature hold (it writes past them); no value to give",
        name, o.prescale, width, height, d.scaled_height));
  if (almost_equal(o.prescale, 1.0) && (d.scaled_width > width || d.scaled_height > height))
    throw PictureError(fmt::format(
        "feature {}: speed_prescale={:g} is within 1e-3 of 1, so libvmaf does not scale the {}x{} "
        "plane but filters it as {}x{}, reading samples it never wrote; no value to give",
        name, o.prescale, width, height, d.scaled_width, d.scaled_height));
}

void check_bit_depth(const SpeedOptions& o, int bitdepth) {
  if (bitdepth != 8 && bitdepth != 10 && bitdepth != 12 && bitdepth != 16)
    throw PictureError(fmt::format(
        "feature {}: {}-bit pictures are not scored (libvmaf converts 8, 10, 12 and 16-bit "
        "samples; at other depths it reads the samples' bytes as 8-bit samples)",
        feature_name(o.feature), bitdepth));
}

void load_plane(const PlaneView& p, int width, int height, int bitdepth, float* dst,
                size_t stride) {
  constexpr float kOffset = -128.0f;
  if (bitdepth == 8) {
    for (int y = 0; y < height; ++y) {
      const uint8_t* row = p.row<uint8_t>(y);
      float* out = dst + size_t(y) * stride;
      for (int x = 0; x < width; ++x) out[x] = float(row[x]) + kOffset;
    }
    return;
  }
  const float scaler = float(1 << (bitdepth - 8));
  for (int y = 0; y < height; ++y) {
    const uint16_t* row = p.row<uint16_t>(y);
    float* out = dst + size_t(y) * stride;
    for (int x = 0; x < width; ++x) out[x] = float(row[x]) / scaler + kOffset;
  }
}

// ---- The score --------------------------------------------------------------------

Scorer::Scorer(int width, int height, const SpeedOptions& o, CovarianceSums sums,
               FilterColumns columns, WindowSums window_sums)
    : options_(o),
      dim_(dimensions_of(width, height, o.prescale)),
      covariance_sums_(sums),
      filter_columns_(columns),
      window_sums_(window_sums) {
  stride_ = size_t(std::max(dim_.alloc_width, 1));
  const size_t frame = stride_ * size_t(std::max(dim_.alloc_height, 1));
  if (!almost_equal(o.prescale, 1.0)) scaled_copy_.assign(frame, 0.0f);
  row_.assign(size_t(std::max(dim_.alloc_width, 1)), 0.0f);
  const FilterTaps antialias = antialias_taps(o), local_mean = local_mean_taps(o);
  antialias_width_ = antialias.count;
  std::copy(antialias.taps, antialias.taps + 128, antialias_);
  filter_width_ = local_mean.count;
  std::copy(local_mean.taps, local_mean.taps + 128, filter_);
  if (o.prescale_method == ScaleMethod::kBilinear && !scaled_copy_.empty()) {
    bilinear_x1_.resize(size_t(dim_.scaled_width));
    bilinear_x2_.resize(size_t(dim_.scaled_width));
    bilinear_dx_.resize(size_t(dim_.scaled_width));
    bilinear_columns(dim_.original_width, dim_.scaled_width, bilinear_x1_.data(),
                     bilinear_x2_.data(), bilinear_dx_.data());
  }
  const size_t down = size_t(dim_.operating_width) * size_t(dim_.operating_height);
  // Floats past the plane for the window sums' twin to read (never used).
  down_.assign(std::max<size_t>(down, 1) + kWindowSumsOverread, 0.0f);
  blurred_.assign(std::max<size_t>(down, 1), 0.0f);
  const size_t blocks = size_t(std::max(dim_.blocks, 1));
  for (auto* v : {&ref_entropies_, &ref_variances_, &dis_entropies_, &dis_variances_})
    v->assign(blocks, 0.0f);
  independent_.assign(kBlockElements * blocks, 0.0f);
  solution_.assign(kBlockElements * blocks, 0.0f);
  covariance_.assign(kBlockElements * kBlockElements, 0.0f);
  eigenvalues_.assign(kBlockElements, 0.0f);
  means_.assign(kBlockElements, 0.0f);
  pair_sums_.assign(kCovariancePairs, 0.0);
  scratch_.assign(5 * kBlockElements * kBlockElements + kBlockElements * blocks, 0.0f);
}

// The plane scaled by the prescale, filtered by the anti-alias Gaussian and
// kept at every 16th row and column (down_), less its local mean (the scale-4
// Gaussian of itself).
void Scorer::filter_and_downscale(float* frame) {
  const int sw = dim_.scaled_width, sh = dim_.scaled_height;
  if (prescales()) {
    const int ow = dim_.original_width, oh = dim_.original_height;
    std::copy(frame, frame + stride_ * size_t(dim_.alloc_height), scaled_copy_.begin());
    const float* src = scaled_copy_.data();
    switch (options_.prescale_method) {
      case ScaleMethod::kNearest:
        scale_nearest(src, ow, oh, frame, sw, sh, stride_);
        break;
      case ScaleMethod::kBilinear:
        scale_bilinear(src, oh, frame, sw, sh, stride_, bilinear_x1_.data(), bilinear_x2_.data(),
                       bilinear_dx_.data());
        break;
      case ScaleMethod::kBicubic:
        scale_by_samples(src, ow, oh, frame, sw, sh, stride_, bicubic_sample);
        break;
      case ScaleMethod::kLanczos4:
        scale_by_samples(src, ow, oh, frame, sw, sh, stride_, lanczos_sample);
        break;
    }
  }
  filter_every_16th(filter_columns_, antialias_, antialias_width_, frame, stride_, down_.data(),
                    size_t(dim_.operating_width), sw, sh, row_.data());
  subtract_local_mean();
}

void Scorer::make_planes() {
  if (!ref_.empty()) return;
  const size_t frame = stride_ * size_t(std::max(dim_.alloc_height, 1));
  ref_.assign(frame, 0.0f);
  dis_.assign(frame, 0.0f);
}

bool Scorer::prescales() const {
  return !almost_equal(options_.prescale, 1.0) &&
         !(dim_.scaled_width == dim_.original_width && dim_.scaled_height == dim_.original_height);
}

// filter_and_downscale of the plane load_plane makes of `p`, where nothing is
// prescaled: the anti-alias filter reads the picture's samples, converted as
// load_plane converts them, in place of the floats.
void Scorer::filter_and_downscale_samples(const PlaneView& p, int bitdepth,
                                          FilterSampleColumns columns) {
  const int w = dim_.scaled_width, h = dim_.scaled_height, taps = antialias_width_;
  const size_t dw = size_t(dim_.operating_width);
  const uint8_t* rows[128];
  for (int i = 0; i < h / 16; ++i) {
    for (int t = 0; t < taps; ++t)
      rows[t] = p.data + ptrdiff_t(mirror_tap(i * 16 - taps / 2 + t, h)) * p.stride;
    columns(antialias_, taps, rows, bitdepth, w, row_.data());
    for (int j = 0; j < w / 16; ++j)
      down_[size_t(i) * dw + size_t(j)] =
          horizontal_tap_sum(antialias_, taps, row_.data(), w, j * 16);
  }
  subtract_local_mean();
}

// down_ less its local mean (the scale-4 Gaussian of itself).
void Scorer::subtract_local_mean() {
  const int dw = dim_.operating_width, dh = dim_.operating_height;
  filter_plane(filter_columns_, filter_, filter_width_, down_.data(), size_t(dw), blurred_.data(),
               size_t(dw), dw, dh, row_.data());
  for (size_t i = 0; i < size_t(dw) * size_t(dh); ++i) down_[i] -= blurred_[i];
}

// est_params: the entropies and variances of each block of down_; false where
// the covariance matrix cannot be inverted (then every variance is 0).
bool Scorer::estimate(std::vector<float>& entropies, std::vector<float>& variances) {
  const Dimensions& d = dim_;
  const float* data = down_.data();
  const size_t stride = size_t(d.operating_width);
  const int sub_w = d.submatrix_width, sub_h = d.submatrix_height;
  const int n_blocks = d.blocks;
  // 1. The covariance matrix of the 25 shifted windows, from their means.
  float sums[kWindows];
  window_sums_(data, stride, sub_w, sub_h, sums);
  for (int k = 0; k < kWindows; ++k)
    means_[size_t(k)] = sums[k] / float(size_t(sub_w) * size_t(sub_h));
  const double count = double(size_t(sub_w) * size_t(sub_h));
  covariance_sums_(data, stride, sub_w, sub_h, means_.data(), pair_sums_.data());
  for (int xi = 0; xi < kBlockElements; ++xi)
    for (int yi = 0; yi <= xi; ++yi) {
      const float cov = float(pair_sums_[size_t(xi * (xi + 1) / 2 + yi)] / count);
      covariance_[size_t(xi * kBlockElements + yi)] = cov;
      covariance_[size_t(yi * kBlockElements + xi)] = cov;
    }
  // 2. Its eigenvalues.
  eigenvalues_of(covariance_.data(), eigenvalues_.data(), kBlockElements, scratch_.data());
  // 3. Each block's 25 coefficients, one row a position in the block.
  for (int si = 0; si < kBlockSize; ++si)
    for (int sj = 0; sj < kBlockSize; ++sj)
      for (int i = si; i < d.truncated_height; i += kBlockSize)
        for (int j = sj; j < d.truncated_width; j += kBlockSize) {
          const size_t row = size_t(si * kBlockSize + sj);
          const size_t col = size_t((i - si) / kBlockSize) * size_t(d.blocks_horizontal) +
                             size_t((j - sj) / kBlockSize);
          independent_[row * size_t(n_blocks) + col] = data[size_t(i) * stride + size_t(j)];
        }
  // 4. K X = Y, where every eigenvalue is at least 1e-6 and R is regular.
  bool regular = true;
  for (int k = 0; k < kBlockElements; ++k)
    if (double(eigenvalues_[size_t(k)]) < kEigenvalueEps) regular = false;
  bool solved = false;
  if (regular)
    solved = solve(covariance_.data(), kBlockElements, independent_.data(), n_blocks,
                   solution_.data(), scratch_.data());
  const bool singular = !regular || !solved;
  if (singular) std::fill(solution_.begin(), solution_.begin() + kBlockElements * n_blocks, 0.0f);
  // 5. Z = X Y / 25, 6. summed down each column: S, the block's variance.
  const float elements = float(kBlockElements);
  for (size_t i = 0; i < size_t(kBlockElements) * size_t(n_blocks); ++i)
    solution_[i] = (solution_[i] * independent_[i]) / elements;
  for (int i = 1; i < kBlockElements; ++i)
    for (int j = 0; j < n_blocks; ++j)
      solution_[size_t(j)] += solution_[size_t(i) * size_t(n_blocks) + size_t(j)];
  // 7. The entropy of each block, over the eigenvalues in their order.
  const float sigma_nn = float(options_.sigma_nn);
  const double log2_2pie = log2_two_pi_e();
  std::fill(entropies.begin(), entropies.begin() + n_blocks, 0.0f);
  for (int k = 0; k < kBlockElements; ++k) {
    const float L = eigenvalues_[size_t(k)] < 0 ? 0.0f : eigenvalues_[size_t(k)];
    for (int b = 0; b < n_blocks; ++b)
      entropies[size_t(b)] =
          float(double(entropies[size_t(b)]) +
                (libm::log2(double(L * solution_[size_t(b)] + sigma_nn)) + log2_2pie));
  }
  std::copy(solution_.begin(), solution_.begin() + n_blocks, variances.begin());
  return !singular;
}

PairScore Scorer::score() {
  make_planes();
  filter_and_downscale(ref_.data());
  const bool ref_ok = estimate(ref_entropies_, ref_variances_);
  filter_and_downscale(dis_.data());
  const bool dis_ok = estimate(dis_entropies_, dis_variances_);
  return pool(ref_ok, dis_ok);
}

PairScore Scorer::score_planes(const PlaneView& ref, const PlaneView& dis, int bitdepth,
                               PlaneLoads loads) {
  const int w = dim_.original_width, h = dim_.original_height;
  if (prescales()) {
    loads.load(ref, w, h, bitdepth, this->ref(), stride_);
    loads.load(dis, w, h, bitdepth, this->dis(), stride_);
    return score();
  }
  filter_and_downscale_samples(ref, bitdepth, loads.columns);
  const bool ref_ok = estimate(ref_entropies_, ref_variances_);
  filter_and_downscale_samples(dis, bitdepth, loads.columns);
  const bool dis_ok = estimate(dis_entropies_, dis_variances_);
  return pool(ref_ok, dis_ok);
}

PairScore Scorer::pool(bool ref_ok, bool dis_ok) {
  PairScore out;
  out.singular = !ref_ok || !dis_ok;
  // One side unstable alone: 0 rather than an inflated score.
  if (ref_ok != dis_ok) return out;
  const float base = base_entropy(options_);
  float score = 0;
  for (int i = 0; i < dim_.blocks; ++i) {
    const float er = ref_entropies_[size_t(i)], ed = dis_entropies_[size_t(i)];
    if (er < base && ed < base) continue;  // no visible difference
    const float vr = ref_variances_[size_t(i)], vd = dis_variances_[size_t(i)];
    double weight_ref = 0, weight_dis = 0;  // log2 of 1 + the variances' weights
    switch (options_.weight_var_mode) {
      case 0:
        weight_ref = libm::log2(double(1 + vr));
        weight_dis = libm::log2(double(1 + vd));
        break;
      case 1:
        weight_ref = libm::log2(double(1 + vr));
        weight_dis = weight_ref;
        break;
      case 2:
        weight_ref = libm::log2(double(1 + vd));
        weight_dis = weight_ref;
        break;
      case 3:
        weight_ref = libm::log2(1 + double(vr + vd) / 2.0);
        weight_dis = weight_ref;
        break;
      case 4:
        weight_ref = libm::log2(double(1 + vr));
        weight_dis = libm::log2(1 + double(vr + vd) / 2.0);
        break;
      case 5:
        weight_ref = libm::log2(double(1 + vr));
        weight_dis = libm::log2(1 + (0.75 * double(vr) + 0.25 * double(vd)));
        break;
      case 6:
        weight_ref = libm::log2(double(1 + vr));
        weight_dis = libm::log2(1 + (0.25 * double(vr) + 0.75 * double(vd)));
        break;
    }
    const float spatial_ref = float(double(er) * weight_ref);
    const float spatial_dis = float(double(ed) * weight_dis);
    score += std::fabs(spatial_ref - spatial_dis);
  }
  out.score = score / float(dim_.blocks);
  return out;
}

}  // namespace exactvq::speed
