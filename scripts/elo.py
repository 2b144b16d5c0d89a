#!/usr/bin/env python3
"""Elo difference with its 95% margin: the one implementation the scripts
share (pgn_score.py, strength_match.py).

    scripts/elo.py W D L                 from game results (trinomial)
    scripts/elo.py --penta N0,N1,N2,N3,N4  from game pairs (pentanomial:
                                         pairs scoring 0, 1/2, 1, 3/2, 2)

Logistic Elo, -400 log10(1/score - 1); the margin is 1.96 standard errors
of the mean score, mapped through the same curve (half the interval's
width). From pairs it also prints the normalised Elo, as fastchess does.
Standard library only.
"""
import argparse
import math

Z95 = 1.96


def elo(score):
    """Logistic Elo of a mean score in (0, 1)."""
    return -400.0 * math.log10(1.0 / score - 1.0)


def _interval(mean, sd, n):
    """(Elo, margin, low, high) of a mean score with per-sample deviation
    sd over n samples; an end beyond 0 or 1 is infinite."""
    margin = Z95 * sd / math.sqrt(n)
    low = elo(mean - margin) if mean - margin > 0.0 else -math.inf
    high = elo(mean + margin) if mean + margin < 1.0 else math.inf
    return elo(mean), (high - low) / 2, low, high


def from_results(wins, draws, losses):
    """(Elo, margin, low, high) from game results, or None where the score
    is 0 or 1 (no finite Elo)."""
    n = wins + draws + losses
    if n == 0:
        return None
    mean = (wins + 0.5 * draws) / n
    if not 0.0 < mean < 1.0:
        return None
    var = (wins * (1 - mean) ** 2 + draws * (0.5 - mean) ** 2 + losses * mean**2) / n
    return _interval(mean, math.sqrt(var), n)


def from_pairs(pair_scores):
    """(Elo, margin, low, high, nElo) from the mean scores of game pairs
    (0, 0.25, 0.5, 0.75 or 1 each), or None without a finite value."""
    n = len(pair_scores)
    if n < 2:
        return None
    mean = sum(pair_scores) / n
    sd = math.sqrt(sum((p - mean) ** 2 for p in pair_scores) / n)
    if not 0.0 < mean < 1.0 or sd == 0.0:
        return None
    # Normalised Elo: the mean over the pairs' spread, as fastchess prints it.
    nelo = (mean - 0.5) / (sd * math.sqrt(2.0)) * 800.0 / math.log(10.0)
    return (*_interval(mean, sd, n), nelo)


def from_pentanomial(counts):
    """from_pairs over pentanomial counts [N0, N1, N2, N3, N4]."""
    return from_pairs([k / 4 for k, c in enumerate(counts) for _ in range(c)])


def sprt_llr(counts, nelo0, nelo1):
    """The log-likelihood ratio of an SPRT between normalised Elo bounds
    over pentanomial counts, in the normal approximation fastchess uses:
    the bounds become mean pair scores through the pairs' own spread."""
    n = sum(counts)
    scores = [k / 4 for k in range(5)]
    mean = sum(c * s for c, s in zip(counts, scores)) / n
    var = sum(c * (s - mean) ** 2 for c, s in zip(counts, scores)) / n
    if var == 0.0:
        return None
    per_nelo = math.sqrt(2.0 * var) * math.log(10.0) / 800.0
    mu0, mu1 = 0.5 + nelo0 * per_nelo, 0.5 + nelo1 * per_nelo
    return n * (mu1 - mu0) * (2 * mean - mu0 - mu1) / (2 * var)


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("results", nargs="*", type=int, help="wins draws losses")
    ap.add_argument("--penta", help="pentanomial counts N0,N1,N2,N3,N4")
    ap.add_argument("--sprt", help="with --penta: the LLR of the SPRT between normalised Elo bounds E0,E1 (e.g. 0,10)")
    args = ap.parse_args()
    if args.penta:
        r = from_pentanomial([int(x) for x in args.penta.split(",")])
        if r is None:
            ap.exit(1, "elo: no finite value\n")
        print(f"Elo {r[0]:+.1f} +/- {r[1]:.1f} (95% {r[2]:+.1f} to {r[3]:+.1f}), nElo {r[4]:+.1f}")
        if args.sprt:
            e0, e1 = (float(x) for x in args.sprt.split(","))
            llr = sprt_llr([int(x) for x in args.penta.split(",")], e0, e1)
            bound = math.log(0.95 / 0.05)
            print(f"LLR {llr:.2f} of [{-bound:.2f}, {bound:.2f}] (alpha = beta = 0.05)")
    elif len(args.results) == 3:
        r = from_results(*args.results)
        if r is None:
            ap.exit(1, "elo: no finite value\n")
        print(f"Elo {r[0]:+.1f} +/- {r[1]:.1f} (95% {r[2]:+.1f} to {r[3]:+.1f})")
    else:
        ap.error("give W D L or --penta N0,N1,N2,N3,N4")


if __name__ == "__main__":
    main()
