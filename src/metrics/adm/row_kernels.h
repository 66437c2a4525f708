// The row routines ADM's driver (reference.cpp) calls, as one table: the
// scalar references of dwt.h, decouple.h, csf.h, masking.h and denominator.h,
// or their SIMD twins (cpu/adm_simd.h), which give the same bits. The driver
// is the same code either way; only the rows' arithmetic is swapped.
#pragma once

#include "metrics/adm/csf.h"
#include "metrics/adm/decouple.h"
#include "metrics/adm/denominator.h"
#include "metrics/adm/dwt.h"
#include "metrics/adm/masking.h"

namespace exactvq::adm {

// The routines' types, named outside the table whose members reuse their names.
using Dwt0HorizontalFn = decltype(&dwt0_horizontal);
using DwtVerticalS123Fn = decltype(&dwt_vertical_s123);
using DwtHorizontalS123Fn = decltype(&dwt_horizontal_s123);
using DecoupleRowS0Fn = decltype(&decouple_row_s0);
using DecoupleRowS123Fn = decltype(&decouple_row_s123);
using CsfRowS0Fn = decltype(&csf_row_s0);
using CsfRowS123Fn = decltype(&csf_row_s123);
using MaskingRowS0Fn = decltype(&masking_row_s0);
using MaskingRowS123Fn = decltype(&masking_row_s123);
using DenominatorRowS0Fn = decltype(&denominator_row_s0);
using DenominatorRowS123Fn = decltype(&denominator_row_s123);
using FlatSumRowS0Fn = decltype(&flat_sum_row_s0);
using FlatSumRowS123Fn = decltype(&flat_sum_row_s123);
using DwtVerticalS1Fn = decltype(&dwt_vertical_s1);

struct RowKernels {
  void (*dwt0_vertical8)(const uint8_t* const rows[4], int width, int16_t* lo, int16_t* hi);
  void (*dwt0_vertical16)(const uint16_t* const rows[4], int width, int bitdepth, int16_t* lo,
                          int16_t* hi);
  Dwt0HorizontalFn dwt0_horizontal;
  DwtVerticalS123Fn dwt_vertical_s123;
  DwtHorizontalS123Fn dwt_horizontal_s123;
  DecoupleRowS0Fn decouple_row_s0;
  DecoupleRowS123Fn decouple_row_s123;
  CsfRowS0Fn csf_row_s0;
  CsfRowS123Fn csf_row_s123;
  MaskingRowS0Fn masking_row_s0;
  MaskingRowS123Fn masking_row_s123;
  DenominatorRowS0Fn denominator_row_s0;
  DenominatorRowS123Fn denominator_row_s123;
  FlatSumRowS0Fn flat_sum_row_s0;
  FlatSumRowS123Fn flat_sum_row_s123;
  DwtVerticalS1Fn dwt_vertical_s1;
};

// The scalar references: THE definition.
const RowKernels& reference_row_kernels();

}  // namespace exactvq::adm
