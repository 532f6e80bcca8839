// The facts of every kernel row (kernel_rows.hpp) that the rest of mem reads:
// names, traffic, flops and the formula's text, all derived from the row.
#include <fmt/format.h>

#include <utility>

#include "core/errors.hpp"
#include "mem/kernels.hpp"

namespace movebench::mem {
namespace {

// A formula evaluated on text: each operation writes itself out, with the
// parentheses the evaluation order needs (left to right, * before +), and
// counts itself as a flop. A formula with an operation not defined here does
// not compile against it: add the operation.
struct Traced {
  std::string text;
  int precedence = 3;  // 1: a sum, 2: a product, 3: a name
  int flops = 0;
};
std::string operand(const Traced& x, bool parenthesise) { return parenthesise ? "(" + x.text + ")" : x.text; }
Traced binary(const Traced& x, const char* op, int precedence, const Traced& y) {
  // Left-associative: the right operand of the same precedence was evaluated
  // first and keeps its parentheses.
  return {operand(x, x.precedence < precedence) + op + operand(y, y.precedence <= precedence), precedence,
          x.flops + y.flops + 1};
}
Traced operator+(const Traced& x, const Traced& y) { return binary(x, " + ", 1, y); }
Traced operator*(const Traced& x, const Traced& y) { return binary(x, " * ", 2, y); }

// Kernel's values index the table: the rows must come in its order.
template <class... Rows>
constexpr bool in_kernel_order(RowList<Rows...>) {
  std::size_t at = 0;
  return ((static_cast<std::size_t>(Rows::id) == at++) && ...);
}
static_assert(in_kernel_order(KernelRows{}), "KernelRows lists the rows in the order of enum Kernel");

char slot_letter(Slot s) { return static_cast<char>('a' + static_cast<int>(s)); }

// The formula's right-hand side with every array read named by `name_of`.
template <class Row, Slot... In, class Name>
Traced trace(Reads<In...>, [[maybe_unused]] Name name_of) {
  return Row::formula(Traced{"s"}, Traced{name_of(In)}...);
}

template <class Row, Slot... In>
KernelInfo info_of(Reads<In...> reads) {
  KernelInfo k;
  k.id = Row::id;
  k.name = Row::name;
  k.label = Row::label;
  k.writes = Row::writes;
  ((k.reads[static_cast<std::size_t>(In)] = true), ...);
  k.loads = static_cast<int>(sizeof...(In));
  k.stores = Row::writes == Slot::kNone ? 0 : 1;
  const bool rereads = ((In == Row::writes) || ...);
  // A store to a line the kernel did not read first reads it (write-allocate).
  k.write_allocate = k.stores > 0 && !rereads;
  k.arrays = k.loads + (k.stores > 0 && !rereads ? 1 : 0);
  k.scalar = Row::scalar;
  const Traced plain = trace<Row>(reads, [](Slot s) { return std::string(1, slot_letter(s)); });
  const Traced indexed = trace<Row>(reads, [](Slot s) { return fmt::format("{}[i]", slot_letter(s)); });
  if (Row::writes == Slot::kNone) {  // a reduction: s += formula
    k.formula = "s += " + plain.text;
    k.flops = plain.flops + 1;
  } else {
    k.formula = fmt::format("{} = {}", slot_letter(Row::writes), plain.text);
    k.flops = plain.flops;
  }
  k.expression = indexed.text;
  return k;
}

std::array<KernelInfo, kKernelCount> build_table() {
  std::array<KernelInfo, kKernelCount> table;
  std::size_t at = 0;
  for_each_row([&](auto row) {
    using Row = decltype(row);
    table[at] = info_of<Row>(typename Row::In{});
    ++at;
  });
  return table;
}

// "init, sum, ... or sdaxpy": the names for an error message.
std::string kernel_names() {
  std::string out;
  const auto& table = kernel_table();
  for (std::size_t k = 0; k < table.size(); ++k) {
    const char* sep = k == 0 ? "" : k + 1 == table.size() ? " or " : ", ";
    out += fmt::format("{}{}", sep, table[k].name);
  }
  return out;
}

}  // namespace

const std::array<KernelInfo, kKernelCount>& kernel_table() {
  static const std::array<KernelInfo, kKernelCount> table = build_table();
  return table;
}
const KernelInfo& info(Kernel k) { return kernel_table()[static_cast<std::size_t>(k)]; }

Kernel kernel_by_name(std::string_view name) {
  for (const auto& k : kernel_table()) {
    if (k.name == name) return k.id;
  }
  throw UsageError(fmt::format("unknown kernel '{}': expected {}", name, kernel_names()));
}

namespace {

// The arrays a row's kernel takes, in the order a, b, c, d: "global TYPE* a, ...".
std::string array_params(const KernelInfo& k) {
  std::string params;
  for (std::size_t s = 0; s < kSlotCount; ++s) {
    const Slot slot = static_cast<Slot>(s);
    if (k.writes == slot) {
      params += fmt::format("global TYPE* {}, ", slot_letter(slot));
    } else if (k.reads[s]) {
      params += fmt::format("global const TYPE* {}, ", slot_letter(slot));
    }
  }
  return params;
}

}  // namespace

std::string elementwise_kernel_source(const KernelInfo& k) {
  const std::string params = array_params(k) + (k.has_scalar() ? "ulong n, TYPE s" : "ulong n");
  return fmt::format("kernel void {}({}) {{\n  const size_t i = get_global_id(0);\n  if (i < n) {}[i] = {};\n}}\n",
                     k.name, params, slot_letter(k.writes), k.expression);
}

std::string elementwise_passes_source(const KernelInfo& k) {
  return fmt::format(
      "kernel void {0}_passes({1}ulong n, global const TYPE* scalars, uint first, uint passes) {{\n"
      "  for (uint p = 0; p < passes; ++p) {{\n"
      "    const TYPE s = scalars[(first + p) % {2}u];\n"
      "    for (size_t i = get_global_id(0); i < n; i += get_global_size(0)) {3}[i] = {4};\n"
      "  }}\n}}\n",
      k.name, array_params(k), kScalarPeriod, slot_letter(k.writes), k.expression);
}

}  // namespace movebench::mem
