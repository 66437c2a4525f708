// The reciprocals cambi's contrast value uses (reciprocal_table.cpp).
#pragma once

namespace exactvq::cambi {

// Entries 0 .. 4225: a window of at most 65 x 65 samples (libvmaf refuses
// larger windows, whose counts would index past the table).
inline constexpr int kReciprocalEntries = 4226;
extern const float kReciprocal[kReciprocalEntries];

}  // namespace exactvq::cambi
