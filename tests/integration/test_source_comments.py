"""Comments that state a fact the code decides (issue 20): each is checked
against the code, so that the next change to the code cannot leave it stale.
They were: the MPI option "builds beff and coll" (p2p too), the loaded-latency
chase "64 MiB to 1 GiB" (the code clamped to 512 MiB; its two bounds are
constants now), the device choice
"shared by link and stream" (mem --backend too)."""

import re

from conftest import REPO


def read(path):
    return (REPO / path).read_text()


def test_mpi_option_names_every_mpi_command():
    # The MPI commands are those the no-MPI build stands in for.
    stand_ins = re.findall(r'make_unique<NoMpiCommand>\("(\w+)"', read("src/net/no_mpi_commands.cpp"))
    assert sorted(stand_ins) == ["beff", "coll", "fleet", "p2p"]
    option = re.search(r'option\(MOVEBENCH_WITH_MPI "([^"]*)"', read("CMakeLists.txt"))[1]
    for name in stand_ins:
        assert re.search(rf"\b{name}\b", option), f"CMakeLists.txt's MPI option does not name {name}: {option!r}"


def test_chase_bytes_comment_says_the_clamp():
    """The default chase's bounds are two constants: the resolve clamps with
    them, the field's comment names them, --help prints them and docs/mem.md
    states them (its options table, checked against --help in test_options.py)."""
    options = read("src/mem/mem_options.hpp")
    bounds = dict(
        re.findall(
            r"inline constexpr std::uint64_t (kLoadedChase(?:Least|Most)Bytes) = "
            r"std::uint64_t\{(\d+)\} << 20;",
            options,
        )
    )
    assert set(bounds) == {"kLoadedChaseLeastBytes", "kLoadedChaseMostBytes"}, bounds
    assert re.search(
        r"chase_bytes = .*?std::clamp<[^>]*>\(4 \* llc, kLoadedChaseLeastBytes, kLoadedChaseMostBytes\)",
        read("src/mem/mem_resolve.cpp"),
        re.S,
    ), "mem_resolve.cpp no longer clamps with them"
    comment = next(l for l in options.splitlines() if "chase_bytes = 0;" in l)
    assert "kLoadedChase" in comment, comment
    least, most = bounds["kLoadedChaseLeastBytes"], bounds["kLoadedChaseMostBytes"]
    assert f"{least}M to {most}M" in read("docs/mem.md")


def test_device_choice_comment_names_its_users():
    comment = next(l for l in read("src/device/device.hpp").splitlines() if "How the user picks a device" in l)
    users = {
        "link": "src/link/link_bench.hpp",
        "stream": "src/stream/stream_options.hpp",
        "mem --backend": "src/mem/mem_options.hpp",
    }
    for user, where in users.items():
        assert re.search(r"CommonOptions|DeviceChoice", read(where)), f"{where} no longer picks a device"
        assert user in comment, f"device.hpp's DeviceChoice comment leaves out {user}: {comment!r}"
