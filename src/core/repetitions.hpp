// One count of timed repetitions, the same way in every command: the range
// it takes, the one message when it is out of it, and the key the command
// records it under. The option is always --repetitions (core/vocabulary.hpp),
// or --<probe>-repetitions for a probe with a count of its own; the keys
// differ per command because they are part of the result format
// (docs/results.md): kept as they were, written only through record().
#pragma once
#include <nlohmann/json.hpp>
#include <string_view>

#include "core/vocabulary.hpp"

namespace movebench {

class Repetitions {
 public:
  // No upper bound beyond the option's int: for counts that keep no sample
  // per repetition (coll's and p2p's timed loops).
  static constexpr long long kUnbounded = 0;

  // `spelling`: how messages name the option, with the names the command
  // also takes ("--repetitions (-c, --count)"); `key`: its settings key.
  constexpr Repetitions(std::string_view spelling, std::string_view key,
                        long long most = vocabulary::kMaxKeptRepetitions)
      : spelling_(spelling), key_(key), most_(most) {}

  // Throws UsageError "invalid <spelling> '<value>': 1 to <most>" (or
  // "1 or more" when unbounded) for a count outside the range.
  void check(long long value) const;
  // settings[key] = value.
  void record(nlohmann::json& settings, const nlohmann::json& value) const;
  std::string_view key() const { return key_; }

 private:
  std::string_view spelling_, key_;
  long long most_;
};

}  // namespace movebench
