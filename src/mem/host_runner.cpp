#include "mem/measure.hpp"
#include "mem/runner.hpp"

namespace movebench::mem {

template <class T>
HostRunner<T>::HostRunner(const MemOptions& opt, int threads, bool shared, std::size_t max_n)
    : opt_(opt),
      team_(make_team(opt, threads)),
      ws_(make_workspace<T>(max_n, shared, team_, opt.alignment, opt.huge_pages)) {}

template <class T>
void HostRunner<T>::reset(std::size_t n) {
  ws_.resize(n);
  initialise(ws_, team_);
}

template <class T>
void HostRunner<T>::prepare(std::span<const Kernel> kernels) {
  calibration_ = choose_shapes(opt_, ws_, team_, kernels);
}

template <class T>
std::vector<std::vector<double>> HostRunner<T>::time_sequence(std::span<const Kernel> sequence, int reps,
                                                              std::size_t iters, std::uint64_t first_call,
                                                              double& sum) {
  // Where the threads ran is read once, in the first sequence (outside its timed region).
  return mem::time_sequence(ws_, team_, sequence, reps, iters, first_call, sum,
                            placement_.empty() ? &placement_ : nullptr);
}

template <class T>
Validation HostRunner<T>::check(std::span<const Kernel> sequence, std::uint64_t calls, double sum) {
  return validate(ws_, sequence, corrupt_for_test(opt_, ws_, calls), sum);
}

template <class T>
nlohmann::json HostRunner<T>::params(Kernel k) const {
  nlohmann::json p = {{"threads", team_.threads},
                      {"shape", shape_name(team_.shape_of(k))},
                      {"nontemporal", nontemporal(k)},
                      {"alignment", opt_.alignment}};
  if (opt_.mode == Mode::kSeq || opt_.mode == Mode::kTp) {
    p["elements_per_thread"] = ws_.shared ? ws_.elements_per_view / team_.threads : ws_.elements_per_view;
  }
  return p;
}

template <class T>
bool HostRunner<T>::nontemporal(Kernel k) const {
  return is_nontemporal(team_.shape_of(k)) && k != Kernel::kSum;
}

template class HostRunner<double>;
template class HostRunner<float>;

}  // namespace movebench::mem
