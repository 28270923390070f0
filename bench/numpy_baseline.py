"""The guide's simplest case in vectorised numpy: blind retries, no key.

Each attempt draws one lognormal latency (median 300 ms, sigma 0.6) and one uniform for the
lost reply (2%); an attempt whose latency exceeds the 1 s timeout or whose reply is lost is
retried, up to 3 retries. Prints JSON: actions per second (median of runs) and the
duplicates per 1000 it found, as a check that it simulates the same thing.
"""
import json
import sys
import time

import numpy as np


def simulate(rng, n):
    executions = np.zeros(n, dtype=np.int32)
    active = np.arange(n)
    for _ in range(4):  # first attempt + 3 retries
        latency = rng.lognormal(np.log(300.0), 0.6, active.size)
        lost = rng.random(active.size) < 0.02
        executions[active] += 1
        active = active[(latency > 1000.0) | lost]
        if active.size == 0:
            break
    return (executions.sum() - n) / n * 1000


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 4_000_000
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    rng = np.random.default_rng(1)
    simulate(rng, n // 10)  # warm-up
    rates, dups = [], 0.0
    for _ in range(runs):
        t = time.perf_counter()
        dups = simulate(rng, n)
        rates.append(n / (time.perf_counter() - t))
    rates.sort()
    print(json.dumps({"numpy": np.__version__, "actions": n, "median_actions_per_s": rates[len(rates) // 2],
                      "duplicates_per_1000": float(dups)}))


if __name__ == "__main__":
    main()
