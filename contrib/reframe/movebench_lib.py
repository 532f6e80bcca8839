"""movebench in ReFrame: one base class for every movebench benchmark.

A test names the benchmark and its parameters; the class builds the command
line (always with --parsable and --json), takes its sanity from movebench's
own verdict and its performance variables from the MOVEBENCH_RESULT lines.
See docs/reframe.md.

    @rfm.simple_test
    class MemTriad(MovebenchTest):
        benchmark = 'mem'
        sizes = '16M'                       # --elements for mem bandwidth
        options = ['--kernels', 'triad', '--repetitions', '5']
        reference = {'mysite:cpu': {'mem.triad.bandwidth': (20000, -0.1, None, 'MB/s')}}

Partitions are chosen by feature: tests with one rank want a partition with
the feature 'serial', tests with more want 'mpi' (config/local.py has both).
"""

import fnmatch
import os
import re

import reframe as rfm
import reframe.utility.sanity as sn
import reframe.utility.typecheck as typ
from reframe.core.builtins import run_after, run_before, sanity_function, variable

# How each benchmark takes `sizes` (movebench's own size syntax: 1K:64M,
# 8,1K,64K), by the shared option names of docs/options.md. mem by mode;
# coll takes a range a:b as --min-bytes a --max-bytes b (mpiBench's -b, -e).
SIZE_OPTIONS = {
    'link': '--sizes-bytes',
    'p2p': '--sizes-bytes',
    'stream': '--sizes-bytes',
    'beff': '--max-bytes',
    'coll': ('--min-bytes', '--max-bytes'),
}
MEM_SIZE_OPTIONS = {
    'bandwidth': '--elements',  # the array length
    'seq': '--sizes-elements',
    'tp': '--sizes-elements',
    'latency': '--sizes-bytes',  # working sets
    'loaded-latency': '--chase-bytes',  # the chase's working set
}


def size_arguments(benchmark, mode, sizes):
    """The options that pass `sizes` to `benchmark` (in `mode`, a list of its positional arguments)."""
    if benchmark == 'mem':
        how = MEM_SIZE_OPTIONS.get(mode[0] if mode else 'bandwidth')
    else:
        how = SIZE_OPTIONS.get(benchmark)
    if how is None:
        raise ValueError(f'movebench {benchmark} {" ".join(mode)} takes no sizes: give them in options')
    if isinstance(how, tuple):
        first, _, last = sizes.partition(':')
        return [how[0], first, how[1], last or first]
    return [how, sizes]


RESULT_LINE = re.compile(r'^MOVEBENCH_RESULT (.*)$', re.MULTILINE)
FAILURE = r'does not validate|validation FAILED|validation failed|^validation: FAILED'


def parse_results(text):
    """The MOVEBENCH_RESULT lines of `text`, each a dict of its key=value fields, in order."""
    out = []
    for match in RESULT_LINE.finditer(text):
        fields = {}
        for item in match.group(1).split(' '):
            key, _, value = item.partition('=')
            fields[key] = value
        out.append(fields)
    return out


def result_keys(results):
    """One stable performance-variable name per result line.

    NAME.METRIC (NAME alone when it already ends in the metric), then
    @BYTES where that name recurs at several sizes, then the parameters
    that still tell recurring lines apart (",threads=2").
    """

    def base(r):
        name, metric = r['name'], r['metric']
        return name if name.split('.')[-1] == metric else f'{name}.{metric}'

    keys = [base(r) for r in results]
    sizes = {}
    for k, r in zip(keys, results):
        sizes.setdefault(k, set()).add(r.get('bytes'))
    keys = [f"{k}@{r.get('bytes')}" if len(sizes[k]) > 1 else k for k, r in zip(keys, results)]
    fixed = {'name', 'metric', 'value', 'unit', 'stat', 'of', 'better', 'accounting', 'bytes'}
    for k in set(keys):
        same = [i for i, key in enumerate(keys) if key == k]
        if len(same) < 2:
            continue
        # Settings tell lines apart (threads=2, host_memory=pinned); measured
        # side figures (variance=3.5e+06, overlap=0.91) would make the names
        # change from run to run, so parameters with a fractional value are left out.
        params = sorted({p for i in same for p in results[i] if p not in fixed})
        differ = [
            p
            for p in params
            if len({results[i].get(p) for i in same}) > 1 and not any(_fractional(results[i].get(p)) for i in same)
        ]
        for i in same:
            keys[i] = k + ''.join(f',{p}={results[i].get(p)}' for p in differ)
    # Whatever is still the same name gets #2, #3 ... in output order.
    seen = {}
    for i, k in enumerate(keys):
        seen[k] = seen.get(k, 0) + 1
        if seen[k] > 1:
            keys[i] = f'{k}#{seen[k]}'
    return keys


