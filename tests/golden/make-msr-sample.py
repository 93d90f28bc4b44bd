#!/usr/bin/python3
"""Writes msr-sample.csv: a made-up trace in the MSR Cambridge format
(Timestamp in 100 ns ticks, Hostname, DiskNumber, Type, Offset, Size,
ResponseTime), for the golden runs. Made by this script (a fixed linear
congruential generator, so any Python writes the same bytes); public
domain, like the rest of tests/golden. Shape: bursts of 4-64 KiB requests,
60 % reads, some misaligned, over 8 GiB, two disks, pauses between bursts."""
import sys

state = 12345


def rnd(n):
    global state
    state = (state * 6364136223846793005 + 1442695040888963407) % (1 << 64)
    return (state >> 33) % n


t = 128166372000000000
lines = []
for burst in range(400):
    t += 10000 * (1 + rnd(2000))          # 1 ms .. 2 s between bursts
    base = rnd(8 << 30) // 4096 * 4096
    for k in range(1 + rnd(12)):
        t += 10 * (1 + rnd(500))          # 1 us .. 5 ms apart
        size = 4096 << rnd(5)
        off = base + k * size if rnd(3) else rnd(8 << 30) // 512 * 512
        kind = "Read" if rnd(10) < 6 else "Write"
        lines.append(f"{t},golden,{rnd(2)},{kind},{off},{size},{100 + rnd(5000)}")
sys.stdout.write("\n".join(lines) + "\n")
