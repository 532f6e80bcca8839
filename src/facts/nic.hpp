// Network links from sysfs: Ethernet (and IPoIB) interfaces and InfiniBand
// ports, with their rate and the peak it allows.
#pragma once
#include <optional>
#include <string>

namespace movebench::facts {

// An InfiniBand port's rate as the kernel reports it, and the data rate
// after the lane encoding.
struct IbRate {
  double signal_bits_per_second = 0;  // what sysfs says: "40 Gb/sec (4X QDR)" -> 40e9
  double data_bits_per_second = 0;    // after the encoding: QDR 4X -> 32e9
  std::string speed;                  // "QDR"; empty when the text names none
  std::string encoding;               // "8b/10b", "64b/66b", or "as reported"
};

// "100 Gb/sec (4X EDR)" -> its rates; nullopt when not of that form.
std::optional<IbRate> parse_ib_rate(const std::string& text);

}  // namespace movebench::facts
