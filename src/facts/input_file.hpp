// Another machine's saved tool output (--dmidecode FILE, --lspci FILE), read
// whole and checked before any parser sees it: a regular file, at most
// kMaxInputBytes, text (no NUL, valid UTF-8, no terminal escape sequences).
// Anything else is a UsageError with one line that names the option, so a
// FIFO, a folder, /dev/zero or a binary file never hangs or fills memory.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace movebench::facts {

inline constexpr std::uint64_t kMaxInputBytes = 64ull << 20;

// The text of `path`, given with `option` ("--dmidecode"). Throws UsageError.
std::string read_text_input(const std::string& path, std::string_view option);

// Why `text` is not acceptable tool output ("" when it is): NUL bytes,
// invalid UTF-8, or escape sequences (ESC and other C0 controls than tab,
// newline and carriage return). The parsers' fuzz targets use it too.
std::string text_problem(std::string_view text);

}  // namespace movebench::facts
