"""The few statistics the results use."""
import statistics


def percentile(values, p):
    """Nearest-rank percentile `p` (0-100) of `values`, or None when there are none."""
    if not values:
        return None
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, int(round(p / 100.0 * len(ordered) + 0.5)) - 1))
    return ordered[k]


def median(values):
    """Median of the values that are not None, or None when there are none."""
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def rounded(x, digits=1):
    """`x` rounded to `digits`, None stays None."""
    return None if x is None else round(x, digits)
