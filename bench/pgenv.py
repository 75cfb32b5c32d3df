"""What the TPC-H benchmarks share about the throwaway cluster (tools/pgcluster.sh)."""
import os


def cluster_env(path="build/pgcluster/env"):
    """os.environ with the cluster's connection settings (PGHOST, PGPORT, ...) from its env file."""
    env = dict(os.environ)
    with open(path) as f:
        for line in f:
            k, v = line.replace("export ", "").strip().split("=", 1)
            env[k] = v
    return env