def _fractional(value):
    try:
        return value is not None and float(value) != int(float(value))
    except ValueError:
        return False


class MovebenchTest(rfm.RunOnlyRegressionTest):
    """One movebench run. Set `benchmark`; the rest has defaults."""

    #: The movebench binary (a site sets it here, in a subclass, or with
    #: `reframe -S movebench=/path/to/movebench`).
    movebench = variable(str, value='movebench')
    #: mem, link, stream, beff, coll or p2p.
    benchmark = variable(str)
    #: Positional arguments: mem's mode (seq, latency ...), coll's operations.
    mode = variable(typ.List[str], value=[])
    #: Sizes in movebench's syntax, passed as the benchmark takes them.
    sizes = variable(str, type(None), value=None)
    #: MPI ranks (beff, coll, p2p need at least 2).
    ranks = variable(int, value=1)
    #: Any further options of the benchmark.
    options = variable(typ.List[str], value=[])
    #: A line the benchmark prints when its own validation passed (mem:
    #: "Solution Validates"), looked for besides the exit code and the
    #: result file's verdict; None where the benchmark prints none.
    validation_line = variable(str, type(None), value=None)
    #: Performance variables to report: patterns on their names (fnmatch);
    #: None reports every result line.
    perf_keys = variable(typ.List[str], type(None), value=None)

    valid_prog_environs = ['*']
    result_file = 'movebench.json'
    tags = {'movebench'}

    @run_after('init')
    def choose_partitions(self):
        self.valid_systems = ['+mpi'] if self.ranks > 1 else ['+serial']
        self.num_tasks = self.ranks
        self.descr = f'movebench {self.benchmark} {" ".join(self.mode)}'.strip()

    @run_before('run')
    def set_command(self):
        self.executable = self.movebench
        args = [self.benchmark, *self.mode]
        if self.sizes is not None:
            args += size_arguments(self.benchmark, self.mode, self.sizes)
        args += [*self.options, '--parsable', '--json', self.result_file]
        self.executable_opts = args

    @sanity_function
    def validated(self):
        checks = [
            sn.assert_eq(self.job.exitcode, 0, msg='movebench exited with {0}'),
            sn.assert_found(
                r'"validated": true', self.result_file, msg='the result file does not say "validated": true'
            ),
            sn.assert_not_found(FAILURE, self.stdout),
            sn.assert_not_found(FAILURE, self.stderr),
            sn.assert_found(r'^MOVEBENCH_RESULT ', self.stdout, msg='no MOVEBENCH_RESULT line'),
        ]
        if self.validation_line:
            checks.append(sn.assert_found(self.validation_line, self.stdout))
        return sn.all(checks)

    @run_before('performance')
    def set_perf_variables(self):
        with open(os.path.join(self.stagedir, str(sn.evaluate(self.stdout)))) as f:
            results = parse_results(f.read())
        self.perf_variables = {}
        for key, r in zip(result_keys(results), results):
            if self.perf_keys is not None and not any(fnmatch.fnmatchcase(key, p) for p in self.perf_keys):
                continue
            self.perf_variables[key] = sn.make_performance_function(sn.defer(float(r['value'])), r['unit'])
