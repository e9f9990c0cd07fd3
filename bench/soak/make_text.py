#!/usr/bin/env python3
# SPDX-License-Identifier: BSL-1.0
# bench/soak/make_text.py: the random texts of run-sa-soak, and a naive suffix array of small
# texts (an oracle independent of emflow-sa check).
#
#   make_text.py text SEED KIND LENGTH SIGMA OUT   write a text of LENGTH bytes
#   make_text.py naive-sa TEXT INDEX_BYTES OUT     write the suffix array of a small TEXT
#
# KIND: uniform (SIGMA byte values drawn at random from 0..255), every-byte (uniform over all
# 256 values, each value occurring at least once), runs (runs of equal bytes of random lengths
# up to 4096), periodic (a random word of 1..64 bytes repeated, with a few point mutations),
# fibonacci (the Fibonacci word over two random bytes: the worst case of prefix doubling).
import random
import sys


def uniform(rng, n, sigma):
    alphabet = bytes(rng.sample(range(256), sigma))
    return bytes(rng.choices(alphabet, k=n))


def every_byte(rng, n):
    body = bytearray(rng.randbytes(n))
    if n >= 256:  # every value at least once, at random places
        for v, pos in zip(range(256), rng.sample(range(n), 256)):
            body[pos] = v
    return bytes(body)


def runs(rng, n, sigma):
    alphabet = rng.sample(range(256), sigma)
    out = bytearray()
    while len(out) < n:
        out += bytes([rng.choice(alphabet)]) * min(4096, int(rng.expovariate(1 / 256)) + 1)
    return bytes(out[:n])


def periodic(rng, n, sigma):
    word = uniform(rng, rng.randint(1, 64), sigma) or b"a"
    out = bytearray((word * (n // len(word) + 1))[:n])
    for _ in range(rng.randint(0, 3) if n else 0):
        out[rng.randrange(n)] = rng.randrange(256)
    return bytes(out)


def fibonacci(rng, n):
    a, b = rng.sample(range(256), 2)
    prev, cur = bytes([a]), bytes([a, b])
    while len(cur) < n:
        prev, cur = cur, cur + prev
    return cur[:n]


def make_text(seed, kind, n, sigma):
    rng = random.Random(seed)
    if kind == "uniform":
        return uniform(rng, n, sigma)
    if kind == "every-byte":
        return every_byte(rng, n)
    if kind == "runs":
        return runs(rng, n, sigma)
    if kind == "periodic":
        return periodic(rng, n, sigma)
    if kind == "fibonacci":
        return fibonacci(rng, n)
    sys.exit(f"make_text.py: unknown kind '{kind}'")


def naive_sa(text, index_bytes):
    sa = sorted(range(len(text)), key=lambda i: text[i:])
    return b"".join(i.to_bytes(index_bytes, "little") for i in sa)


def main(argv):
    if len(argv) == 7 and argv[1] == "text":
        _, _, seed, kind, n, sigma, out = argv
        data = make_text(int(seed), kind, int(n), int(sigma))
    elif len(argv) == 5 and argv[1] == "naive-sa":
        _, _, text, index_bytes, out = argv
        with open(text, "rb") as f:
            data = naive_sa(f.read(), int(index_bytes))
    else:
        sys.exit(__doc__ if __doc__ else "usage: see the file comment of make_text.py")
    with open(out, "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main(sys.argv)
