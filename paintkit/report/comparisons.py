"""The report's comparisons section (filled in below)."""
def comparisons_html(data, n_boot=2000, seed=0):
    return ""
