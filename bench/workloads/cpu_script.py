"""CPU-bound Python: the 'real program' case of an interpreter with a large shared library
(libpython) whose frames the profilers must unwind and name. Usage: cpu_script.py [units]"""
import sys


def collatz_len(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


def word_counts(seed, n):
    counts = {}
    for i in range(n):
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        key = "w%d" % (seed % 997)
        counts[key] = counts.get(key, 0) + 1
    return counts


def main():
    units = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    best = 0
    for u in range(units):
        best = max(best, max(collatz_len(n) for n in range(1 + u * 700, 1 + (u + 1) * 700)))
        word_counts(u, 7000)
    print(best)


main()
