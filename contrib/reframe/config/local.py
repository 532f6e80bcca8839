"""A generic ReFrame configuration for any one machine: movebench on its
cores, MPI jobs by `mpirun`. Partitions are chosen by feature (movebench_lib):
'local' has 'serial' (one process), 'mpi' has 'mpi' (mpirun -np N). A site
with a batch system writes its own, keeping the two features."""

site_configuration = {
    'systems': [
        {
            'name': 'local',
            'descr': 'This machine, no batch system',
            'hostnames': ['.*'],
            'modules_system': 'nomod',
            'partitions': [
                {
                    'name': 'local',
                    'descr': 'one process',
                    'scheduler': 'local',
                    'launcher': 'local',
                    'environs': ['builtin'],
                    'features': ['serial'],
                    'max_jobs': 1,
                },
                {
                    'name': 'mpi',
                    'descr': 'MPI ranks by mpirun on this machine',
                    'scheduler': 'local',
                    'launcher': 'mpirun',
                    'environs': ['builtin'],
                    'features': ['mpi'],
                    'max_jobs': 1,
                    'env_vars': [
                        # Open MPI refuses to run as root (containers, CI) unless told;
                        # harmless elsewhere and for other MPIs.
                        ['OMPI_ALLOW_RUN_AS_ROOT', '1'],
                        ['OMPI_ALLOW_RUN_AS_ROOT_CONFIRM', '1'],
                        # Shared cores: ranks wait without spinning.
                        ['OMPI_MCA_mpi_yield_when_idle', '1'],
                    ],
                },
            ],
        },
    ],
    # ReFrame's own 'builtin' environment: movebench needs no compiler here.
}
