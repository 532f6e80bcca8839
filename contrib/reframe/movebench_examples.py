"""Example movebench tests for ReFrame: mem, link, p2p, coll.

Small sizes, so that all of them run in about a minute on two cores; a site
copies them, raises the sizes and fills in its references (the tuples are
(reference, lower, upper, unit), bounds as fractions; None: unbounded).

    reframe -C contrib/reframe/config/local.py -c contrib/reframe/movebench_examples.py \\
            -S movebench=$PWD/build/release/movebench -r
"""

import os
import sys

import reframe as rfm
from reframe.core.builtins import parameter, run_after

sys.path.insert(0, os.path.dirname(__file__))
from movebench_lib import MovebenchTest  # noqa: E402


@rfm.simple_test
class MovebenchMemBandwidth(MovebenchTest):
    """TheBandwidthBenchmark's table on 2 Mi elements per array."""

    benchmark = 'mem'
    sizes = '2M'
    threads = parameter(['1'])
    validation_line = r'^Solution Validates$'
    perf_keys = ['mem.*.bandwidth']
    reference = {
        # 'mysite:cpu': {'mem.triad.bandwidth': (20000, -0.10, None, 'MB/s')},
        '*': {},
    }

    @run_after('init')
    def add_options(self):
        self.options = ['--repetitions', '5', '--threads', self.threads]


@rfm.simple_test
class MovebenchMemLatency(MovebenchTest):
    """Pointer-chase latency at a few working sets."""

    benchmark = 'mem'
    mode = ['latency']
    sizes = '4K,256K,16M'
    options = ['--time-budget', '0.05']
    validation_line = r'^Solution Validates$'
    reference = {
        # 'mysite:cpu': {'mem.latency@16777216': (100, None, 0.2, 'ns')},
        '*': {},
    }


@rfm.simple_test
class MovebenchLink(MovebenchTest):
    """Host-device bandwidth; here on the host backend (every machine has it)."""

    benchmark = 'link'
    mode = ['bandwidth']
    sizes = '64K,1M'
    backend = parameter(['host'])
    validation_line = r'^validation: PASSED$'
    perf_keys = ['link.copy.*.bandwidth@1048576,*']
    reference = {
        # 'mysite:gpu': {'link.copy.read.bandwidth@1048576,host_memory=pinned': (20000, -0.2, None, 'MB/s')},
        '*': {},
    }

    @run_after('init')
    def add_options(self):
        self.options = ['--backend', self.backend, '--paths', 'copy', '--repetitions', '5']


@rfm.simple_test
class MovebenchP2p(MovebenchTest):
    """OSU-style ping-pong latency and bandwidth between two ranks."""

    benchmark = 'p2p'
    ranks = 2
    sizes = '1:64K'
    options = ['--tests', 'latency,bw', '--repetitions', '200', '--warmup', '20']
    perf_keys = ['p2p.latency@1', 'p2p.bw.bandwidth@65536']
    reference = {
        # 'mysite:mpi': {'p2p.latency@1': (1500, None, 0.3, 'ns'), 'p2p.bw.bandwidth@65536': (10000, -0.2, None, 'MB/s')},
        '*': {},
    }


@rfm.simple_test
class MovebenchColl(MovebenchTest):
    """mpiBench's collectives with bus bandwidth, two ranks."""

    benchmark = 'coll'
    ranks = 2
    mode = ['Allreduce', 'Bcast']
    sizes = '8:64K'
    options = ['--repetitions', '50']
    perf_keys = ['coll.allreduce.*@65536', 'coll.bcast.*@65536']
    reference = {
        # 'mysite:mpi': {'coll.allreduce.busbw@65536': (5, -0.2, None, 'GB/s')},
        '*': {},
    }
