// fleet's verdict (fleet/fleet_verdict): a pair whose tail (--percentiles'
// P99) is slow while its median and mean are typical is a finding, named as
// its link; a figure nobody measured names nothing.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fleet/fleet_verdict.hpp"

using namespace movebench::fleet;

namespace {

// Eight units (one host each) with equal memory figures, and every pair of
// eight units' schedule (the ring, then four random rounds) at 2.0 to 2.2 us
// one way, its P99 at 4.0 to 4.4 us: the i-th pair's P99 `p99_of_slow` where given.
struct EightUnits {
  Layout layout;
  std::vector<MemoryFigures> units;
  std::vector<PairFigures> pairs;
};

EightUnits eight_units(double p99_of_slow = 0, std::size_t slow = 0) {
  EightUnits r;
  r.layout.units = 8;
  r.layout.slots = 1;
  for (int u = 0; u < 8; ++u) {
    r.layout.host.push_back("n" + std::to_string(u));
    r.layout.leader.push_back(u);
    r.layout.slot.push_back(0);
    r.layout.ranks.push_back({u});
    MemoryFigures m;
    m.copy_mbs = 10000;
    m.triad_mbs = 11000;
    m.latency_ns = 90;
    m.threads = 1;
    r.units.push_back(m);
  }
  for (const auto& round : pair_schedule(8, 4, 42)) {
    for (const auto& p : round) {
      const double wobble = 1 + 0.05 * static_cast<double>(r.pairs.size() % 3);
      PairFigures f;
      f.pair = p;
      f.latency_us = 2.0 * wobble;
      f.bw_mbs = 9000 * wobble;
      f.latency_p99_us = 4.0 * wobble;
      r.pairs.push_back(f);
    }
  }
  if (p99_of_slow > 0) r.pairs.at(slow).latency_p99_us = p99_of_slow;
  return r;
}

}  // namespace

TEST(FleetVerdict, APairWhoseTailIsSlowWhileItsMeanIsTypicalIsNamedAsItsLink) {
  const EightUnits r = eight_units(40, 3);  // ten times the others' P99; its mean latency as theirs
  const Verdict v = judge(FleetOptions{}, r.layout, r.units, std::vector<bool>(8, false), r.pairs);
  ASSERT_EQ(v.outliers.size(), 1u) << v.json.dump();
  const FleetOutlier& o = v.outliers[0];
  EXPECT_EQ(o.figure, "p2p.latency_p99");
  EXPECT_EQ(o.unit, -1);  // a link: the pair's two units have other pairs, all typical
  EXPECT_EQ(o.pair, r.pairs[3].pair);
  EXPECT_DOUBLE_EQ(o.value, 40);
  EXPECT_GT(o.worse_by, 5);
  EXPECT_EQ(v.json[0]["kind"], "link");
  EXPECT_EQ(v.json[0]["figure"], "p2p.latency_p99");
}

TEST(FleetVerdict, NothingSlowOrNothingMeasuredNamesNothing) {
  EightUnits r = eight_units();
  EXPECT_TRUE(judge(FleetOptions{}, r.layout, r.units, std::vector<bool>(8, false), r.pairs).outliers.empty());
  for (auto& p : r.pairs) p.latency_p99_us = 0;  // run without --percentiles
  EXPECT_TRUE(judge(FleetOptions{}, r.layout, r.units, std::vector<bool>(8, false), r.pairs).outliers.empty());
}
