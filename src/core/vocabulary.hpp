// The options every command names the same way (docs/options.md): one long
// name per concept, whatever the command. The shared long name comes first
// among an option's long names, so that --help, CLI11's messages and the
// docs show it; the upstream tool's short form comes before it and older
// names after it, as aliases that keep users' scripts working.
#pragma once
#include <string>
#include <string_view>

namespace movebench::vocabulary {

struct Concept {
  std::string_view long_name;  // "--repetitions"
  std::string_view meaning;    // "Timed repetitions": every such option's help starts with it
};

inline constexpr Concept kRepetitions{"--repetitions", "Timed repetitions"};
inline constexpr Concept kSizesBytes{"--sizes-bytes", "Sizes in bytes"};
inline constexpr Concept kSizesElements{"--sizes-elements", "Sizes in elements"};
inline constexpr Concept kMinBytes{"--min-bytes", "Smallest size in bytes"};
inline constexpr Concept kMaxBytes{"--max-bytes", "Largest size in bytes"};
inline constexpr Concept kTimeBudget{"--time-budget", "Time budget in seconds"};
inline constexpr Concept kThreads{"--threads", "Threads"};
inline constexpr Concept kSkipValidation{"--skip-validation", "Skip validation"};
inline constexpr Concept kCheckEvery{"--check-every", "Validate every iteration"};
inline constexpr Concept kTimeout{"--timeout", "Watchdog in seconds"};
inline constexpr Concept kSeed{"--seed", "Random seed"};
inline constexpr Concept kJson{"--json", "Result document"};
inline constexpr Concept kStore{"--store", "Result store"};

// --backend's value for host memory and CPU threads (link, stream, mem):
// the backend every build has, and its name in results (the device's
// "backend", settings.mem.backend).
inline constexpr std::string_view kHostBackend = "host";

// The most timed repetitions a command that keeps every one as a sample
// takes (mem, beff): 2^31 - 1 of them once ended in std::bad_alloc.
inline constexpr long long kMaxKeptRepetitions = 1'000'000;

// CLI11's name list: "-c,--repetitions,--count" from ("-c", kRepetitions, "--count").
std::string names(std::string_view upstream_short, const Concept& c, std::string_view older = "");
inline std::string names(const Concept& c) { return names("", c); }
// The help text: "Timed repetitions: tests per size".
std::string help(const Concept& c, std::string_view detail);

}  // namespace movebench::vocabulary
